#ifndef RLOPT_LINALG_LINALGENV_H
#define RLOPT_LINALG_LINALGENV_H

#include "rlopt/core/Env.h"
#include "rlopt/linalg/ActionLayout.h"
#include "rlopt/linalg/EnvConfig.h"
#include "rlopt/linalg/Program.h"
#include "rlopt/linalg/Transformation.h"

#include <memory>
#include <optional>

namespace rlopt::linalg {

/// The MLIR RL environment. An episode walks the ops from the last consumer
/// to the first producer; each op gets up to `stepsPerOp` transformations
/// and ends with vectorize, stop, or when its steps run out.
///
/// Action heads (MultiDiscrete):
///   [0]                      transformation (the registry's order)
///   [1, 1 + L)               tile-size index per loop level (tile)
///   [1 + L, 1 + 2L)          tile-size index per loop level (parallelize,
///                            fuse; reductions masked to 0)
///   [1 + 2L]                 interchange level pointer
/// with L = max_loops. Interchange is chosen one loop level at a time: after
/// `interchange`, the following sub-steps pick the loop for position 0, 1,
/// ...; loops already placed are masked. With `interchange: "enumerated"`
/// the last head instead picks one of the L(L-1)/2 swaps of two loops in the
/// same step as the `interchange` type (the ablation).
class LinalgEnv : public Env {
public:
  explicit LinalgEnv(EnvConfig config);
  ~LinalgEnv() override;

  const Spaces &spaces() const override { return envSpaces; }
  Result<Observation> tryReset(const BenchmarkRef &benchmark,
                               uint64_t seed) override;
  StepResult step(const Action &action) override;
  std::unique_ptr<Env> fork() const override;

  /// The schedule applied so far, in schedule text.
  Schedule schedule() const;
  const EnvConfig &config() const { return cfg; }
  /// The transformation of each value of the type head.
  const std::vector<const Transformation *> &transformationTypes() const {
    return types;
  }
  /// The type-head value of the transformation named `name`; -1 if the
  /// environment does not offer it.
  int typeIndex(const std::string &name) const;
  /// Index of the op being scheduled; -1 when the episode is over.
  int currentOp() const;
  /// The program of the current episode; null before the first reset.
  const Program *program() const;
  /// The state (loop ranges after the steps so far) of the op being
  /// scheduled; null when the episode is over.
  const OpState *currentOpState() const;

  /// The layout as plain numbers, for policies.
  ActionLayout actionLayout() const;

  // Head layout.
  unsigned typeHead() const { return 0; }
  unsigned tileHead(unsigned level) const { return 1 + level; }
  unsigned parallelHead(unsigned level) const {
    return 1 + cfg.maxLoops + level;
  }
  unsigned pointerHead() const { return 1 + 2 * cfg.maxLoops; }
  bool enumeratedInterchange() const { return cfg.interchange == "enumerated"; }
  unsigned numHeads() const { return 2 + 2 * cfg.maxLoops; }

private:
  Result<Observation> startEpisode(const BenchmarkRef &benchmark,
                                   uint64_t seed);
  struct Episode;

  Observation observe() const;
  std::vector<std::vector<uint8_t>> masks() const;
  void advanceOp();
  StepResult finishStep(double reward, bool terminated, Info info);
  double measureReward(Info &info);

  EnvConfig cfg;
  std::vector<const Transformation *> types;
  Spaces envSpaces;
  std::unique_ptr<Episode> episode;
};

} // namespace rlopt::linalg

#endif
