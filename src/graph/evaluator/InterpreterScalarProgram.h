// A called computation compiled for scalar arguments: reducers, sort
// comparators and scatter combiners run once per element, so they run as a
// flat list of steps over a slot array instead of through the interpreter.
#ifndef RLOPT_SRC_GRAPH_EVALUATOR_INTERPRETERSCALARPROGRAM_H
#define RLOPT_SRC_GRAPH_EVALUATOR_INTERPRETERSCALARPROGRAM_H

#include "rlopt/graph/Attributes.h"
#include "rlopt/graph/Computation.h"

#include <memory>
#include <vector>

namespace rlopt::graph::interp {

class Interpreter;

class ScalarProgram {
public:
  /// The compiled form of `computation`, or null when a value in it is not
  /// a scalar or an op is not elementwise (its root may be a tuple).
  static std::unique_ptr<ScalarProgram> compile(const Interpreter &interpreter,
                                                const Computation &computation);

  size_t parameterCount() const { return parameters; }
  size_t resultCount() const { return resultSlots.size(); }
  /// Reads parameterCount() arguments and writes resultCount() results.
  /// Not reentrant: the program owns its slot array.
  void run(const double *arguments, double *results) const;

private:
  enum class StepKind {
    Unary,
    Binary,
    Compare,
    Select,
    Clamp,
    Convert,
    Bitcast,
    Move
  };
  struct Step {
    StepKind kind;
    Opcode opcode;
    ElementType type;        // of the result
    ElementType operandType; // of operand a
    ComparisonDirection direction;
    bool totalOrder;
    bool round; // round the result to `type`
    int32_t out, a, b, c;
  };

  size_t parameters = 0;
  std::vector<Step> steps;
  std::vector<int32_t> resultSlots;
  mutable std::vector<double> slots; // parameters, constants, then steps
};

} // namespace rlopt::graph::interp

#endif
