#include "rlopt/graph/Opcode.h"

#include <algorithm>
#include <array>
#include <utility>

namespace rlopt::graph {

namespace {

struct OpcodeInfo {
  std::string_view name;
  int arity;
  OpcodeTraits traits;
};

constexpr std::array<OpcodeInfo, kNumOpcodes> kOpcodeInfo = {{
#define RLOPT_HLO_OPCODE_INFO(Enumerator, Name, Arity, Traits)                 \
  {Name, Arity, Traits},
    RLOPT_HLO_OPCODES(RLOPT_HLO_OPCODE_INFO)
#undef RLOPT_HLO_OPCODE_INFO
}};

// Sorted by name for binary search: the parser looks up every instruction.
std::vector<std::pair<std::string_view, Opcode>> buildNameIndex() {
  std::vector<std::pair<std::string_view, Opcode>> index;
  for (size_t i = 0; i < kNumOpcodes; ++i)
    index.emplace_back(kOpcodeInfo[i].name, static_cast<Opcode>(i));
  std::sort(index.begin(), index.end());
  return index;
}

// All of `traits`: a unary elementwise opcode is also elementwise.
bool hasTraits(Opcode opcode, OpcodeTraits traits) {
  return (kOpcodeInfo[opcodeIndex(opcode)].traits & traits) == traits;
}

} // namespace

std::string_view opcodeName(Opcode opcode) {
  return kOpcodeInfo[opcodeIndex(opcode)].name;
}

int opcodeArity(Opcode opcode) {
  return kOpcodeInfo[opcodeIndex(opcode)].arity;
}

std::optional<Opcode> parseOpcode(std::string_view name) {
  static const auto index = buildNameIndex();
  auto it = std::lower_bound(index.begin(), index.end(), name,
                             [](const auto &entry, std::string_view key) {
                               return entry.first < key;
                             });
  if (it == index.end() || it->first != name)
    return std::nullopt;
  return it->second;
}

const std::vector<std::string_view> &opcodeVocabulary() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const OpcodeInfo &info : kOpcodeInfo)
      all.push_back(info.name);
    return all;
  }();
  return names;
}

OpcodeTraits opcodeTraits(Opcode opcode) {
  return kOpcodeInfo[opcodeIndex(opcode)].traits;
}

bool isElementwise(Opcode opcode) { return hasTraits(opcode, kElementwise); }

bool isUnaryElementwise(Opcode opcode) {
  return hasTraits(opcode, kUnaryElementwise);
}

bool isBinaryElementwise(Opcode opcode) {
  return hasTraits(opcode, kBinaryElementwise);
}

bool isFloatOnly(Opcode opcode) { return hasTraits(opcode, kFloatOnly); }

bool isBitwise(Opcode opcode) { return hasTraits(opcode, kBitwise); }

bool isCommutative(Opcode opcode) { return hasTraits(opcode, kCommutative); }

bool isTranscendental(Opcode opcode) {
  return hasTraits(opcode, kTranscendental);
}

} // namespace rlopt::graph
