// One HLO instruction: `name = shape opcode(operands), attributes`.
#ifndef RLOPT_GRAPH_INSTRUCTION_H
#define RLOPT_GRAPH_INSTRUCTION_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Attributes.h"
#include "rlopt/graph/Literal.h"
#include "rlopt/graph/Opcode.h"
#include "rlopt/graph/Shape.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlopt::graph {

class Computation;

/// An instruction owned by a Computation. Operands are instructions of the
/// same computation. Attributes are kept in written order as text (or as the
/// computations they name); the ones analyses need are also available typed,
/// interpreted whenever an attribute is set.
class Instruction {
public:
  Instruction(std::string name, Opcode opcode, Shape shape)
      : instructionName(std::move(name)), op(opcode),
        resultShape(std::move(shape)) {}
  Instruction(const Instruction &) = delete;
  Instruction &operator=(const Instruction &) = delete;

  const std::string &name() const { return instructionName; }
  void setName(std::string name) { instructionName = std::move(name); }
  Opcode opcode() const { return op; }
  const Shape &shape() const { return resultShape; }
  void setShape(Shape shape) { resultShape = std::move(shape); }
  /// The owning computation; null until added to one.
  Computation *parent() const { return owner; }

  const std::vector<Instruction *> &operands() const { return operandList; }
  Instruction *operand(size_t i) const { return operandList[i]; }
  size_t operandCount() const { return operandList.size(); }
  void setOperands(std::vector<Instruction *> operands) {
    operandList = std::move(operands);
  }
  void setOperand(size_t i, Instruction *operand) { operandList[i] = operand; }

  /// Attributes in written order.
  const std::vector<Attribute> &attributes() const { return attributeList; }
  const Attribute *findAttribute(std::string_view key) const;
  /// Sets `key=value` (replacing in place, or appending) and interprets it.
  /// A value that does not parse (`dimensions={x}`) leaves the instruction
  /// unchanged and returns the reason. Computation-valued keys go through
  /// setCalledComputations.
  Status setAttribute(std::string key, std::string value);
  /// Sets a computation-valued attribute (`to_apply`, `body`, ...).
  void setCalledComputations(std::string key,
                             std::vector<Computation *> computations,
                             bool braced = false);
  bool removeAttribute(std::string_view key);

  /// Every computation this instruction calls, in attribute order.
  std::vector<Computation *> calledComputations() const;
  /// The first computation named by `key`, or null.
  Computation *calledComputation(std::string_view key) const;

  // Interpreted attributes; empty or default when absent.
  const std::vector<int64_t> &dimensions() const { return typed.dimensions; }
  const std::vector<SliceDim> &slice() const { return typed.slice; }
  const DotDims &dotDims() const { return typed.dotDims; }
  /// The window's dimensions; empty when there is no window.
  const std::vector<WindowDim> &window() const { return typed.window; }
  const std::optional<ConvDims> &convDims() const { return typed.convDims; }
  int64_t featureGroupCount() const { return typed.featureGroupCount; }
  int64_t batchGroupCount() const { return typed.batchGroupCount; }
  std::optional<ComparisonDirection> comparisonDirection() const {
    return typed.direction;
  }
  /// get-tuple-element's `index`; -1 when absent.
  int64_t tupleIndex() const { return typed.tupleIndex; }
  /// iota's `iota_dimension`; -1 when absent.
  int64_t iotaDimension() const { return typed.iotaDimension; }
  const std::vector<PadDim> &padding() const { return typed.padding; }
  const std::vector<int64_t> &fftLength() const { return typed.fftLength; }

  /// parameter(N); -1 for other opcodes.
  int64_t parameterNumber() const { return paramNumber; }
  void setParameterNumber(int64_t number) { paramNumber = number; }
  /// constant(...); empty for other opcodes.
  const Literal &literal() const { return constantValue; }
  void setLiteral(Literal literal) { constantValue = std::move(literal); }

private:
  friend class Computation;
  friend class Module;

  struct TypedAttributes {
    std::vector<int64_t> dimensions;
    std::vector<SliceDim> slice;
    DotDims dotDims;
    std::vector<WindowDim> window;
    std::optional<ConvDims> convDims;
    int64_t featureGroupCount = 1, batchGroupCount = 1;
    std::optional<ComparisonDirection> direction;
    int64_t tupleIndex = -1, iotaDimension = -1;
    std::vector<PadDim> padding;
    std::vector<int64_t> fftLength;
  };

  /// Interprets `key=value` into `into`; keys without a typed form succeed.
  static Status interpret(std::string_view key, std::string_view value,
                          TypedAttributes &into);

  std::string instructionName;
  Opcode op;
  Shape resultShape;
  Computation *owner = nullptr;
  std::vector<Instruction *> operandList;
  std::vector<Attribute> attributeList;
  TypedAttributes typed;
  int64_t paramNumber = -1;
  Literal constantValue;
};

} // namespace rlopt::graph

#endif
