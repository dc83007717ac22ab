// ComparisonExpander: a floating-point compare with type=TOTALORDER (-NaN <
// -inf < ... < -0 < +0 < ... < inf < NaN) becomes a signed integer compare
// of keys: the value's bits, with the magnitude bits of negative values
// flipped so they order backwards. Other compares are left alone.
#include "PassSupport.h"
#include "Passes.h"

namespace rlopt::graph {

namespace {

struct KeyType {
  ElementType type;
  const char *maxText;
};

std::optional<KeyType> keyTypeFor(ElementType type) {
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16:
    return KeyType{ElementType::S16, "32767"};
  case ElementType::F32:
    return KeyType{ElementType::S32, "2147483647"};
  case ElementType::F64:
    return KeyType{ElementType::S64, "9223372036854775807"};
  default:
    return std::nullopt;
  }
}

Instruction *totalOrderKey(ModuleEditor &editor, Computation &computation,
                           Instruction *value, const KeyType &key) {
  const std::vector<int64_t> &dims = value->shape().dims();
  Shape shape = arrayShape(key.type, dims);
  Instruction *bits =
      editor.add(computation, Opcode::BitcastConvert, shape, {value});
  Instruction *zero = addFilled(editor, computation, shape, 0);
  Instruction *magnitude =
      editor.addConstant(computation, Shape::scalar(key.type), key.maxText);
  if (!dims.empty())
    magnitude = addBroadcast(editor, computation, magnitude, shape, {});
  Instruction *negative =
      addCompare(editor, computation, bits, zero, ComparisonDirection::Lt);
  Instruction *flipped =
      addBinary(editor, computation, Opcode::Xor, bits, magnitude);
  return editor.add(computation, Opcode::Select, shape,
                    {negative, flipped, bits});
}

Instruction *expand(Instruction &instruction, ModuleEditor &editor) {
  if (instruction.opcode() != Opcode::Compare ||
      !isStaticArray(instruction.shape()))
    return nullptr;
  const Attribute *type = instruction.findAttribute("type");
  auto direction = instruction.comparisonDirection();
  if (!type || type->value != "TOTALORDER" || !direction)
    return nullptr;
  auto key = keyTypeFor(instruction.operand(0)->shape().type());
  if (!key)
    return nullptr;
  Computation &computation = *instruction.parent();
  Instruction *lhs =
      totalOrderKey(editor, computation, instruction.operand(0), *key);
  Instruction *rhs =
      totalOrderKey(editor, computation, instruction.operand(1), *key);
  return addCompare(editor, computation, lhs, rhs, *direction);
}

} // namespace

Result<bool> runComparisonExpander(Module &module) {
  return rewriteEachInstruction(module, expand);
}

} // namespace rlopt::graph
