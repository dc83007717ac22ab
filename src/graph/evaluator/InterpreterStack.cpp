// Stack room for the reference interpreter: evaluation recurses once per
// computation it is inside (calls, loop bodies, branches, reducers), about
// 1.5 KiB a level in a release build and several times that in a debug
// build, so modules that nest thousands deep need more than the 8 MiB a
// main thread has.
#include "InterpreterInternal.h"

#include "rlopt/graph/Computation.h"

#include <pthread.h>

#include <cstring>
#include <exception>
#include <unordered_map>

namespace rlopt::graph::interp {

int64_t nestingDepth(const Computation &entry) {
  // Iterative longest path over the call graph; a computation seen again
  // while active (a cycle) adds nothing here, the interpreter's depth count
  // stops it at run time.
  enum : int64_t { kActive = -1 };
  std::unordered_map<const Computation *, int64_t> depth;
  std::vector<std::pair<const Computation *, std::vector<const Computation *>>>
      stack;
  auto enter = [&](const Computation *computation) {
    depth[computation] = kActive;
    std::vector<const Computation *> callees;
    for (const auto &instruction : computation->instructions())
      for (const Computation *callee : instruction->calledComputations())
        if (callee)
          callees.push_back(callee);
    stack.emplace_back(computation, std::move(callees));
  };
  enter(&entry);
  while (!stack.empty()) {
    auto &[computation, callees] = stack.back();
    if (!callees.empty()) {
      const Computation *callee = callees.back();
      callees.pop_back();
      if (!depth.count(callee))
        enter(callee);
      continue;
    }
    int64_t deepest = 0;
    for (const auto &instruction : computation->instructions())
      for (const Computation *callee : instruction->calledComputations())
        if (callee)
          deepest = std::max(deepest, depth[callee]);
    depth[computation] = deepest + 1;
    stack.pop_back();
  }
  return depth[&entry];
}

Status runWithStack(size_t bytes, const std::function<void()> &work) {
  // Every thread has this much; below it a new thread would only cost time.
  constexpr size_t kAlwaysThere = size_t(1) << 20;
  if (bytes <= kAlwaysThere) {
    work();
    return Status::success();
  }
  struct Task {
    const std::function<void()> &work;
    std::string failure;
  } task{work, ""};
  auto body = [](void *argument) -> void * {
    Task &task = *static_cast<Task *>(argument);
    try {
      task.work();
    } catch (const std::exception &error) {
      task.failure = error.what();
    }
    return nullptr;
  };
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, bytes + kAlwaysThere);
  pthread_t thread;
  int started = pthread_create(&thread, &attributes, body, &task);
  pthread_attr_destroy(&attributes);
  if (started != 0)
    return makeError("evaluate: cannot start a thread with a " +
                     std::to_string(bytes >> 20) +
                     " MiB stack: " + std::strerror(started));
  pthread_join(thread, nullptr);
  if (!task.failure.empty())
    return makeError("evaluate: " + task.failure);
  return Status::success();
}

} // namespace rlopt::graph::interp
