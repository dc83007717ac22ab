// Helpers for the graph pass tests: run a pass by name, count opcodes, and
// check with the reference interpreter that a rewrite kept the outputs.
#ifndef RLOPT_TESTS_GRAPH_PASSTESTUTIL_H
#define RLOPT_TESTS_GRAPH_PASSTESTUTIL_H

#include "GraphTestUtil.h"

#include "rlopt/graph/GraphPass.h"
#include "rlopt/graph/Interpreter.h"
#include "rlopt/graph/OpCount.h"
#include "rlopt/graph/Printer.h"
#include "rlopt/graph/Verifier.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace rlopt::graph::testing {

/// Runs the pass `name` (an action or a CPU-configured pass) on `module`; fails
/// the test on an unknown name or an error, and checks the result still
/// verifies.
inline bool runPass(const std::string &name, Module &module) {
  const GraphPass *pass = findPipelinePass(name);
  EXPECT_NE(pass, nullptr) << "no pass named " << name;
  if (!pass)
    return false;
  auto changed = pass->run(module);
  EXPECT_TRUE(changed.ok()) << name << ": " << changed.error().message;
  if (!changed)
    return false;
  Status valid = verifyModule(module);
  EXPECT_TRUE(valid.ok()) << name << " left an invalid module: "
                          << valid.error().message << "\n"
                          << printModule(module);
  return *changed;
}

/// Instructions with `opcode` over the whole module.
inline int64_t countOf(const Module &module, Opcode opcode) {
  return countModuleOps(module).count(opcode);
}

inline int64_t totalOps(const Module &module) {
  return countModuleOps(module).total;
}

/// The reference outputs of `module` on seeded random arguments, computed
/// in double without rounding to the element types: passes may reorder or
/// expand floating-point math (batch-norm, folding), which in bf16 moves
/// results by more than any useful tolerance, while a wrong rewrite still
/// changes them by far more than 1e-4.
inline Result<Value> evaluateOnSeed(const Module &module, uint64_t seed = 7) {
  InterpreterOptions options;
  options.roundToElementType = false;
  auto arguments = randomArguments(module, seed, options);
  if (!arguments)
    return arguments.error();
  return evaluate(module, *arguments, options);
}

/// `after` computes what `before` does on the same random arguments.
inline void expectSameResults(const Module &before, const Module &after,
                              const std::string &what = "") {
  auto expected = evaluateOnSeed(before);
  ASSERT_TRUE(expected.ok()) << what << ": " << expected.error().message;
  auto actual = evaluateOnSeed(after);
  ASSERT_TRUE(actual.ok()) << what << ": " << actual.error().message << "\n"
                           << printModule(after);
  Status same = compareValues(*expected, *actual);
  EXPECT_TRUE(same.ok()) << what << ": " << same.error().message << "\n"
                         << printModule(after);
}

/// Parses `text`, runs `pass`, expects it to change the module and keep its
/// outputs; returns the rewritten module.
inline Module expectRewrite(const std::string &pass, const std::string &text) {
  Module before = parseOk(text);
  Module after = before.clone();
  EXPECT_TRUE(runPass(pass, after)) << pass << " did not fire on:\n" << text;
  expectSameResults(before, after, pass);
  return after;
}

/// Parses `text`, runs `pass` and expects it to leave the module as it was.
inline void expectNoRewrite(const std::string &pass, const std::string &text) {
  Module module = parseOk(text);
  std::string printed = printModule(module);
  EXPECT_FALSE(runPass(pass, module)) << pass << " fired on:\n" << text;
  EXPECT_EQ(printModule(module), printed) << pass;
}

/// The bundled HLO graphs, sorted.
inline std::vector<std::filesystem::path> bundledGraphFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto &entry :
       std::filesystem::recursive_directory_iterator(bundledGraphs())) {
    std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() && (extension == ".hlo" || extension == ".txt"))
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace rlopt::graph::testing

#endif
