// Internals of the reference interpreter shared by its source files: the
// runtime value, the evaluator of computations, and one entry point per
// family of opcodes.
#ifndef RLOPT_SRC_GRAPH_EVALUATOR_INTERPRETERINTERNAL_H
#define RLOPT_SRC_GRAPH_EVALUATOR_INTERPRETERINTERNAL_H

#include "rlopt/graph/Interpreter.h"
#include "rlopt/graph/Module.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rlopt::graph::interp {

/// A value during evaluation. Arrays share their buffer, so passing values
/// through tuples, calls, reshapes and copies costs nothing; an op that
/// writes into an operand's buffer takes a private copy first unless it is
/// the only owner.
struct RuntimeValue {
  Shape shape;
  std::shared_ptr<std::vector<double>> buffer; // arrays; null otherwise
  std::vector<RuntimeValue> elements;          // tuples

  const double *data() const { return buffer ? buffer->data() : nullptr; }
  int64_t size() const {
    return buffer ? static_cast<int64_t>(buffer->size()) : 0;
  }
  /// The buffer, copied first if another value shares it.
  std::vector<double> &writable();
};

/// A zero-filled (or `fill`-filled) buffer of `count` elements. Inside a
/// BufferScope, large buffers come from and return to a pool: freeing and
/// re-allocating hundreds of megabytes per op costs more in page faults
/// than the op itself.
std::vector<double> newBuffer(int64_t count, double fill = 0.0);

/// A buffer of `count` elements whose contents are unspecified, for ops
/// that write every element: a recycled buffer is not cleared first.
std::vector<double> newScratchBuffer(int64_t count);

/// Pools large buffers for the evaluations on this thread while it lives.
class BufferScope {
public:
  BufferScope();
  ~BufferScope();
  BufferScope(const BufferScope &) = delete;
  BufferScope &operator=(const BufferScope &) = delete;

private:
  std::shared_ptr<class BufferPool> previous;
};

RuntimeValue makeArray(Shape shape, std::vector<double> data);
/// A zero-filled array of `shape`.
RuntimeValue makeZeroArray(const Shape &shape);
/// An array of `shape` with unspecified contents, to be overwritten.
RuntimeValue makeScratchArray(const Shape &shape);
RuntimeValue makeTuple(std::vector<RuntimeValue> elements);
/// An array, or a tuple of arrays, with every element zero (tokens empty).
RuntimeValue makeZeroValue(const Shape &shape);

RuntimeValue fromPublic(const Value &value);
Value toPublic(const RuntimeValue &value);

/// The Error for `instruction`: "name (opcode) in computation: message".
Error failAt(const Instruction &instruction, const std::string &message);

// Attribute text the typed attributes do not cover.
std::optional<std::string_view> attributeText(const Instruction &instruction,
                                              std::string_view key);
/// `key={1,2}`; empty when absent.
Result<std::vector<int64_t>> intListAttribute(const Instruction &instruction,
                                              std::string_view key);
/// `key=3`; `fallback` when absent.
Result<int64_t> intAttribute(const Instruction &instruction,
                             std::string_view key, int64_t fallback);
/// `key=true`; `fallback` when absent.
bool boolAttribute(const Instruction &instruction, std::string_view key,
                   bool fallback);
/// The bytes of a custom call's backend_config as written in HLO text:
/// a C string with octal escapes.
std::string configBytes(const Instruction &instruction);

using Operands = std::vector<RuntimeValue>;

/// The instructions of `computation` that its root depends on, each after
/// its operands.
std::vector<const Instruction *>
reachableInOrder(const Computation &computation);

/// The most computations active at once when evaluating from `entry`
/// (entry included): the longest chain of calls, loop bodies, branches and
/// reducers.
int64_t nestingDepth(const Computation &entry);

/// Stack an evaluation needs per level of nesting, with room for debug
/// builds and the larger frames of reducers.
constexpr size_t kStackPerLevel = size_t(16) << 10;

/// Runs `work` on a thread whose stack holds `bytes` more than usual (on
/// this thread when that is little); an exception becomes the Error.
Status runWithStack(size_t bytes, const std::function<void()> &work);

class ScalarProgram;

/// Evaluates computations of one module. Keeps, per computation, the order
/// and use counts of its instructions and its scalar form, so computations
/// called many times (loop bodies, reducers) are prepared once.
class Interpreter {
public:
  explicit Interpreter(const InterpreterOptions &options);
  ~Interpreter();

  const InterpreterOptions &options() const { return opts; }

  /// Evaluates `computation` on `arguments`; errors are already located.
  Result<RuntimeValue> call(const Computation &computation,
                            std::vector<RuntimeValue> arguments);

  /// The computation compiled for scalar arguments, or null when it uses
  /// anything but scalar elementwise ops.
  const ScalarProgram *scalarProgram(const Computation &computation);

  /// How many times `instruction` ran before: stateful ops (rng) draw
  /// differently on each run, deterministically.
  uint64_t nextRun(const Instruction &instruction) {
    return runCounts[&instruction]++;
  }

  /// Errors when an array of `shape` is over InterpreterOptions::maxElements.
  Status checkSize(const Instruction &instruction, const Shape &shape) const;

private:
  struct Plan;
  const Plan &plan(const Computation &computation);
  Result<RuntimeValue> dispatch(const Instruction &instruction,
                                Operands &operands,
                                std::vector<RuntimeValue> &arguments);
  Result<RuntimeValue> evaluateWhile(const Instruction &instruction,
                                     Operands &operands);
  Result<RuntimeValue> evaluateConditional(const Instruction &instruction,
                                           Operands &operands);

  InterpreterOptions opts;
  std::unordered_map<const Computation *, std::unique_ptr<Plan>> plans;
  std::unordered_map<const Computation *, std::unique_ptr<ScalarProgram>>
      programs;
  std::unordered_map<const Instruction *, uint64_t> runCounts;
  int64_t depth = 0; ///< calls active now
};

/// A called computation applied to scalars: reducers, comparators, scatter
/// combiners. Uses the compiled scalar form when there is one and falls
/// back to the full interpreter otherwise.
class ScalarFunction {
public:
  /// Prepares `computation` as called by `caller`.
  static Result<ScalarFunction> make(Interpreter &interpreter,
                                     const Computation &computation,
                                     const Instruction &caller);

  size_t parameterCount() const { return parameterTypes.size(); }
  size_t resultCount() const { return resultTypes.size(); }
  ElementType resultType(size_t i) const { return resultTypes[i]; }
  /// Reads parameterCount() values, writes resultCount() values.
  Status apply(const double *arguments, double *results) const;

  /// Set when the root is one binary elementwise op on parameters 0 and 1
  /// in that order: callers loop over that op directly.
  std::optional<Opcode> binaryOp() const { return binary; }
  /// Set when the root is parameter N (scatter's "replace" combiner).
  std::optional<int64_t> returnsParameter() const { return passThrough; }

private:
  Interpreter *interpreter = nullptr;
  const Computation *computation = nullptr;
  const Instruction *caller = nullptr;
  const ScalarProgram *program = nullptr;
  std::vector<ElementType> parameterTypes, resultTypes;
  std::optional<Opcode> binary;
  std::optional<int64_t> passThrough;
};

// One entry point per family of opcodes. Each reads `operands` (which it
// may move from) and returns the instruction's value or a located Error.
Result<RuntimeValue> evaluateElementwise(Interpreter &, const Instruction &,
                                         Operands &);
Result<RuntimeValue> evaluateMap(Interpreter &, const Instruction &,
                                 Operands &);
Result<RuntimeValue> evaluateShapeOp(Interpreter &, const Instruction &,
                                     Operands &);
Result<RuntimeValue> evaluateGather(Interpreter &, const Instruction &,
                                    Operands &);
Result<RuntimeValue> evaluateScatter(Interpreter &, const Instruction &,
                                     Operands &);
Result<RuntimeValue> evaluateReduce(Interpreter &, const Instruction &,
                                    Operands &);
Result<RuntimeValue> evaluateReduceWindow(Interpreter &, const Instruction &,
                                          Operands &);
Result<RuntimeValue> evaluateSelectAndScatter(Interpreter &,
                                              const Instruction &, Operands &);
Result<RuntimeValue> evaluateSort(Interpreter &, const Instruction &,
                                  Operands &);
Result<RuntimeValue> evaluateDot(Interpreter &, const Instruction &,
                                 Operands &);
Result<RuntimeValue> evaluateConvolution(Interpreter &, const Instruction &,
                                         Operands &);
Result<RuntimeValue> evaluateBatchNorm(Interpreter &, const Instruction &,
                                       Operands &);
Result<RuntimeValue> evaluateCustomCall(Interpreter &, const Instruction &,
                                        Operands &);
Result<RuntimeValue> evaluateTriangularSolve(Interpreter &, const Instruction &,
                                             Operands &);
Result<RuntimeValue> evaluateCholesky(Interpreter &, const Instruction &,
                                      Operands &);
/// Collectives on one device: all-reduce, collective-permute and all-to-all
/// are the identity; all-gather repeats the operand and reduce-scatter
/// keeps the first shard, as if every replica held the same value.
Result<RuntimeValue> evaluateCollective(Interpreter &, const Instruction &,
                                        Operands &);
Result<RuntimeValue> evaluateRng(Interpreter &, const Instruction &,
                                 Operands &);
Result<RuntimeValue> evaluateRngBitGenerator(Interpreter &, const Instruction &,
                                             Operands &);

/// A portable seeded stream (splitmix64): std:: distributions differ
/// between standard libraries, and values must not.
class SeededStream {
public:
  explicit SeededStream(uint64_t seed) : state(seed) {}
  uint64_t next();
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; }

private:
  uint64_t state;
};

/// Combines two seeds into one, so streams for different names differ.
uint64_t mixSeeds(uint64_t a, uint64_t b);
uint64_t hashName(std::string_view name);

/// Values for an array of `shape` drawn from `seed`: floats uniform in
/// [-1, 1) (rounded to the type), integers in [0, 8), predicates 0/1,
/// complex values as pairs of floats.
std::vector<double> seededValues(const Shape &shape, uint64_t seed);
/// An array, or a tuple of arrays, of seeded values (leaves get their own
/// seeds).
RuntimeValue seededValue(const Shape &shape, uint64_t seed);

/// The value of a constant: its literal, or seeded values when the dump
/// elided them.
Result<RuntimeValue> evaluateConstant(const Interpreter &, const Instruction &);

} // namespace rlopt::graph::interp

#endif
