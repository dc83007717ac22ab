#include "InterpreterInternal.h"

#include "rlopt/graph/Computation.h"

#include <charconv>

namespace rlopt::graph::interp {

Error failAt(const Instruction &instruction, const std::string &message) {
  std::string where = instruction.name() + " (" +
                      std::string(opcodeName(instruction.opcode())) + ")";
  if (instruction.parent())
    where += " in " + instruction.parent()->name();
  return makeError(where + ": " + message);
}

std::optional<std::string_view> attributeText(const Instruction &instruction,
                                              std::string_view key) {
  const Attribute *attribute = instruction.findAttribute(key);
  if (!attribute)
    return std::nullopt;
  return std::string_view(attribute->value);
}

Result<std::vector<int64_t>> intListAttribute(const Instruction &instruction,
                                              std::string_view key) {
  auto text = attributeText(instruction, key);
  if (!text)
    return std::vector<int64_t>{};
  auto values = parseIntList(*text);
  if (!values)
    return failAt(instruction,
                  std::string(key) + ": " + values.error().message);
  return values;
}

Result<int64_t> intAttribute(const Instruction &instruction,
                             std::string_view key, int64_t fallback) {
  auto text = attributeText(instruction, key);
  if (!text)
    return fallback;
  int64_t value = 0;
  auto [end, error] =
      std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size())
    return failAt(instruction, std::string(key) + " must be an integer, got '" +
                                   std::string(*text) + "'");
  return value;
}

bool boolAttribute(const Instruction &instruction, std::string_view key,
                   bool fallback) {
  auto text = attributeText(instruction, key);
  if (!text)
    return fallback;
  return *text == "true";
}

std::string configBytes(const Instruction &instruction) {
  std::string_view text =
      attributeText(instruction, "backend_config").value_or("");
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
    text = text.substr(1, text.size() - 2);
  std::string bytes;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      bytes += text[i];
      continue;
    }
    char c = text[++i];
    if (c >= '0' && c <= '7') {
      int value = 0;
      for (int digits = 0;
           digits < 3 && i < text.size() && text[i] >= '0' && text[i] <= '7';
           ++digits, ++i)
        value = value * 8 + (text[i] - '0');
      --i;
      bytes += static_cast<char>(value);
    } else if (c == 'n') {
      bytes += '\n';
    } else if (c == 't') {
      bytes += '\t';
    } else {
      bytes += c;
    }
  }
  return bytes;
}

} // namespace rlopt::graph::interp
