#include "rlopt/graph/Printer.h"

namespace rlopt::graph {

namespace {

void printName(std::string &out, const std::string &name,
               const TextStyle &style) {
  if (style.percentNames)
    out += '%';
  out += name;
}

void printAttribute(std::string &out, const Attribute &attribute,
                    const TextStyle &style) {
  out += ", ";
  out += attribute.key;
  out += '=';
  if (!attribute.braced && attribute.computations.empty()) {
    out += attribute.value;
    return;
  }
  if (attribute.braced)
    out += '{';
  for (size_t i = 0; i < attribute.computations.size(); ++i) {
    if (i > 0)
      out += ", ";
    printName(out, attribute.computations[i]->name(), style);
  }
  if (attribute.braced)
    out += '}';
}

void printInstructionTo(std::string &out, const Instruction &instruction,
                        const TextStyle &style) {
  printName(out, instruction.name(), style);
  out += " = ";
  instruction.shape().print(out);
  out += ' ';
  out += opcodeName(instruction.opcode());
  out += '(';
  if (instruction.opcode() == Opcode::Parameter) {
    out += std::to_string(instruction.parameterNumber());
  } else if (instruction.opcode() == Opcode::Constant) {
    out += instruction.literal().text;
  } else {
    for (size_t i = 0; i < instruction.operandCount(); ++i) {
      if (i > 0)
        out += ", ";
      const Instruction *operand = instruction.operand(i);
      if (style.operandShapes) {
        // XLA marks every fifth operand when it prints operand shapes.
        if (i > 0 && i % 5 == 0)
          out += "/*index=" + std::to_string(i) + "*/";
        operand->shape().print(out);
        out += ' ';
      }
      printName(out, operand->name(), style);
    }
  }
  out += ')';
  for (const Attribute &attribute : instruction.attributes())
    printAttribute(out, attribute, style);
}

void printComputationTo(std::string &out, const Computation &computation,
                        const TextStyle &style, bool isEntry) {
  if (isEntry)
    out += "ENTRY ";
  printName(out, computation.name(), style);
  if (style.signatures) {
    out += " (";
    std::vector<Instruction *> params = computation.parameters();
    for (size_t i = 0; i < params.size(); ++i) {
      if (i > 0)
        out += ", ";
      out += params[i]->name();
      out += ": ";
      params[i]->shape().print(out, /*withLayout=*/false);
    }
    out += ") -> ";
    if (computation.root())
      computation.root()->shape().print(out, /*withLayout=*/false);
  }
  out += " {\n";
  for (const auto &instruction : computation.instructions()) {
    out += instruction.get() == computation.root() ? "  ROOT " : "  ";
    printInstructionTo(out, *instruction, style);
    out += '\n';
  }
  out += "}\n";
}

} // namespace

std::string printInstruction(const Instruction &instruction,
                             const TextStyle &style) {
  std::string out;
  printInstructionTo(out, instruction, style);
  return out;
}

std::string printModule(const Module &module, const TextStyle &style) {
  std::string out = "HloModule " + module.name();
  for (const Attribute &attribute : module.headerAttributes())
    printAttribute(out, attribute, style);
  out += "\n";
  for (const auto &computation : module.computations()) {
    out += '\n';
    printComputationTo(out, *computation, style,
                       computation.get() == module.entry());
  }
  return out;
}

std::string printModule(const Module &module) {
  return printModule(module, module.style());
}

} // namespace rlopt::graph
