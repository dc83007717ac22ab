#ifndef RLOPT_GRAPH_INTERPRETER_H
#define RLOPT_GRAPH_INTERPRETER_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Shape.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rlopt::graph {

class Module;

/// A runtime value of the reference interpreter: an array (every element
/// type held as double, row-major; complex values as (re, im) pairs), or a
/// tuple of values. Tokens are empty arrays.
struct Value {
  Shape shape;
  std::vector<double> data;    ///< arrays
  std::vector<Value> elements; ///< tuples
};

struct InterpreterOptions {
  /// Seed for the values of elided constants (`constant({...})`): each is
  /// filled from this seed and the constant's name, so a pass that keeps the
  /// constant keeps its value.
  uint64_t constantSeed = 0x5eed;
  int64_t maxElements = int64_t(1) << 27; ///< per value; larger is an Error
  int64_t maxWhileIterations = 100000;    ///< per while loop
};

/// Seeded random arguments for the entry computation's parameters:
/// floating point in [-1, 1), integers in a small range, predicates 0/1.
Result<std::vector<Value>> randomArguments(const Module &module, uint64_t seed);

/// Evaluates the entry computation on `arguments`. Opcodes it does not
/// implement, and values over the limits, are an Error naming them;
/// collectives act as the identity on one device.
Result<Value> evaluate(const Module &module,
                       const std::vector<Value> &arguments,
                       const InterpreterOptions &options = {});

/// Compares two results element by element: |a - b| <= atol + rtol * |a|
/// (NaN equals NaN). The Error names the first mismatch (tuple path, index,
/// values).
Status compareValues(const Value &expected, const Value &actual,
                     double rtol = 1e-4, double atol = 1e-5);

} // namespace rlopt::graph

#endif
