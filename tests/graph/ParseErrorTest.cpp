// Malformed HLO gives one Error `file:line:col: message`, never a crash.
#include "GraphTestUtil.h"

#include <random>

using namespace rlopt::graph;
using rlopt::graph::testing::bundledGraphs;
using rlopt::graph::testing::fixture;
using rlopt::graph::testing::readText;

namespace {

struct MalformedCase {
  const char *file;
  const char *location; // line:col
  const char *message;
};

// Unknown opcodes are rejected, as XLA rejects them: an op the analyses do
// not know cannot be costed, counted or rewritten safely.
const MalformedCase kCases[] = {
    {"truncated_instruction.hlo", "5:29",
     "expected an operand name at end of file"},
    {"unclosed_computation.hlo", "6:1",
     "unexpected end of file: computation 'main' is not closed with '}'"},
    {"unknown_operand.hlo", "5:29",
     "unknown operand 'c' in computation 'main'"},
    {"bad_dimension.hlo", "4:13", "expected an integer as a dimension size"},
    {"bad_element_type.hlo", "4:7", "expected a shape, got 'f31'"},
    {"unbalanced_braces.hlo", "4:40",
     "unbalanced '{' in attribute 'metadata': not closed on its line"},
    {"duplicate_name.hlo", "5:3",
     "duplicate instruction name 'a' (first defined on line 4)"},
    {"missing_entry.hlo", "1:1", "no ENTRY computation in module 'm'"},
    {"unknown_opcode.hlo", "5:22", "unknown opcode 'frobnicate'"},
    {"wrong_operand_count.hlo", "5:3", "add takes 2 operands, got 1"},
    {"unknown_computation.hlo", "6:60",
     "unknown computation 'missing_add' in 'to_apply'"},
    {"literal_count.hlo", "4:31",
     "constant {1, 2}: dimension 0 has 2 values, the shape f32[3] needs 3"},
    {"operand_shape_mismatch.hlo", "5:40",
     "operand 'a' is written as f32[3] but defined as f32[2]"},
    {"operand_cycle.hlo", "5:3", "operands form a cycle through 'b'"},
    {"recursive_call.hlo", "5:3",
     "computation 'loop' calls itself through 'r'"},
    {"tuple_index_out_of_range.hlo", "5:3",
     "index 2 is out of range for (f32[2], s32[])"},
    {"bad_attribute_value.hlo", "5:51",
     "dimensions: expected integers in '{1,one}'"},
    {"unterminated_string.hlo", "4:49",
     "unterminated string in attribute 'metadata'"},
    {"two_roots.hlo", "5:3",
     "second ROOT in computation 'main' (first on line 4)"},
    {"reduce_without_reducer.hlo", "6:3",
     "reduce needs a 'to_apply' computation"},
    {"empty.hlo", "1:1",
     "no computations: expected 'HloModule name' and computations"},
    {"header_without_body.hlo", "3:1",
     "computation 'inner' starts inside computation 'outer', which is not "
     "closed with '}'"},
    {"binary_garbage.hlo", "5:8",
     "expected an instruction, got '\\xff\\xfe = f32[2]{0} negat'"},
};

} // namespace

TEST(ParseError, MalformedFilesNameFileLineAndColumn) {
  for (const MalformedCase &c : kCases) {
    std::string path = fixture(std::string("malformed/") + c.file);
    auto module = parseModuleFile(path);
    ASSERT_FALSE(module.ok()) << c.file;
    const std::string &message = module.error().message;
    std::string expected = path + ":" + c.location + ": " + c.message;
    EXPECT_EQ(message, expected) << c.file;
  }
}

TEST(ParseError, MissingFileIsAnError) {
  auto module = parseModuleFile(fixture("does_not_exist.hlo"));
  ASSERT_FALSE(module.ok());
  EXPECT_NE(module.error().message.find("does_not_exist.hlo: cannot read file"),
            std::string::npos);
}

TEST(ParseError, DuplicateEntryAndComputationNames) {
  auto twoEntries = parseModule("HloModule m\nENTRY a {\n  ROOT x = f32[] "
                                "parameter(0)\n}\nENTRY b {\n  ROOT x = f32[] "
                                "parameter(0)\n}\n",
                                "t");
  ASSERT_FALSE(twoEntries.ok());
  EXPECT_EQ(twoEntries.error().message,
            "t:5:1: second ENTRY computation 'b' (first is 'a')");
  auto sameName = parseModule("HloModule m\nc {\n  ROOT x = f32[] "
                              "parameter(0)\n}\nENTRY c {\n  ROOT x = f32[] "
                              "parameter(0)\n}\n",
                              "t");
  ASSERT_FALSE(sameName.ok());
  EXPECT_EQ(sameName.error().message,
            "t:5:1: duplicate computation name 'c' (first defined on line 2)");
}

// Every prefix of a real graph is either a module or an error: never a
// crash, an abort or a hang.
TEST(ParseError, EveryTruncationOfARealGraphIsHandled) {
  std::string text =
      readText(bundledGraphs() / "torch_xla_neuron/linear_module_adam.hlo");
  ASSERT_FALSE(text.empty());
  size_t errors = 0;
  for (size_t length = 0; length < text.size(); length += 7) {
    auto module = parseModule(text.substr(0, length), "cut");
    if (!module) {
      ++errors;
      EXPECT_EQ(module.error().message.rfind("cut:", 0), 0u);
    }
  }
  EXPECT_GT(errors, text.size() / 7 / 2);
}

TEST(ParseError, RandomByteDamageIsHandled) {
  std::string text =
      readText(bundledGraphs() / "torch_xla_neuron/linear_module_backward.hlo");
  ASSERT_FALSE(text.empty());
  std::mt19937 random(7);
  const char replacements[] = "{}()[],=%\"x0 \n/*-";
  for (int trial = 0; trial < 300; ++trial) {
    std::string damaged = text;
    for (int hit = 0; hit < 3; ++hit)
      damaged[random() % damaged.size()] =
          replacements[random() % (sizeof(replacements) - 1)];
    auto module = parseModule(damaged, "damaged");
    if (!module) {
      EXPECT_EQ(module.error().message.rfind("damaged:", 0), 0u);
    }
  }
}

TEST(ParseError, ConstantsThatOverflowTheirTypeAreRejectedWhereWritten) {
  auto errorOf = [](const std::string &root) {
    auto module = parseModule("HloModule m\n\nENTRY e {\n" + root + "}\n", "t");
    return module ? "parsed" : module.error().message;
  };
  EXPECT_EQ(errorOf("  ROOT c = f32[] constant(1e99999)\n"),
            "t:4:27: constant 1e99999: '1e99999' is out of range for f32");
  EXPECT_EQ(errorOf("  ROOT c = f32[2] constant({1, 1e39})\n"),
            "t:4:28: constant {1, 1e39}: '1e39' is out of range for f32");
  EXPECT_EQ(errorOf("  ROOT c = f16[] constant(70000)\n"),
            "t:4:27: constant 70000: '70000' is out of range for f16");
  EXPECT_EQ(errorOf("  ROOT c = s8[] constant(128)\n"),
            "t:4:26: constant 128: '128' is out of range for s8");
  EXPECT_EQ(errorOf("  ROOT c = u32[] constant(-1)\n"),
            "t:4:27: constant -1: '-1' is out of range for u32");
  // The extremes themselves, as XLA prints them, still load.
  EXPECT_EQ(errorOf("  a = f32[] constant(-3.40282347e+38)\n"
                    "  b = f16[] constant(65504)\n"
                    "  c = s8[] constant(-128)\n"
                    "  d = u64[] constant(18446744073709551615)\n"
                    "  e = f64[] constant(1e-320)\n"
                    "  ROOT t = (f32[], f16[], s8[], u64[], f64[]) "
                    "tuple(a, b, c, d, e)\n"),
            "parsed");
}

// Hostile nesting is an error, not a stack overflow.
TEST(ParseError, ExcessiveNestingIsRejected) {
  std::string deep =
      "HloModule m\nENTRY e {\n  ROOT p = " + std::string(100000, '(') +
      " parameter(0)\n}\n";
  auto module = parseModule(deep, "deep");
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.error().message,
            "deep:3:76: tuple shapes nest deeper than 64 levels");

  std::string dims;
  for (int i = 0; i < 100; ++i)
    dims += i ? ",1" : "1";
  auto wide = parseModule("HloModule m\nENTRY e {\n  ROOT p = f32[" + dims +
                              "] parameter(0)\n}\n",
                          "wide");
  ASSERT_FALSE(wide.ok());
  EXPECT_EQ(wide.error().message,
            "wide:3:12: shape has more than 64 dimensions");
}
