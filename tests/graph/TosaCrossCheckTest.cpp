// Cross-checks rlopt's CSE, DCE and constant folding against MLIR 19 on the
// same graphs, exported to TOSA (TosaExport.h), and checks the export itself
// with mlir-opt-19's verifier.
//
// The two sides count ops the same way: on the HLO side the instructions
// other than parameters and a tuple root, on the MLIR side the ops with
// results other than `rlopt.helper` ones. Each comparison pairs passes that
// do the same job:
//   - rlopt's CSE against `cse`, on a graph without dead code: MLIR's CSE
//     also erases ops that are already dead when it reaches them;
//   - rlopt's DCE against `remove-dead-values`, which only removes dead
//     code; `canonicalize` removes dead code too but also folds and
//     simplifies (x*1, reshapes of constants, selects on constant
//     predicates, equal constants merged), so it is compared only on a graph
//     where it has nothing else to do;
//   - rlopt's constant folding + DCE against `tosa-layerwise-constant-fold`
//     then `canonicalize`, on cases inside the set MLIR 19 folds.
// Where the two legitimately differ, the case is left out and the reason
// given where it would have been.
#include "../tools/ToolTestUtil.h"
#include "GraphTestUtil.h"

#include "rlopt/graph/GraphPass.h"
#include "rlopt/graph/TosaExport.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace {

using namespace rlopt::graph;
using rlopt::graph::testing::bundledGraphs;
using rlopt::graph::testing::fixture;
using rlopt::graph::testing::parseOk;
using rlopt::graph::testing::readText;
using rlopt::tool::testing::runCommand;
using rlopt::tool::testing::RunResult;
using rlopt::tool::testing::ScratchDir;
using rlopt::tool::testing::writeFile;

constexpr const char *kMlirOpt = "mlir-opt-19";

/// Runs mlir-opt-19 with `flags` on `mlirText`; a failed run fails the test
/// with mlir-opt's diagnostics.
RunResult runMlirOpt(const std::string &mlirText,
                     const std::vector<std::string> &flags) {
  ScratchDir scratch;
  writeFile(scratch / "input.mlir", mlirText);
  std::vector<std::string> args = flags;
  args.push_back((scratch / "input.mlir").string());
  RunResult result = runCommand(kMlirOpt, args, scratch.path());
  EXPECT_EQ(result.exitCode, 0)
      << kMlirOpt << " failed (scripts/bootstrap installs mlir-19-tools):\n"
      << result.err.substr(0, 2000);
  return result;
}

/// The graph pass mirroring the XLA pass `mirrors` (or, failing that, the
/// one named `name`); fails the test if there is none.
const GraphPass &graphPass(const std::string &mirrors,
                           const std::string &name) {
  for (const GraphPass &pass : graphPasses())
    if (pass.mirrors == mirrors)
      return pass;
  std::optional<int> index = findGraphPass(name);
  EXPECT_TRUE(index.has_value()) << "no graph pass mirrors " << mirrors;
  return graphPasses().at(index.value_or(0));
}

const GraphPass &cse() { return graphPass("HloCSE", "cse"); }
const GraphPass &dce() { return graphPass("HloDCE", "dce"); }
const GraphPass &constantFolding() {
  return graphPass("HloConstantFolding", "constant-folding");
}

/// How many comparable ops rlopt's `passes`, run in order on a copy of
/// `module`, remove.
int64_t rloptReduction(const Module &module,
                       const std::vector<const GraphPass *> &passes) {
  Module copy = module.clone();
  for (const GraphPass *pass : passes) {
    auto changed = pass->run(copy);
    EXPECT_TRUE(changed.ok()) << pass->name << ": " << changed.error().message;
  }
  return countTosaComparableOps(module) - countTosaComparableOps(copy);
}

/// How many counted ops mlir-opt-19 with `flags` removes from `function`.
int64_t mlirReduction(const TosaFunction &function,
                      const std::vector<std::string> &flags) {
  RunResult result = runMlirOpt(function.text, flags);
  return function.opCount - countTosaOps(result.out);
}

TosaFunction exportOk(const Module &module) {
  auto function = exportTosa(module);
  EXPECT_TRUE(function.ok()) << function.error().message;
  return function ? function.takeValue() : TosaFunction();
}

/// Whether `mlirText` has a `tosa.<op>`, in pretty or generic form.
bool writesOp(const std::string &mlirText, const std::string &op) {
  return mlirText.find(" tosa." + op + " ") != std::string::npos ||
         mlirText.find("\"tosa." + op + "\"") != std::string::npos;
}

Module parseFixture(const std::string &name) {
  return parseOk(readText(fixture(name)));
}

TEST(TosaExport, EveryMappedInstructionKindPassesMlirsVerifier) {
  Module module = parseFixture("tosa_ops.hlo");
  TosaFunction function = exportOk(module);
  // TOSA's op syntax changed between MLIR versions; mlir-opt-19 parses,
  // verifies and profile-checks what the export writes.
  RunResult verified =
      runMlirOpt(function.text, {"--verify-each", "--tosa-validate"});
  EXPECT_TRUE(verified.err.empty()) << verified.err;

  for (const char *op :
       {"const",         "add",         "sub",        "mul",
        "reciprocal",    "maximum",     "minimum",    "negate",
        "abs",           "exp",         "log",        "tanh",
        "rsqrt",         "pow",         "floor",      "ceil",
        "sigmoid",       "identity",    "equal",      "greater",
        "greater_equal", "logical_and", "logical_or", "logical_xor",
        "logical_not",   "select",      "int_div",    "bitwise_and",
        "bitwise_not",   "cast",        "reshape",    "tile",
        "transpose",     "slice",       "concat",     "reverse",
        "reduce_sum",    "reduce_max",  "reduce_min", "reduce_prod"})
    EXPECT_TRUE(writesOp(function.text, op)) << "tosa." << op;

  // One counted op per instruction, however mlir-opt prints them.
  int64_t instructions = countTosaComparableOps(module);
  EXPECT_EQ(instructions, 57);
  EXPECT_EQ(function.opCount, instructions);
  EXPECT_EQ(countTosaOps(function.text), instructions);
  EXPECT_EQ(countTosaOps(verified.out), instructions);
  EXPECT_EQ(
      countTosaOps(runMlirOpt(function.text, {"--mlir-print-op-generic"}).out),
      instructions);
  EXPECT_EQ(function.argumentCount, 5);
  EXPECT_EQ(function.resultCount, 17);
}

TEST(TosaExport, UnsupportedInstructionIsAnErrorNamingItsOpcode) {
  Module module = parseOk(R"(HloModule m
ENTRY e {
  x = f32[2,3]{1,0} parameter(0)
  w = f32[3,4]{1,0} parameter(1)
  ROOT product = f32[2,4]{1,0} dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)");
  auto function = exportTosa(module);
  ASSERT_FALSE(function.ok());
  EXPECT_NE(function.error().message.find("'product'"), std::string::npos);
  EXPECT_NE(function.error().message.find("dot"), std::string::npos);
  EXPECT_EQ(function.error().message.find('\n'), std::string::npos);
}

TEST(TosaExport, ElidedConstantsAndUnsignedTypesAreNotExpressible) {
  Module elided = parseOk(R"(HloModule m
ENTRY e {
  x = f32[4]{0} parameter(0)
  c = f32[4]{0} constant({...})
  ROOT s = f32[4]{0} add(x, c)
}
)");
  auto function = exportTosa(elided);
  ASSERT_FALSE(function.ok());
  EXPECT_NE(function.error().message.find("'c'"), std::string::npos);
  EXPECT_NE(function.error().message.find("no values"), std::string::npos);

  Module unsigned32 = parseOk(R"(HloModule m
ENTRY e {
  x = u32[4]{0} parameter(0)
  ROOT s = u32[4]{0} add(x, x)
}
)");
  EXPECT_FALSE(exportTosa(unsigned32).ok());
}

TEST(TosaExport, SubgraphIsTheLargestSupportedPiece) {
  // The dot has no TOSA form and splits the entry in two: two ops before it,
  // four after it (plus a dead negate, which stays dead).
  Module module = parseOk(R"(HloModule m
ENTRY e {
  x = f32[2,3]{1,0} parameter(0)
  w = f32[3,4]{1,0} parameter(1)
  scaled = f32[2,3]{1,0} multiply(x, x)
  shifted = f32[2,3]{1,0} exponential(scaled)
  product = f32[2,4]{1,0} dot(shifted, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bias = f32[4]{0} parameter(2)
  rows = f32[2,4]{1,0} broadcast(bias), dimensions={1}
  sum = f32[2,4]{1,0} add(product, rows)
  unused = f32[2,4]{1,0} negate(sum)
  ROOT out = f32[2,4]{1,0} tanh(sum)
}
)");
  auto piece = extractTosaSubgraph(module);
  ASSERT_TRUE(piece.ok()) << piece.error().message;
  const Computation &entry = *piece->entry();
  EXPECT_EQ(countTosaComparableOps(*piece), 4);
  // The bias and the dot's value come in as parameters, in order of use.
  std::vector<Instruction *> parameters = entry.parameters();
  ASSERT_EQ(parameters.size(), 2u);
  EXPECT_EQ(parameters[0]->name(), "bias");
  EXPECT_EQ(parameters[1]->name(), "product");
  EXPECT_EQ(entry.root()->name(), "out");
  EXPECT_NE(entry.findInstruction("unused"), nullptr);

  auto function = exportTosaSubgraph(module);
  ASSERT_TRUE(function.ok()) << function.error().message;
  EXPECT_EQ(function->opCount, 4);
  runMlirOpt(function->text, {"--verify-each"});
  // The negate is dead in the piece as it was in the graph.
  EXPECT_EQ(mlirReduction(*function, {"--remove-dead-values"}), 1);
}

TEST(TosaCrossCheck, CseRemovesWhatMlirCseRemoves) {
  // Ten duplicates (see the fixture), including a commuted multiply: both
  // rlopt's CSE and MLIR's match commutative operands in either order. Not
  // in the fixture: a compare LT and the GT with swapped operands are one
  // `tosa.greater` to MLIR but two compares to rlopt, which, like XLA's
  // HloCSE, compares directions as written.
  Module module = parseFixture("tosa_cse.hlo");
  TosaFunction function = exportOk(module);
  int64_t rlopt = rloptReduction(module, {&cse()});
  EXPECT_EQ(rlopt, 10);
  EXPECT_EQ(rlopt, mlirReduction(function, {"--cse"}));
  EXPECT_EQ(rloptReduction(module, {&cse(), &dce()}),
            mlirReduction(function, {"--cse", "--remove-dead-values"}));
}

TEST(TosaCrossCheck, DceRemovesWhatMlirDeadCodeRemovalRemoves) {
  Module module = parseFixture("tosa_dce.hlo");
  TosaFunction function = exportOk(module);
  int64_t rlopt = rloptReduction(module, {&dce()});
  EXPECT_EQ(rlopt, 8);
  EXPECT_EQ(rlopt, mlirReduction(function, {"--remove-dead-values"}));
  // Nothing to fold or simplify here, so canonicalize only removes dead
  // code.
  EXPECT_EQ(rlopt, mlirReduction(function, {"--canonicalize"}));

  // Together with the two live duplicates and the one inside dead code.
  int64_t both = rloptReduction(module, {&cse(), &dce()});
  EXPECT_EQ(both, 10);
  EXPECT_EQ(both, mlirReduction(function, {"--cse", "--remove-dead-values"}));
  EXPECT_EQ(both, mlirReduction(function, {"--cse", "--canonicalize"}));
}

TEST(TosaCrossCheck, ConstantFoldingFoldsWhatMlirLayerwiseFoldingFolds) {
  Module module = parseFixture("tosa_fold.hlo");
  TosaFunction function = exportOk(module);
  int64_t rlopt = rloptReduction(module, {&constantFolding(), &dce()});
  EXPECT_EQ(rlopt, 9);
  EXPECT_EQ(rlopt, mlirReduction(function, {"--tosa-layerwise-constant-fold",
                                            "--canonicalize"}));
}

TEST(TosaCrossCheck, MlirFoldsNoConstantExpOrNegateOrMaximum) {
  // Why the folding fixture stays inside MLIR 19's set: TOSA's exp, negate
  // and maximum have no folders, so only rlopt folds these three.
  Module module = parseOk(R"(HloModule m
ENTRY e {
  c = f32[2]{0} constant({1, 2})
  d = f32[2]{0} constant({3, 1})
  e = f32[2]{0} exponential(c)
  n = f32[2]{0} negate(d)
  ROOT m = f32[2]{0} maximum(e, n)
}
)");
  TosaFunction function = exportOk(module);
  EXPECT_EQ(rloptReduction(module, {&constantFolding(), &dce()}), 4);
  EXPECT_EQ(mlirReduction(function,
                          {"--tosa-layerwise-constant-fold", "--canonicalize"}),
            0);
}

TEST(TosaCrossCheck, RealGraphSubgraphsLoseWhatMlirCseAndDceRemove) {
  // Every bundled graph: its largest exportable piece, rlopt's CSE + DCE
  // against MLIR's `cse` + `remove-dead-values`. Canonicalize is not used:
  // on these pieces it also removes x+0, x*1 and reshapes of reshapes, and
  // turns helper reshapes of constants into new counted constants, none of
  // which CSE or DCE does. The pieces drop layouts
  // (extractTosaSubgraph), without which rlopt's layout-sensitive CSE keeps
  // broadcasts that differ only in layout apart while TOSA cannot.
  std::vector<std::filesystem::path> graphs;
  for (const auto &entry :
       std::filesystem::recursive_directory_iterator(bundledGraphs()))
    if (entry.path().extension() == ".hlo" ||
        entry.path().extension() == ".txt")
      graphs.push_back(entry.path());
  std::sort(graphs.begin(), graphs.end());
  ASSERT_GE(graphs.size(), 90u);

  // Per source folder: graphs, pieces exported, the ops of those graphs and
  // of their pieces, ops removed.
  struct Tally {
    int64_t graphs = 0, exported = 0, graphOps = 0, ops = 0, removed = 0;
  };
  std::map<std::string, Tally> bySource;
  Tally all;
  for (const auto &path : graphs) {
    Tally &source =
        bySource[path.lexically_relative(bundledGraphs()).begin()->string()];
    ++source.graphs;
    ++all.graphs;
    auto module = parseModuleFile(path.string());
    ASSERT_TRUE(module.ok()) << module.error().message;
    auto piece = extractTosaSubgraph(*module);
    if (!piece)
      continue; // nothing exports: mostly u32 random-number code
    auto function = exportTosa(*piece);
    ASSERT_TRUE(function.ok()) << path << ": " << function.error().message;
    int64_t rlopt = rloptReduction(*piece, {&cse(), &dce()});
    int64_t mlir = mlirReduction(*function, {"--cse", "--remove-dead-values"});
    EXPECT_EQ(rlopt, mlir) << path;
    for (Tally *tally : {&source, &all}) {
      ++tally->exported;
      tally->graphOps += countTosaComparableOps(*module);
      tally->ops += function->opCount;
      tally->removed += rlopt;
    }
  }
  bySource["all"] = all;
  for (const auto &[name, tally] : bySource)
    std::printf("[ tosa     ] %s: %lld graphs, %lld exported as subgraphs "
                "with %lld of their %lld ops; CSE + DCE removed %lld on both "
                "sides\n",
                name.c_str(), static_cast<long long>(tally.graphs),
                static_cast<long long>(tally.exported),
                static_cast<long long>(tally.ops),
                static_cast<long long>(tally.graphOps),
                static_cast<long long>(tally.removed));
  EXPECT_GE(all.exported, 60);
  EXPECT_GT(all.removed, 1000);
}

} // namespace
