#include "rlopt/agent/Cluster.h"

// The C API only: Open MPI's header otherwise pulls in its deprecated C++
// bindings, whose library rlopt does not link.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

namespace rlopt::agent {

namespace {

/// mpirun (Open MPI, PMIx) and srun set these in every rank's environment.
bool launchedByMpi() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (std::getenv(name))
      return true;
  return false;
}

} // namespace

Cluster &Cluster::get() {
  static Cluster cluster;
  return cluster;
}

Cluster::Cluster() {
  if (!launchedByMpi())
    return;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    joined = true;
  }
  // Errors come back as codes and become rlopt Errors, not aborts.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &myRank);
  MPI_Comm_size(MPI_COMM_WORLD, &worldSize);
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
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(timeoutSeconds);
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
    if (std::chrono::steady_clock::now() > deadline)
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
