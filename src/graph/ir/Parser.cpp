#include "rlopt/graph/Parser.h"

#include "TextCursor.h"

#include "rlopt/core/File.h"
#include "rlopt/graph/Verifier.h"

#include <fstream>
#include <sstream>
#include <unordered_map>

namespace rlopt::graph {

namespace {

using detail::quoteForError;
using detail::TextCursor;

// What the parser must resolve once all names are known.
struct PendingOperand {
  std::string_view name;
  size_t offset;
  std::optional<Shape> declaredShape;
};

struct PendingInstruction {
  Instruction *instruction;
  size_t offset;
  std::vector<PendingOperand> operands;
};

struct PendingCall {
  Instruction *instruction;
  std::string key;
  bool braced;
  std::vector<std::pair<std::string_view, size_t>> names; // name, offset
};

class Parser {
public:
  Parser(std::string_view text, std::string_view sourceName)
      : cursor(text, sourceName) {}

  Result<Module> parse();

private:
  Status parseHeader();
  Status parseComputation();
  Status parseSignature();
  Status parseInstruction(Computation &computation,
                          std::vector<PendingInstruction> &pending,
                          Instruction *&root, size_t &rootOffset);
  Status parseOperands(Instruction &instruction, PendingInstruction &pending);
  Status parseAttributes(Instruction &instruction);
  Status resolveOperands(Computation &computation,
                         std::vector<PendingInstruction> &pending);
  Status resolveCalls();
  Status verify();

  TextCursor cursor;
  Module module;
  TextStyle style;
  bool sawInstruction = false, sawOperand = false, sawComputation = false;
  std::unordered_map<std::string_view, Computation *> computationsByName;
  std::unordered_map<const Computation *, size_t> computationOffsets;
  std::unordered_map<const Instruction *, size_t> instructionOffsets;
  std::vector<PendingCall> pendingCalls;
};

Result<Module> Parser::parse() {
  if (auto ok = parseHeader(); !ok)
    return ok.error();
  while (!cursor.atEnd())
    if (auto ok = parseComputation(); !ok)
      return ok.error();
  if (module.computations().empty())
    return cursor.errorAt(cursor.offset(),
                          "no computations: expected 'HloModule name' and "
                          "computations");
  if (!module.entry())
    return cursor.errorAt(0, "no ENTRY computation in module '" +
                                 (module.name().empty()
                                      ? module.computations().back()->name()
                                      : module.name()) +
                                 "'");
  if (module.name().empty())
    module.setName(module.entry()->name());
  if (auto ok = resolveCalls(); !ok)
    return ok.error();
  module.setStyle(style);
  if (auto ok = verify(); !ok)
    return ok.error();
  return std::move(module);
}

Status Parser::parseHeader() {
  // XLA also reads a module without the header line; it then takes the
  // entry computation's name.
  if (cursor.peekIdentifier() != "HloModule")
    return Status::success();
  cursor.readIdentifier();
  std::string_view name = cursor.readName();
  if (name.empty())
    return cursor.error("expected a module name after 'HloModule'");
  module.setName(std::string(name));
  while (cursor.consume(',')) {
    std::string_view key = cursor.readIdentifier();
    if (key.empty())
      return cursor.error("expected a module attribute name");
    if (auto ok = cursor.expect('=', "after module attribute name"); !ok)
      return ok;
    auto value = cursor.scanValue(key);
    if (!value)
      return value.error();
    module.headerAttributes().push_back(
        Attribute{std::string(key), std::string(*value), {}, false});
  }
  return Status::success();
}

Status Parser::parseSignature() {
  // `(p0: f32[], p1: s32[2]) -> f32[]`: derivable from the parameters, so
  // only checked for syntax.
  if (!cursor.consume(')')) {
    do {
      if (cursor.readName().empty())
        return cursor.error("expected a parameter name in the signature");
      if (auto ok = cursor.expect(':', "after a signature parameter"); !ok)
        return ok;
      if (auto shape = detail::parseShapeAt(cursor); !shape)
        return shape.error();
    } while (cursor.consume(','));
    if (auto ok = cursor.expect(')', "to close the signature"); !ok)
      return ok;
  }
  if (!cursor.consume("->"))
    return cursor.error("expected '->' and the result shape in the signature");
  if (auto shape = detail::parseShapeAt(cursor); !shape)
    return shape.error();
  return Status::success();
}

Status Parser::parseComputation() {
  cursor.skipTrivia();
  size_t offset = cursor.offset();
  bool isEntry = cursor.peekIdentifier() == "ENTRY";
  if (isEntry)
    cursor.readIdentifier();
  std::string_view name = cursor.readName();
  if (name.empty())
    return cursor.error(
        "expected a computation, got " +
        quoteForError(cursor.slice(cursor.offset(), cursor.offset() + 20)));
  bool hasSignature = cursor.peek() == '(';
  if (hasSignature) {
    cursor.consume('(');
    if (auto ok = parseSignature(); !ok)
      return ok;
  }
  if (!sawComputation) {
    sawComputation = true;
    style.signatures = hasSignature;
  }
  if (computationsByName.count(name)) {
    auto [line, column] =
        cursor.lineColumn(computationOffsets[computationsByName[name]]);
    return cursor.errorAt(
        offset, "duplicate computation name '" + std::string(name) +
                    "' (first defined on line " + std::to_string(line) + ")");
  }
  if (auto ok =
          cursor.expect('{', "to open computation '" + std::string(name) + "'");
      !ok)
    return ok;
  Computation *computation =
      module.addComputation(std::make_unique<Computation>(std::string(name)));
  computationsByName[name] = computation;
  computationOffsets[computation] = offset;
  if (isEntry) {
    if (module.entry())
      return cursor.errorAt(offset, "second ENTRY computation '" +
                                        std::string(name) + "' (first is '" +
                                        module.entry()->name() + "')");
    module.setEntry(computation);
  }

  std::vector<PendingInstruction> pending;
  Instruction *root = nullptr;
  size_t rootOffset = 0;
  while (!cursor.consume('}')) {
    if (cursor.atEnd())
      return cursor.errorAt(cursor.offset(),
                            "unexpected end of file: computation '" +
                                std::string(name) + "' is not closed with '}'");
    if (auto ok = parseInstruction(*computation, pending, root, rootOffset);
        !ok)
      return ok;
  }
  if (pending.empty())
    return cursor.errorAt(offset, "computation '" + std::string(name) +
                                      "' has no instructions");
  computation->setRoot(root ? root : pending.back().instruction);
  return resolveOperands(*computation, pending);
}

Status Parser::parseInstruction(Computation &computation,
                                std::vector<PendingInstruction> &pending,
                                Instruction *&root, size_t &rootOffset) {
  cursor.skipTrivia();
  size_t offset = cursor.offset();
  bool isRoot = cursor.peekIdentifier() == "ROOT";
  if (isRoot)
    cursor.readIdentifier();
  bool percent = false;
  std::string_view name = cursor.readName(&percent);
  if (name.empty())
    return cursor.error(
        "expected an instruction, got " +
        quoteForError(cursor.slice(cursor.offset(), cursor.offset() + 20)));
  if (!sawInstruction) {
    sawInstruction = true;
    style.percentNames = percent;
  }
  // A header where an instruction should be: the computation before it was
  // never closed (a truncated dump, or two dumps pasted together).
  if (!isRoot && cursor.peek() == '(')
    return cursor.errorAt(offset, "computation '" + std::string(name) +
                                      "' starts inside computation '" +
                                      computation.name() +
                                      "', which is not closed with '}'");
  if (auto ok = cursor.expect('=', "after instruction name '" +
                                       std::string(name) + "'");
      !ok)
    return ok;
  auto shape = detail::parseShapeAt(cursor);
  if (!shape)
    return shape.error();
  cursor.skipTrivia();
  size_t opcodeOffset = cursor.offset();
  std::string_view opcodeText = cursor.readIdentifier();
  if (opcodeText.empty())
    return cursor.error("expected an opcode after the shape of '" +
                        std::string(name) + "'");
  std::optional<Opcode> opcode = parseOpcode(opcodeText);
  if (!opcode)
    return cursor.errorAt(opcodeOffset,
                          "unknown opcode '" + std::string(opcodeText) + "'");
  if (auto ok =
          cursor.expect('(', "after opcode '" + std::string(opcodeText) + "'");
      !ok)
    return ok;

  Instruction *instruction =
      computation.addInstruction(std::make_unique<Instruction>(
          std::string(name), *opcode, shape.takeValue()));
  instructionOffsets[instruction] = offset;
  pending.push_back(PendingInstruction{instruction, offset, {}});
  if (isRoot) {
    if (root) {
      auto [line, column] = cursor.lineColumn(rootOffset);
      return cursor.errorAt(
          offset, "second ROOT in computation '" + computation.name() +
                      "' (first on line " + std::to_string(line) + ")");
    }
    root = instruction;
    rootOffset = offset;
  }
  if (auto ok = parseOperands(*instruction, pending.back()); !ok)
    return ok;
  return parseAttributes(*instruction);
}

Status Parser::parseOperands(Instruction &instruction,
                             PendingInstruction &pending) {
  if (instruction.opcode() == Opcode::Parameter) {
    auto number = cursor.readInteger("as the parameter number");
    if (!number)
      return number.error();
    if (*number < 0)
      return cursor.error("negative parameter number");
    instruction.setParameterNumber(*number);
    return cursor.expect(')', "after the parameter number");
  }
  if (instruction.opcode() == Opcode::Constant) {
    cursor.skipTrivia();
    size_t literalOffset = cursor.offset();
    auto text = cursor.scanParenthesized("constant");
    if (!text)
      return text.error();
    auto literal = parseLiteral(*text, instruction.shape());
    if (!literal)
      return cursor.errorAt(literalOffset, literal.error().message);
    instruction.setLiteral(literal.takeValue());
    return Status::success();
  }
  if (cursor.consume(')'))
    return Status::success();
  do {
    std::optional<Shape> declared;
    if (detail::atShape(cursor)) {
      auto shape = detail::parseShapeAt(cursor);
      if (!shape)
        return shape.error();
      declared = shape.takeValue();
    }
    if (!sawOperand) {
      sawOperand = true;
      style.operandShapes = declared.has_value();
    }
    cursor.skipTrivia();
    size_t nameOffset = cursor.offset();
    std::string_view name = cursor.readName();
    if (name.empty())
      return cursor.error("expected an operand name");
    pending.operands.push_back(
        PendingOperand{name, nameOffset, std::move(declared)});
  } while (cursor.consume(','));
  return cursor.expect(')',
                       "to close the operands of '" + instruction.name() + "'");
}

Status Parser::parseAttributes(Instruction &instruction) {
  while (cursor.consume(',')) {
    cursor.skipTrivia();
    size_t keyOffset = cursor.offset();
    std::string_view key = cursor.readIdentifier();
    if (key.empty())
      return cursor.error("expected an attribute name");
    if (instruction.findAttribute(key))
      return cursor.errorAt(keyOffset,
                            "duplicate attribute '" + std::string(key) + "'");
    if (auto ok =
            cursor.expect('=', "after attribute '" + std::string(key) + "'");
        !ok)
      return ok;
    cursor.skipTrivia();
    size_t valueOffset = cursor.offset();
    auto value = cursor.scanValue(key);
    if (!value)
      return value.error();
    if (value->empty())
      return cursor.errorAt(valueOffset, "attribute '" + std::string(key) +
                                             "' has no value");
    if (!isComputationAttribute(key)) {
      if (auto ok =
              instruction.setAttribute(std::string(key), std::string(*value));
          !ok)
        return cursor.errorAt(valueOffset, ok.error().message);
      continue;
    }
    // Placeholder in written order; resolveCalls fills in the computations.
    PendingCall call{&instruction, std::string(key), value->front() == '{', {}};
    instruction.setCalledComputations(call.key, {}, call.braced);
    std::string_view list = *value;
    size_t base = valueOffset;
    if (call.braced) {
      list = list.substr(1, list.size() - 2);
      ++base;
    }
    size_t start = 0;
    while (start <= list.size()) {
      size_t comma = list.find(',', start);
      size_t end = comma == std::string_view::npos ? list.size() : comma;
      std::string_view item = list.substr(start, end - start);
      size_t lead = item.find_first_not_of(" \t\n");
      std::string_view computationName;
      if (lead != std::string_view::npos) {
        computationName =
            item.substr(lead, item.find_last_not_of(" \t\n") - lead + 1);
        if (computationName.front() == '%')
          computationName.remove_prefix(1);
      }
      // `{}` is an empty list; any other empty item is a mistake.
      bool emptyList = call.braced && lead == std::string_view::npos &&
                       start == 0 && comma == std::string_view::npos;
      if (!computationName.empty())
        call.names.emplace_back(computationName, base + start + lead);
      else if (!emptyList)
        return cursor.errorAt(base + start, "expected a computation name in '" +
                                                call.key + "'");
      if (comma == std::string_view::npos)
        break;
      start = comma + 1;
    }
    pendingCalls.push_back(std::move(call));
  }
  return Status::success();
}

Status Parser::resolveOperands(Computation &computation,
                               std::vector<PendingInstruction> &pending) {
  std::unordered_map<std::string_view, Instruction *> byName;
  byName.reserve(pending.size());
  for (const PendingInstruction &entry : pending) {
    auto [it, inserted] =
        byName.emplace(entry.instruction->name(), entry.instruction);
    if (!inserted) {
      auto [line, column] = cursor.lineColumn(instructionOffsets[it->second]);
      return cursor.errorAt(entry.offset, "duplicate instruction name '" +
                                              entry.instruction->name() +
                                              "' (first defined on line " +
                                              std::to_string(line) + ")");
    }
  }
  for (PendingInstruction &entry : pending) {
    std::vector<Instruction *> operands;
    operands.reserve(entry.operands.size());
    for (const PendingOperand &operand : entry.operands) {
      auto it = byName.find(operand.name);
      if (it == byName.end())
        return cursor.errorAt(operand.offset, "unknown operand '" +
                                                  std::string(operand.name) +
                                                  "' in computation '" +
                                                  computation.name() + "'");
      if (operand.declaredShape &&
          !operand.declaredShape->compatible(it->second->shape()))
        return cursor.errorAt(
            operand.offset,
            "operand '" + std::string(operand.name) + "' is written as " +
                operand.declaredShape->toString(false) + " but defined as " +
                it->second->shape().toString(false));
      operands.push_back(it->second);
    }
    entry.instruction->setOperands(std::move(operands));
  }
  return Status::success();
}

Status Parser::resolveCalls() {
  for (const PendingCall &call : pendingCalls) {
    std::vector<Computation *> computations;
    for (const auto &[name, offset] : call.names) {
      auto it = computationsByName.find(name);
      if (it == computationsByName.end())
        return cursor.errorAt(offset, "unknown computation '" +
                                          std::string(name) + "' in '" +
                                          call.key + "'");
      computations.push_back(it->second);
    }
    call.instruction->setCalledComputations(call.key, std::move(computations),
                                            call.braced);
  }
  return Status::success();
}

Status Parser::verify() {
  std::optional<VerifyProblem> problem = findProblem(module);
  if (!problem)
    return Status::success();
  size_t offset = 0;
  if (auto it = instructionOffsets.find(problem->instruction);
      it != instructionOffsets.end())
    offset = it->second;
  else if (auto it = computationOffsets.find(problem->computation);
           it != computationOffsets.end())
    offset = it->second;
  return cursor.errorAt(offset, problem->message);
}

} // namespace

Result<Module> parseModule(std::string_view text, std::string_view sourceName) {
  return Parser(text, sourceName).parse();
}

Result<Module> parseModuleFile(const std::string &path) {
  auto text = readRegularFile(path);
  if (!text)
    return text.error();
  return parseModule(*text, path);
}

} // namespace rlopt::graph
