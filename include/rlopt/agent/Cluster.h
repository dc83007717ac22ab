#ifndef RLOPT_AGENT_CLUSTER_H
#define RLOPT_AGENT_CLUSTER_H

#include "rlopt/core/Result.h"

#include <string>

namespace rlopt::agent {

/// The processes of a training run that mpirun or srun launched: rank 0
/// learns and writes the run directory, the other ranks roll out episodes
/// with their own environment processes. Outside MPI it is one process,
/// rank 0 of 1, and MPI is never initialized.
class Cluster {
public:
  /// Messages between the learner and the rollout ranks.
  enum Tag : int { Work = 1, Episodes = 2 };

  /// The cluster of this process, as the launcher's environment describes
  /// it. MPI starts at the first message.
  static Cluster &get();

  int rank() const { return myRank; }
  int size() const { return worldSize; }
  bool learner() const { return myRank == 0; }
  bool distributed() const { return worldSize > 1; }
  /// "2 rollout ranks", "1 rollout rank".
  std::string rolloutRanksText() const {
    int n = worldSize - 1;
    return std::to_string(n) + (n == 1 ? " rollout rank" : " rollout ranks");
  }

  /// Sends `bytes`; an Error naming the rank when it takes nothing within
  /// `timeoutSeconds`.
  Status send(int to, Tag tag, const std::string &bytes, double timeoutSeconds);
  /// The next message from rank `from` with `tag`; an Error naming the rank
  /// when none arrives within `timeoutSeconds` (infinity: no deadline), so
  /// a rank that hangs stops the run instead of stalling it.
  Result<std::string> receive(int from, Tag tag, double timeoutSeconds);

  /// Ends this process's part in the run with `exitCode`, which it
  /// returns. A failure in a distributed run aborts every rank (through the
  /// launcher), since MPI_Finalize would wait for ranks that may hang.
  int finish(int exitCode);

  ~Cluster();
  Cluster(const Cluster &) = delete;
  Cluster &operator=(const Cluster &) = delete;

private:
  Cluster();
  Status join();
  int myRank = 0, worldSize = 1;
  bool joined = false;
};

} // namespace rlopt::agent

#endif
