// Every bundled graph parses; print -> parse -> print is a fixed point and
// the reparsed module has the same structure.
#include "GraphTestUtil.h"

#include "rlopt/graph/Printer.h"

#include <algorithm>

using namespace rlopt::graph;
using rlopt::graph::testing::bundledGraphs;
using rlopt::graph::testing::readText;

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> graphFiles() {
  std::vector<fs::path> files;
  // HLO text only: torch-xla graphs end in .hlo, JAX dumps in .txt.
  for (const auto &entry : fs::recursive_directory_iterator(bundledGraphs())) {
    std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() && (extension == ".hlo" || extension == ".txt"))
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string withoutTrailingSpace(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.pop_back();
  return text;
}

// Same computations, instructions, opcodes, shapes, operands, attributes and
// literals, compared by name.
void expectSameStructure(const Module &a, const Module &b,
                         const std::string &file) {
  EXPECT_EQ(a.name(), b.name()) << file;
  EXPECT_EQ(a.instructionCount(), b.instructionCount()) << file;
  ASSERT_EQ(a.computations().size(), b.computations().size()) << file;
  EXPECT_EQ(a.entry()->name(), b.entry()->name()) << file;
  for (size_t c = 0; c < a.computations().size(); ++c) {
    const Computation &ca = *a.computations()[c];
    const Computation &cb = *b.computations()[c];
    ASSERT_EQ(ca.name(), cb.name()) << file;
    ASSERT_EQ(ca.instructionCount(), cb.instructionCount()) << file;
    EXPECT_EQ(ca.root()->name(), cb.root()->name()) << file;
    for (size_t i = 0; i < ca.instructionCount(); ++i) {
      const Instruction &ia = *ca.instructions()[i];
      const Instruction &ib = *cb.instructions()[i];
      std::string where = file + ": " + ia.name();
      ASSERT_EQ(ia.name(), ib.name()) << where;
      EXPECT_EQ(ia.opcode(), ib.opcode()) << where;
      EXPECT_EQ(ia.shape(), ib.shape()) << where;
      ASSERT_EQ(ia.operandCount(), ib.operandCount()) << where;
      for (size_t o = 0; o < ia.operandCount(); ++o)
        EXPECT_EQ(ia.operand(o)->name(), ib.operand(o)->name()) << where;
      ASSERT_EQ(ia.attributes().size(), ib.attributes().size()) << where;
      for (size_t k = 0; k < ia.attributes().size(); ++k) {
        EXPECT_EQ(ia.attributes()[k].key, ib.attributes()[k].key) << where;
        EXPECT_EQ(ia.attributes()[k].value, ib.attributes()[k].value) << where;
      }
      EXPECT_EQ(ia.parameterNumber(), ib.parameterNumber()) << where;
      EXPECT_EQ(ia.literal().text, ib.literal().text) << where;
      EXPECT_EQ(ia.literal().integers, ib.literal().integers) << where;
      EXPECT_EQ(ia.literal().elided, ib.literal().elided) << where;
    }
  }
}

} // namespace

TEST(RoundTrip, AllBundledGraphsAreFound) {
  std::vector<fs::path> files = graphFiles();
  size_t torch =
      std::count_if(files.begin(), files.end(), [](const fs::path &p) {
        return p.parent_path().filename() == "torch_xla_neuron";
      });
  EXPECT_EQ(files.size(), 91u);
  EXPECT_EQ(torch, 15u);
}

TEST(RoundTrip, PrintParsePrintIsAFixedPointForEveryGraph) {
  size_t checked = 0, reproduced = 0;
  for (const fs::path &path : graphFiles()) {
    std::string file = path.filename().string();
    std::string text = readText(path);
    auto module = parseModule(text, file);
    ASSERT_TRUE(module.ok()) << module.error().message;

    std::string printed = printModule(*module);
    auto reparsed = parseModule(printed, file + " (printed)");
    ASSERT_TRUE(reparsed.ok()) << reparsed.error().message;
    EXPECT_EQ(printModule(*reparsed), printed) << file;
    EXPECT_EQ(reparsed->style(), module->style()) << file;
    expectSameStructure(*module, *reparsed, file);

    // Where the input has a header and no comments, printing reproduces it
    // byte for byte: attributes, literals and layouts are kept as written.
    if (text.rfind("HloModule", 0) == 0 &&
        text.find("//") == std::string::npos) {
      EXPECT_EQ(withoutTrailingSpace(printed), withoutTrailingSpace(text))
          << file;
      ++reproduced;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 91u);
  EXPECT_EQ(reproduced, 89u);
}

TEST(RoundTrip, BothTextStylesOccurAndAreDetected) {
  Module torch = rlopt::graph::testing::parseOk(
      readText(bundledGraphs() / "torch_xla_neuron/linear_module_forward.hlo"));
  EXPECT_EQ(torch.style(), (TextStyle{true, true, true}));
  Module jax = rlopt::graph::testing::parseOk(readText(
      bundledGraphs() /
      "jax/jraph/module_0101.jit_accuracy.49.before_optimizations.txt"));
  EXPECT_EQ(jax.style(), (TextStyle{false, false, false}));
}

TEST(RoundTrip, LargestGraphsHaveTheirKnownSizes) {
  auto bert = parseModuleFile(
      (bundledGraphs() / "torch_xla_neuron/baseline_bert_0.hlo").string());
  ASSERT_TRUE(bert.ok()) << bert.error().message;
  EXPECT_EQ(bert->name(), "SyncTensorsGraph.4622");
  EXPECT_EQ(bert->entry()->parameters().size(), 211u);
  auto nux = parseModuleFile(
      (bundledGraphs() / "jax/NuX/"
                         "1648647409115717.module_0337.jit_loss.9581.before_"
                         "optimizations.txt")
          .string());
  ASSERT_TRUE(nux.ok()) << nux.error().message;
  EXPECT_EQ(nux->instructionCount(), 9468u);
}

TEST(RoundTrip, CloneIsDeepAndPrintsTheSame) {
  Module original = rlopt::graph::testing::parseOk(
      readText(bundledGraphs() / "torch_xla_neuron/linear_module_adam.hlo"));
  Module copy = original.clone();
  EXPECT_EQ(printModule(copy), printModule(original));
  for (const auto &computation : copy.computations())
    for (const auto &instruction : computation->instructions()) {
      EXPECT_EQ(instruction->parent(), computation.get());
      for (const Instruction *operand : instruction->operands())
        EXPECT_EQ(operand->parent(), computation.get());
      for (const Computation *called : instruction->calledComputations())
        EXPECT_EQ(copy.findComputation(called->name()), called);
    }
  copy.entry()->root()->setName("renamed");
  EXPECT_NE(original.entry()->root()->name(), "renamed");
}
