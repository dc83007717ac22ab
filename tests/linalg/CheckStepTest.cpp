// The action masks: linalg::checkStep must never allow a step that then
// fails. For each op of a few fixtures, candidate steps (random tile,
// parallelize and fuse sizes, interchange permutations, vectorize, img2col,
// stop) are checked on a fresh ScheduleState; every allowed one must apply
// through the transform interpreter, and a subset must also lower to LLVM
// and translate to LLVM IR (what the JIT needs). Two-step sequences cover
// tile/interchange/parallelize/fuse/img2col followed by vectorize or tile.
#include "LinalgTestUtil.h"

#include "rlopt/core/Worker.h"
#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/Lowering.h"
#include "rlopt/linalg/Transformation.h"

#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

using namespace rlopt;
using namespace rlopt::linalg;
using namespace rlopt::linalg::testing;

namespace {

struct Step {
  unsigned op;
  TransformStep step;
};

std::string text(const std::vector<Step> &steps) {
  std::string out;
  for (const Step &s : steps) {
    out += (out.empty() ? "" : "; ") + std::string("op") +
           std::to_string(s.op) + ": " + s.step.name;
    for (size_t i = 0; i < s.step.params.size(); ++i)
      out += (i ? "," : "(") + std::to_string(s.step.params[i]);
    if (!s.step.params.empty())
      out += ")";
  }
  return out;
}

/// Random per-loop sizes from {0, 1, 4, 8, 16, 32, range}; with `clip`,
/// sizes past the range become the range (so that more candidates are legal).
std::vector<int64_t> randomSizes(const OpState &op, std::mt19937 &rng,
                                 bool parallelOnly, bool clip = false) {
  std::vector<int64_t> sizes;
  for (unsigned i = 0; i < op.numLoops(); ++i) {
    const int64_t choices[] = {0, 1, 4, 8, 16, 32, op.ranges[i]};
    int64_t size = choices[rng() % 7];
    if (clip)
      size = std::min(size, op.ranges[i]);
    if (parallelOnly && op.isReduction[i] && rng() % 4 != 0)
      size = 0; // mostly legal, sometimes not: the check must catch those
    sizes.push_back(size);
  }
  return sizes;
}

/// Small sizes, so that vectorize fits after the tiling.
std::vector<int64_t> smallSizes(const OpState &op, std::mt19937 &rng) {
  std::vector<int64_t> sizes;
  for (unsigned i = 0; i < op.numLoops(); ++i) {
    const int64_t choices[] = {1, 2, 3, 4, 8, op.ranges[i]};
    sizes.push_back(std::min(choices[rng() % 6], op.ranges[i]));
  }
  return sizes;
}

/// For a convolution or pooling, the (output row, window row) loops: the
/// first input dimension indexed by two loops. Empty for other ops.
std::vector<unsigned> windowRowLoops(const OpInfo &info) {
  if (info.opClass != OpClass::Conv2d && info.opClass != OpClass::Pooling)
    return {};
  for (const std::vector<int64_t> &row : info.loads.at(0)) {
    std::vector<unsigned> loops;
    for (unsigned l = 0; l < info.numLoops(); ++l)
      if (row[l] != 0)
        loops.push_back(l);
    if (loops.size() == 2)
      return loops;
  }
  return {};
}

std::vector<std::vector<int64_t>> permutations(unsigned n, std::mt19937 &rng) {
  std::vector<int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<std::vector<int64_t>> result;
  if (n <= 4) {
    do
      result.push_back(perm);
    while (std::next_permutation(perm.begin(), perm.end()));
    return result;
  }
  for (int i = 0; i < 12; ++i) {
    std::shuffle(perm.begin(), perm.end(), rng);
    result.push_back(perm);
  }
  return result;
}

/// Single-step candidates for `op` (valid or not).
std::vector<TransformStep> candidates(const OpState &op, std::mt19937 &rng) {
  std::vector<TransformStep> result;
  for (int i = 0; i < 30; ++i)
    result.push_back({"tile", randomSizes(op, rng, false, i % 2)});
  for (int i = 0; i < 30; ++i)
    result.push_back({"parallelize", randomSizes(op, rng, true, i % 2)});
  for (int i = 0; i < 10; ++i)
    result.push_back({"fuse", randomSizes(op, rng, true, i % 2)});
  for (std::vector<int64_t> &perm : permutations(op.numLoops(), rng))
    result.push_back({"interchange", perm});
  result.push_back({"vectorize", {}});
  result.push_back({"img2col", {}});
  result.push_back({"stop", {}});
  // Wrong parameter counts must be rejected, never applied.
  result.push_back({"tile", std::vector<int64_t>(op.numLoops() + 1, 1)});
  result.push_back({"vectorize", {1}});
  return result;
}

/// Lowers and translates to LLVM IR; empty on success.
std::string lowerAndTranslate(mlir::ModuleOp module) {
  auto lowered = lowerToLLVM(module);
  if (!lowered)
    return lowered.error().message;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return "translation to LLVM IR failed";
  return "";
}

/// lowerAndTranslate in a forked worker, as rlopt compiles candidates: a
/// crash in MLIR or LLVM fails the check instead of ending the test binary.
std::string lowerAndTranslateIsolated(mlir::ModuleOp module) {
  WorkerLimits limits;
  limits.timeoutSeconds = 60;
  auto worker = Worker::spawn(
      [&](WorkerChannel &channel) {
        channel.send(lowerAndTranslate(module));
        return 0;
      },
      limits);
  if (!worker)
    return "cannot start a worker: " + worker.error().message;
  Result<std::string> reply = worker->receive();
  worker->finish();
  if (!reply)
    return "lowering crashed: " + reply.error().message;
  return *reply;
}

class CheckStepTest : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    auto loaded = loadFixture(GetParam());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    program = std::make_unique<Program>(loaded.takeValue());
  }

  /// Checks and applies `steps` in order on a fresh state. Returns false
  /// (without failing) when a step is rejected by checkStep; a step that is
  /// allowed but does not apply, or a script that fails, is a failure.
  bool checkAndApply(const std::vector<Step> &steps, bool lower) {
    SCOPED_TRACE(GetParam() + ": " + text(steps));
    ScheduleState state(program->ops);
    for (const Step &s : steps) {
      const Transformation *t = findTransformation(s.step.name);
      if (!t) {
        ADD_FAILURE() << "no transformation " << s.step.name;
        return false;
      }
      if (auto problem = checkStep(state, s.op, *t, s.step.params)) {
        EXPECT_FALSE(problem->empty());
        return false;
      }
      Status applied = applyStep(state, s.op, s.step);
      if (!applied) {
        ADD_FAILURE() << "checkStep allowed it but applyStep failed: "
                      << applied.error().message;
        return false;
      }
    }
    mlir::OwningOpRef<mlir::ModuleOp> copy = program->module.get().clone();
    Status status = applyTransformScript(*copy, state.transformScript());
    if (!status) {
      ADD_FAILURE() << "allowed by checkStep, but the script failed: "
                    << status.error().message;
      return true;
    }
    if (lower) {
      std::string problem = lowerAndTranslateIsolated(*copy);
      EXPECT_EQ(problem, "") << "allowed by checkStep, but lowering failed";
    }
    return true;
  }

  void runSingleSteps() {
    std::mt19937 rng(1234);
    ScheduleState fresh(program->ops);
    int allowed = 0, rejected = 0;
    for (unsigned i = 0; i < fresh.ops.size(); ++i) {
      for (const TransformStep &step : candidates(fresh.ops[i], rng)) {
        // Lower every vectorize and every fourth other allowed step.
        bool lower = step.name == "vectorize" || allowed % 4 == 0;
        if (checkAndApply({{i, step}}, lower))
          ++allowed;
        else
          ++rejected;
        if (HasFatalFailure())
          return;
      }
    }
    RecordProperty("allowed", allowed);
    RecordProperty("rejected", rejected);
    // The candidates mix legal and illegal steps: both must occur.
    EXPECT_GT(allowed, 0);
    EXPECT_GT(rejected, 0);
  }

  std::unique_ptr<Program> program;
};

TEST_P(CheckStepTest, AllowedSingleStepsApply) { runSingleSteps(); }

TEST_P(CheckStepTest, AllowedTwoStepSequencesApplyAndLower) {
  std::mt19937 rng(5678);
  ScheduleState fresh(program->ops);
  int sequences = 0;
  for (unsigned i = 0; i < fresh.ops.size(); ++i) {
    const OpState &op = fresh.ops[i];
    // First steps: allowed ones among the single-step candidates.
    std::vector<TransformStep> firsts;
    for (int k = 0; k < 6; ++k)
      firsts.push_back({"tile", smallSizes(op, rng)});
    for (int k = 0; k < 3; ++k)
      firsts.push_back({"parallelize", randomSizes(op, rng, true, true)});
    std::vector<std::vector<int64_t>> perms = permutations(op.numLoops(), rng);
    for (int k = 0; k < 3 && !perms.empty(); ++k)
      firsts.push_back({"interchange", perms[rng() % perms.size()]});
    for (int k = 0; k < 3; ++k)
      firsts.push_back({"fuse", randomSizes(op, rng, true, true)});
    firsts.push_back({"img2col", {}});

    for (const TransformStep &first : firsts) {
      ScheduleState state(program->ops);
      const Transformation *t = findTransformation(first.name);
      if (checkStep(state, i, *t, first.params))
        continue;
      ASSERT_TRUE(applyStep(state, i, first).ok());
      // Fusion: the next step goes to a fused producer; otherwise to the op.
      std::vector<unsigned> targets = {i};
      if (first.name == "fuse")
        targets = program->ops[i].producers;
      for (unsigned target : targets) {
        const OpState &now = state.ops[target];
        std::vector<TransformStep> seconds = {{"vectorize", {}}};
        for (int k = 0; k < 4; ++k)
          seconds.push_back({"tile", smallSizes(now, rng)});
        for (const TransformStep &second : seconds) {
          if (checkAndApply({{i, first}, {target, second}},
                            /*lower=*/true)) {
            ++sequences;
            break;
          }
          if (HasFatalFailure())
            return;
        }
      }
    }
  }
  RecordProperty("sequences", sequences);
  EXPECT_GT(sequences, 0);
}

// Tile then vectorize, the sequence agents use most: sizes small enough
// that vectorize's size limit allows it, including partial tiles.
TEST_P(CheckStepTest, TileThenVectorizeLowers) {
  std::mt19937 rng(91011);
  ScheduleState fresh(program->ops);
  int vectorized = 0;
  for (unsigned i = 0; i < fresh.ops.size(); ++i) {
    for (int k = 0; k < 16; ++k) {
      std::vector<int64_t> sizes = smallSizes(fresh.ops[i], rng);
      // Convolutions and poolings vectorize once the output row and window
      // row loops are 1: make that so in half of the attempts.
      if (k % 2 == 0)
        for (unsigned loop : windowRowLoops(*fresh.ops[i].info))
          sizes[loop] = 1;
      if (checkAndApply({{i, {"tile", sizes}}, {i, {"vectorize", {}}}},
                        /*lower=*/true))
        ++vectorized;
      if (HasFatalFailure())
        return;
    }
  }
  RecordProperty("vectorized", vectorized);
  EXPECT_GT(vectorized, 0);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, CheckStepTest,
                         ::testing::Values("matmul", "batch_matmul", "matvec",
                                           "conv_nhwc", "conv_nchw",
                                           "depthwise_conv", "pool_nhwc_max",
                                           "pool_nchw_max",
                                           "generic_elementwise", "bias_add",
                                           "transpose", "exp", "chain"));

// Reductions that are not contractions, including vectorized ones.
INSTANTIATE_TEST_SUITE_P(ReductionVectorize, CheckStepTest,
                         ::testing::Values("reduce", "generic_rowsum"));

// The reductions' single steps do not include a vectorized reduction (the
// untiled op is too large to vectorize), so they run enabled.
class ReductionCheckStepTest : public CheckStepTest {};

TEST_P(ReductionCheckStepTest, AllowedSingleStepsApply) { runSingleSteps(); }

INSTANTIATE_TEST_SUITE_P(Fixtures, ReductionCheckStepTest,
                         ::testing::Values("reduce", "generic_rowsum"));

} // namespace
