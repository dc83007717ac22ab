#include "rlopt/graph/Opcode.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace rlopt::graph;

TEST(Opcode, VocabularyIsXlasOpcodeListWithUniqueNames) {
  const auto &names = opcodeVocabulary();
  ASSERT_EQ(names.size(), kNumOpcodes);
  EXPECT_EQ(kNumOpcodes, 136u);
  std::set<std::string_view> unique(names.begin(), names.end());
  EXPECT_EQ(unique.size(), names.size());
}

// A trained policy reads the op-count vector by these indices: they must not
// move.
TEST(Opcode, IndicesAreStable) {
  EXPECT_EQ(opcodeIndex(Opcode::Abs), 0u);
  EXPECT_EQ(opcodeIndex(Opcode::Add), 3u);
  EXPECT_EQ(opcodeIndex(Opcode::Broadcast), 27u);
  EXPECT_EQ(opcodeIndex(Opcode::Constant), 43u);
  EXPECT_EQ(opcodeIndex(Opcode::Dot), 54u);
  EXPECT_EQ(opcodeIndex(Opcode::GetTupleElement), 66u);
  EXPECT_EQ(opcodeIndex(Opcode::Parameter), 85u);
  EXPECT_EQ(opcodeIndex(Opcode::Reduce), 94u);
  EXPECT_EQ(opcodeIndex(Opcode::Tuple), 133u);
  EXPECT_EQ(opcodeIndex(Opcode::Xor), 135u);
  EXPECT_EQ(opcodeVocabulary()[opcodeIndex(Opcode::Reshape)], "reshape");
}

TEST(Opcode, NamesAreXlaTextSpellings) {
  EXPECT_EQ(opcodeName(Opcode::Exp), "exponential");
  EXPECT_EQ(opcodeName(Opcode::Log1p), "log-plus-one");
  EXPECT_EQ(opcodeName(Opcode::Clz), "count-leading-zeros");
  EXPECT_EQ(opcodeName(Opcode::OptimizationBarrier), "opt-barrier");
  EXPECT_EQ(opcodeName(Opcode::GetTupleElement), "get-tuple-element");
}

TEST(Opcode, EveryNameParsesBackToItsOpcode) {
  for (size_t i = 0; i < kNumOpcodes; ++i) {
    auto opcode = parseOpcode(opcodeVocabulary()[i]);
    ASSERT_TRUE(opcode) << opcodeVocabulary()[i];
    EXPECT_EQ(opcodeIndex(*opcode), i);
  }
  EXPECT_FALSE(parseOpcode("exp"));
  EXPECT_FALSE(parseOpcode(""));
  EXPECT_FALSE(parseOpcode("ADD"));
}

TEST(Opcode, ArityFollowsXla) {
  EXPECT_EQ(opcodeArity(Opcode::Add), 2);
  EXPECT_EQ(opcodeArity(Opcode::Select), 3);
  EXPECT_EQ(opcodeArity(Opcode::Parameter), 0);
  EXPECT_EQ(opcodeArity(Opcode::BatchNormGrad), 5);
  EXPECT_EQ(opcodeArity(Opcode::Tuple), kVariadic);
}

// The interpreter, shape checks, cost analysis and passes all read these.
TEST(Opcode, TraitsClassifyOpcodes) {
  EXPECT_TRUE(isUnaryElementwise(Opcode::Exp));
  EXPECT_TRUE(isElementwise(Opcode::Exp));
  EXPECT_TRUE(isFloatOnly(Opcode::Exp));
  EXPECT_TRUE(isTranscendental(Opcode::Exp));
  EXPECT_FALSE(isUnaryElementwise(Opcode::Convert));
  EXPECT_TRUE(isElementwise(Opcode::Convert));
  EXPECT_TRUE(isBinaryElementwise(Opcode::ShiftLeft));
  EXPECT_TRUE(isBitwise(Opcode::ShiftLeft));
  EXPECT_FALSE(isCommutative(Opcode::ShiftLeft));
  EXPECT_TRUE(isCommutative(Opcode::Multiply));
  EXPECT_FALSE(isBinaryElementwise(Opcode::Compare));
  EXPECT_FALSE(isElementwise(Opcode::Reshape));
  EXPECT_EQ(opcodeTraits(Opcode::Tuple), kNoTraits);
}
