#include "rlopt/agent/Cluster.h"

// The C API only: Open MPI's header otherwise pulls in its deprecated C++
// bindings, whose library rlopt does not link.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

namespace rlopt::agent {

namespace {

/// The first of `names` set in the environment, as a number; -1 if none.
int fromEnvironment(std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (const char *value = std::getenv(name))
      return std::atoi(value);
  return -1;
}

} // namespace

Cluster &Cluster::get() {
  static Cluster cluster;
  return cluster;
}

/// The launcher says which rank this is and how many there are (mpirun,
/// mpiexec, srun), so MPI itself starts only at the first message: after
/// the environment processes have been forked, as fork after MPI_Init is
/// unsafe on some interconnects.
Cluster::Cluster() {
  int rank = fromEnvironment({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"});
  if (rank < 0)
    return;
  int size = fromEnvironment(
      {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"});
  if (size < 1) {
    // A launcher that does not say the size: ask MPI now.
    join();
    return;
  }
  myRank = rank;
  worldSize = size;
}

Status Cluster::join() {
  if (joined)
    return Status::success();
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) !=
        MPI_SUCCESS)
      return makeError("cannot join the MPI job");
  }
  joined = true;
  // Errors come back as codes and become rlopt Errors, not aborts.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (worldSize > 1 && (rank != myRank || size != worldSize))
    return makeError("MPI says rank " + std::to_string(rank) + " of " +
                     std::to_string(size) + ", the launcher said " +
                     std::to_string(myRank) + " of " +
                     std::to_string(worldSize));
  myRank = rank;
  worldSize = size;
  return Status::success();
}

int Cluster::finish(int exitCode) {
  if (joined && exitCode != 0 && worldSize > 1)
    MPI_Abort(MPI_COMM_WORLD, exitCode);
  return exitCode;
}

Cluster::~Cluster() {
  if (joined) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
      MPI_Finalize();
  }
}

Status Cluster::send(int to, Tag tag, const std::string &bytes,
                     double timeoutSeconds) {
  if (Status joinedJob = join(); !joinedJob)
    return joinedJob;
  if (bytes.size() > static_cast<size_t>(INT32_MAX))
    return makeError("message to rank " + std::to_string(to) +
                     " is over 2 GiB");
  // Large messages wait for the receiver to take them, so a send to a rank
  // that hangs would hang too: it is started, then polled to a deadline.
  auto buffer = std::make_unique<std::string>(bytes);
  MPI_Request request;
  if (MPI_Isend(buffer->data(), static_cast<int>(buffer->size()), MPI_BYTE, to,
                tag, MPI_COMM_WORLD, &request) != MPI_SUCCESS)
    return makeError("cannot send to rank " + std::to_string(to));
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(timeoutSeconds);
  auto pause = std::chrono::microseconds(50);
  while (true) {
    int done = 0;
    if (MPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      return makeError("cannot send to rank " + std::to_string(to));
    if (done)
      return Status::success();
    if (std::chrono::steady_clock::now() > deadline)
      break;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(10000));
  }
  // MPI may still read the buffer: it stays allocated until the process
  // ends, which a lost rank brings about soon (finish aborts the run).
  static std::vector<std::unique_ptr<std::string>> unsent;
  unsent.push_back(std::move(buffer));
  return makeError("rank " + std::to_string(to) + " took nothing in " +
                   std::to_string(static_cast<long>(timeoutSeconds)) + " s");
}

Result<std::string> Cluster::receive(int from, Tag tag, double timeoutSeconds) {
  if (Status joinedJob = join(); !joinedJob)
    return joinedJob.error();
  bool bounded = std::isfinite(timeoutSeconds);
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(bounded ? timeoutSeconds : 0);
  MPI_Status status;
  // Polled rather than blocking, so that the wait has a deadline; the
  // interval grows to 10 ms, well below any rollout's length.
  auto pause = std::chrono::microseconds(50);
  while (true) {
    int ready = 0;
    if (MPI_Iprobe(from, tag, MPI_COMM_WORLD, &ready, &status) != MPI_SUCCESS)
      return makeError("cannot reach rank " + std::to_string(from));
    if (ready)
      break;
    if (bounded && std::chrono::steady_clock::now() > deadline)
      return makeError("rank " + std::to_string(from) + " sent nothing in " +
                       std::to_string(static_cast<long>(timeoutSeconds)) +
                       " s");
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(10000));
  }
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::string bytes(count, '\0');
  if (MPI_Recv(bytes.data(), count, MPI_BYTE, from, tag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE) != MPI_SUCCESS)
    return makeError("cannot receive from rank " + std::to_string(from));
  return bytes;
}

} // namespace rlopt::agent
