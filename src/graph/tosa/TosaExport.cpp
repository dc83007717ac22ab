// HLO computation -> `func.func` in MLIR 19's TOSA dialect (see the header
// for the mapping). One lowering per opcode serves both the export and
// checkTosaSupport, so what is reported exportable is what exports.
#include "rlopt/graph/TosaExport.h"

#include "rlopt/graph/GraphEdit.h"

#include <cctype>
#include <unordered_map>
#include <unordered_set>

namespace rlopt::graph {

namespace {

struct Value {
  std::string name; // `%x`
  std::string type; // `tensor<2x3xf32>`
};

bool isTosaFloat(ElementType type) {
  return type == ElementType::F16 || type == ElementType::BF16 ||
         type == ElementType::F32;
}

bool isTosaSignedInteger(ElementType type) {
  return type == ElementType::S8 || type == ElementType::S16 ||
         type == ElementType::S32 || type == ElementType::S64;
}

bool isTosaNumber(ElementType type) {
  return isTosaFloat(type) || isTosaSignedInteger(type);
}

std::string i64Array(const std::vector<int64_t> &values) {
  std::string text = "array<i64";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i == 0 ? ": " : ", ") + std::to_string(values[i]);
  return text + ">";
}

// An SSA name for `name`: MLIR allows letters, digits and `$._-`; `$`
// never occurs in HLO names, so helper suffixes cannot clash.
std::string ssaName(std::string_view name) {
  std::string id = "%";
  for (char c : name)
    id += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' ||
                  c == '-'
              ? c
              : '_';
  if (id.size() == 1 || std::isdigit(static_cast<unsigned char>(id[1])))
    id.insert(1, "v");
  return id;
}

// The reducer kind of `(p0, p1) -> p0 op p1` over scalars.
std::optional<Opcode> simpleReducer(const Computation *computation) {
  if (!computation || computation->instructionCount() != 3)
    return std::nullopt;
  const Instruction *root = computation->root();
  if (!root || root->operandCount() != 2 || !root->shape().isArray() ||
      root->shape().rank() != 0)
    return std::nullopt;
  Opcode opcode = root->opcode();
  if (opcode != Opcode::Add && opcode != Opcode::Multiply &&
      opcode != Opcode::Maximum && opcode != Opcode::Minimum)
    return std::nullopt;
  const Instruction *lhs = root->operand(0), *rhs = root->operand(1);
  if (lhs == rhs || lhs->opcode() != Opcode::Parameter ||
      rhs->opcode() != Opcode::Parameter)
    return std::nullopt;
  return opcode;
}

/// Writes the ops of one instruction. Exactly one op, the one producing the
/// instruction's value, is counted; the others are helpers. With no output
/// text it only checks (checkTosaSupport).
class OpWriter {
public:
  OpWriter(std::string baseName, std::string *out)
      : base(std::move(baseName)), out(out) {}

  Value helper(std::string_view op, const std::vector<Value> &operands,
               std::string attributes, std::string type) {
    return write(base + "$" + std::to_string(helpers++), op, operands,
                 std::move(attributes), std::move(type), true);
  }
  Value result(std::string_view op, const std::vector<Value> &operands,
               std::string attributes, std::string type) {
    ++counted;
    return write(base, op, operands, std::move(attributes), std::move(type),
                 false);
  }
  Value helperConstant(const std::string &dense, std::string type) {
    return writeConstant(base + "$" + std::to_string(helpers++), dense,
                         std::move(type), true);
  }
  Value resultConstant(const std::string &dense, std::string type) {
    ++counted;
    return writeConstant(base, dense, std::move(type), false);
  }

  int64_t countedOps() const { return counted; }
  int64_t helperOps() const { return helpers; }

private:
  Value write(std::string name, std::string_view op,
              const std::vector<Value> &operands, std::string attributes,
              std::string type, bool isHelper) {
    if (isHelper)
      attributes += attributes.empty() ? "rlopt.helper" : ", rlopt.helper";
    if (out) {
      *out += "    " + name + " = tosa." + std::string(op);
      for (size_t i = 0; i < operands.size(); ++i)
        *out += (i == 0 ? " " : ", ") + operands[i].name;
      if (!attributes.empty())
        *out += " {" + attributes + "}";
      *out += " : (";
      for (size_t i = 0; i < operands.size(); ++i)
        *out += (i == 0 ? "" : ", ") + operands[i].type;
      *out += ") -> " + type + "\n";
    }
    return {std::move(name), std::move(type)};
  }

  Value writeConstant(std::string name, const std::string &dense,
                      std::string type, bool isHelper) {
    if (out)
      *out += "    " + name + " = \"tosa.const\"() <{value = " + dense + "}>" +
              (isHelper ? " {rlopt.helper}" : "") + " : () -> " + type + "\n";
    return {std::move(name), std::move(type)};
  }

  std::string base;
  std::string *out;
  int64_t counted = 0, helpers = 0;
};

// Lowers one instruction whose operands have the values `in`.
class Lowering {
public:
  Lowering(const Instruction &instruction, const std::vector<Value> &in,
           OpWriter &writer)
      : inst(instruction), in(in), w(writer), type(instruction.shape().type()) {
  }

  Result<Value> run() {
    auto resultType = tosaTensorType(inst.shape());
    if (!resultType)
      return fail("shape " + inst.shape().toString(false) +
                  " has no TOSA tensor type");
    out = *resultType;
    for (size_t i = 0; i < inst.operandCount(); ++i)
      if (!tosaTensorType(inst.operand(i)->shape()))
        return fail("operand " + std::to_string(i) + " has shape " +
                    inst.operand(i)->shape().toString(false) +
                    " with no TOSA tensor type");
    switch (inst.opcode()) {
    case Opcode::Constant:
      return constant();
    case Opcode::Add:
      return numeric("add");
    case Opcode::Subtract:
      return numeric("sub");
    case Opcode::Maximum:
      return numeric("maximum");
    case Opcode::Minimum:
      return numeric("minimum");
    case Opcode::Multiply:
      if (!isTosaNumber(type))
        return fail("needs a number type");
      return w.result("mul", in, "shift = 0 : i8", out);
    case Opcode::Divide:
      return divide();
    case Opcode::Negate:
      return numeric("negate");
    case Opcode::Abs:
      return numeric("abs");
    case Opcode::Exp:
      return floating("exp");
    case Opcode::Log:
      return floating("log");
    case Opcode::Tanh:
      return floating("tanh");
    case Opcode::Rsqrt:
      return floating("rsqrt");
    case Opcode::Sqrt:
      return sqrt();
    case Opcode::Power:
      return floating("pow");
    case Opcode::Floor:
      return floating("floor");
    case Opcode::Ceil:
      return floating("ceil");
    case Opcode::Logistic:
      return floating("sigmoid");
    case Opcode::Copy:
      return w.result("identity", in, "", out);
    case Opcode::And:
      return logical("logical_and", "bitwise_and");
    case Opcode::Or:
      return logical("logical_or", "bitwise_or");
    case Opcode::Xor:
      return logical("logical_xor", "bitwise_xor");
    case Opcode::Not:
      return logical("logical_not", "bitwise_not");
    case Opcode::Select:
      if (inst.operand(0)->shape().dims() != inst.shape().dims())
        return fail("needs a predicate of the result's shape");
      return w.result("select", in, "", out);
    case Opcode::Compare:
      return compare();
    case Opcode::Convert:
      return w.result("cast", in, "", out);
    case Opcode::Broadcast:
      return broadcast();
    case Opcode::Reshape:
      return w.result("reshape", in,
                      "new_shape = " + i64Array(inst.shape().dims()), out);
    case Opcode::Transpose:
      return transpose();
    case Opcode::Slice:
      return slice();
    case Opcode::Concatenate:
      if (inst.dimensions().size() != 1)
        return fail("needs one dimension");
      return w.result(
          "concat", in,
          "axis = " + std::to_string(inst.dimensions()[0]) + " : i32", out);
    case Opcode::Reverse:
      return reverse();
    case Opcode::Reduce:
      return reduce();
    default:
      return makeError("instruction '" + inst.name() +
                       "': " + std::string(opcodeName(inst.opcode())) +
                       " has no TOSA form");
    }
  }

private:
  Error fail(const std::string &why) const {
    return makeError("instruction '" + inst.name() + "': " +
                     std::string(opcodeName(inst.opcode())) + " " + why);
  }

  Result<Value> constant() {
    auto dense = tosaDenseAttribute(inst);
    if (!dense)
      return dense.error();
    return w.resultConstant(*dense, out);
  }

  Result<Value> numeric(std::string_view op) {
    if (!isTosaNumber(type))
      return fail("needs a number type");
    return w.result(op, in, "", out);
  }

  Result<Value> floating(std::string_view op) {
    if (!isTosaFloat(type))
      return fail("needs a floating-point type");
    return w.result(op, in, "", out);
  }

  Result<Value> logical(std::string_view onPred, std::string_view onInteger) {
    if (type == ElementType::Pred)
      return w.result(onPred, in, "", out);
    if (!isTosaSignedInteger(type))
      return fail("needs a predicate or integer type");
    return w.result(onInteger, in, "", out);
  }

  Result<Value> divide() {
    if (type == ElementType::S32)
      return w.result("int_div", in, "", out);
    if (!isTosaFloat(type))
      return fail("needs a floating-point or s32 type");
    Value reciprocal = w.helper("reciprocal", {in[1]}, "", out);
    return w.result("mul", {in[0], reciprocal}, "shift = 0 : i8", out);
  }

  // A rank-r tensor of ones, so TOSA broadcasts it against the operand.
  std::string unitType(ElementType element, int64_t rank) {
    return *tosaTensorType(
        Shape::array(element, std::vector<int64_t>(rank, 1)));
  }

  Result<Value> sqrt() {
    if (!isTosaFloat(type))
      return fail("needs a floating-point type");
    std::string half = unitType(type, inst.shape().rank());
    Value exponent = w.helperConstant("dense<5.0e-01> : " + half, half);
    return w.result("pow", {in[0], exponent}, "", out);
  }

  Result<Value> compare() {
    auto direction = inst.comparisonDirection();
    ElementType operandType = inst.operand(0)->shape().type();
    if (!direction || !isTosaNumber(operandType))
      return fail("needs a direction and number operands");
    switch (*direction) {
    case ComparisonDirection::Eq:
      return w.result("equal", in, "", out);
    case ComparisonDirection::Gt:
      return w.result("greater", in, "", out);
    case ComparisonDirection::Ge:
      return w.result("greater_equal", in, "", out);
    case ComparisonDirection::Lt:
      return w.result("greater", {in[1], in[0]}, "", out);
    case ComparisonDirection::Le:
      return w.result("greater_equal", {in[1], in[0]}, "", out);
    case ComparisonDirection::Ne:
      return w.result("logical_not", {w.helper("equal", in, "", out)}, "", out);
    }
    return fail("has an unknown direction");
  }

  // TOSA broadcasts only between equal ranks: reshape the operand to the
  // result's rank (size-1 dimensions where it has none), then tile.
  Result<Value> broadcast() {
    const Shape &operand = inst.operand(0)->shape();
    const std::vector<int64_t> &dims = inst.dimensions();
    int64_t rank = inst.shape().rank();
    if (static_cast<int64_t>(dims.size()) != operand.rank())
      return fail("needs one dimension per operand dimension");
    std::vector<int64_t> reshaped(rank, 1);
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] < 0 || dims[i] >= rank || (i > 0 && dims[i] <= dims[i - 1]))
        return fail("needs increasing dimensions (no transposition)");
      reshaped[dims[i]] = operand.dim(i);
    }
    std::vector<int64_t> multiples(rank, 1);
    bool tiles = false;
    for (int64_t d = 0; d < rank; ++d) {
      if (reshaped[d] == inst.shape().dim(d))
        continue;
      if (reshaped[d] != 1)
        return fail("changes a dimension of size other than 1");
      multiples[d] = inst.shape().dim(d);
      tiles = true;
    }
    bool reshapes = operand.rank() != rank;
    if (!reshapes && !tiles)
      return w.result("identity", in, "", out);
    if (!tiles)
      return w.result("reshape", in, "new_shape = " + i64Array(reshaped), out);
    Value source = in[0];
    if (reshapes)
      source = w.helper("reshape", in, "new_shape = " + i64Array(reshaped),
                        *tosaTensorType(Shape::array(type, reshaped)));
    return w.result("tile", {source}, "multiples = " + i64Array(multiples),
                    out);
  }

  Result<Value> transpose() {
    const std::vector<int64_t> &permutation = inst.dimensions();
    int64_t rank = inst.shape().rank();
    std::vector<bool> seen(rank, false);
    if (rank == 0 || static_cast<int64_t>(permutation.size()) != rank)
      return fail("needs a permutation of a rank-1+ operand");
    std::string dense = "dense<[";
    for (int64_t i = 0; i < rank; ++i) {
      int64_t d = permutation[i];
      if (d < 0 || d >= rank || seen[d])
        return fail("needs a permutation of a rank-1+ operand");
      seen[d] = true;
      dense += (i == 0 ? "" : ", ") + std::to_string(d);
    }
    std::string permsType = "tensor<" + std::to_string(rank) + "xi32>";
    Value perms = w.helperConstant(dense + "]> : " + permsType, permsType);
    return w.result("transpose", {in[0], perms}, "", out);
  }

  Result<Value> slice() {
    const std::vector<SliceDim> &dims = inst.slice();
    if (static_cast<int64_t>(dims.size()) != inst.shape().rank())
      return fail("needs one range per dimension");
    std::vector<int64_t> start, size;
    for (const SliceDim &dim : dims) {
      if (dim.stride != 1)
        return fail("has a stride other than 1");
      start.push_back(dim.start);
      size.push_back(dim.limit - dim.start);
    }
    return w.result("slice", in,
                    "start = " + i64Array(start) + ", size = " + i64Array(size),
                    out);
  }

  // TOSA reverses one axis at a time: all but the last are helpers.
  Result<Value> reverse() {
    const std::vector<int64_t> &dims = inst.dimensions();
    if (dims.empty())
      return w.result("identity", in, "", out);
    Value value = in[0];
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] < 0 || dims[i] >= inst.shape().rank())
        return fail("reverses a dimension the operand does not have");
      std::string axis = "axis = " + std::to_string(dims[i]) + " : i32";
      value = i + 1 < dims.size() ? w.helper("reverse", {value}, axis, out)
                                  : w.result("reverse", {value}, axis, out);
    }
    return value;
  }

  // TOSA reductions keep the reduced axis and take no init value: reduce,
  // reshape to HLO's result, then combine with the init value as HLO does.
  Result<Value> reduce() {
    if (inst.operandCount() != 2 || inst.dimensions().size() != 1)
      return fail("needs one operand, one init value and one dimension");
    auto reducer = simpleReducer(inst.calledComputation("to_apply"));
    if (!reducer)
      return fail("needs an add, multiply, maximum or minimum reducer");
    const Shape &operand = inst.operand(0)->shape();
    if (!isTosaNumber(type) || operand.type() != type ||
        inst.operand(1)->shape().type() != type ||
        inst.operand(1)->shape().rank() != 0)
      return fail("needs one number type and a scalar init value");
    int64_t axis = inst.dimensions()[0];
    if (axis < 0 || axis >= operand.rank())
      return fail("reduces a dimension the operand does not have");
    std::vector<int64_t> kept = operand.dims();
    kept[axis] = 1;
    std::string_view reduceOp = *reducer == Opcode::Add        ? "reduce_sum"
                                : *reducer == Opcode::Multiply ? "reduce_prod"
                                : *reducer == Opcode::Maximum  ? "reduce_max"
                                                               : "reduce_min";
    Value reduced =
        w.helper(reduceOp, {in[0]}, "axis = " + std::to_string(axis) + " : i32",
                 *tosaTensorType(Shape::array(type, kept)));
    Value dropped =
        w.helper("reshape", {reduced},
                 "new_shape = " + i64Array(inst.shape().dims()), out);
    Value init = in[1];
    int64_t rank = inst.shape().rank();
    if (rank > 0)
      init = w.helper("reshape", {init},
                      "new_shape = " + i64Array(std::vector<int64_t>(rank, 1)),
                      unitType(type, rank));
    switch (*reducer) {
    case Opcode::Add:
      return w.result("add", {dropped, init}, "", out);
    case Opcode::Multiply:
      return w.result("mul", {dropped, init}, "shift = 0 : i8", out);
    case Opcode::Maximum:
      return w.result("maximum", {dropped, init}, "", out);
    default:
      return w.result("minimum", {dropped, init}, "", out);
    }
  }

  const Instruction &inst;
  const std::vector<Value> &in;
  OpWriter &w;
  ElementType type;
  std::string out; // the result's tensor type
};

Result<Value> lower(const Instruction &instruction,
                    const std::vector<Value> &operands, OpWriter &writer) {
  if (instruction.opcode() == Opcode::Parameter) {
    auto type = tosaTensorType(instruction.shape());
    if (!type)
      return makeError("parameter '" + instruction.name() + "': shape " +
                       instruction.shape().toString(false) +
                       " has no TOSA tensor type");
    return Value{"", *type};
  }
  if (instruction.opcode() == Opcode::Tuple)
    return makeError("instruction '" + instruction.name() +
                     "': tuple has a TOSA form only as the root");
  return Lowering(instruction, operands, writer).run();
}

} // namespace

Status checkTosaSupport(const Instruction &instruction) {
  std::vector<Value> operands;
  for (const Instruction *operand : instruction.operands())
    operands.push_back(
        {"%operand", tosaTensorType(operand->shape()).value_or("")});
  OpWriter writer("%check", nullptr);
  auto value = lower(instruction, operands, writer);
  if (!value)
    return value.error();
  return Status::success();
}

Result<TosaFunction> exportTosa(const Computation &computation,
                                std::string_view functionName) {
  TosaFunction function;
  std::unordered_map<const Instruction *, Value> values;
  std::unordered_set<std::string> names;
  auto uniqueName = [&](std::string_view hloName) {
    std::string name = ssaName(hloName);
    for (int suffix = 1; !names.insert(name).second; ++suffix)
      name = ssaName(hloName) + "_" + std::to_string(suffix);
    return name;
  };

  std::string signature, body;
  for (const Instruction *parameter : computation.parameters()) {
    OpWriter writer("", nullptr);
    auto value = lower(*parameter, {}, writer);
    if (!value)
      return value.error();
    value->name = uniqueName(parameter->name());
    signature +=
        (signature.empty() ? "" : ", ") + value->name + ": " + value->type;
    values[parameter] = *value;
    ++function.argumentCount;
  }

  const Instruction *root = computation.root();
  for (const Instruction *instruction : topologicalOrder(computation)) {
    if (instruction->opcode() == Opcode::Parameter ||
        (instruction == root && root->opcode() == Opcode::Tuple))
      continue;
    std::vector<Value> operands;
    for (const Instruction *operand : instruction->operands())
      operands.push_back(values.at(operand));
    OpWriter writer(uniqueName(instruction->name()), &body);
    auto value = lower(*instruction, operands, writer);
    if (!value)
      return value.error();
    values[instruction] = *value;
    function.opCount += writer.countedOps();
    function.helperCount += writer.helperOps();
  }

  std::vector<const Instruction *> results;
  if (root && root->opcode() == Opcode::Tuple)
    results.assign(root->operands().begin(), root->operands().end());
  else if (root)
    results.push_back(root);
  std::string resultNames, resultTypes;
  for (const Instruction *result : results) {
    auto found = values.find(result);
    if (found == values.end())
      return makeError("root '" + root->name() + "': element '" +
                       result->name() + "' has no TOSA value");
    resultNames += (resultNames.empty() ? "" : ", ") + found->second.name;
    resultTypes += (resultTypes.empty() ? "" : ", ") + found->second.type;
  }
  function.resultCount = static_cast<int64_t>(results.size());

  function.text = "func.func @" + std::string(functionName) + "(" + signature +
                  ") -> (" + resultTypes + ") {\n" + body + "    return" +
                  (resultNames.empty() ? "" : " ") + resultNames +
                  (resultTypes.empty() ? "" : " : ") + resultTypes + "\n}\n";
  return function;
}

Result<TosaFunction> exportTosa(const Module &module) {
  if (!module.entry())
    return makeError("module '" + module.name() + "' has no entry");
  return exportTosa(*module.entry());
}

} // namespace rlopt::graph
