#include "ReplayBuffer.h"

#include "rlopt/agent/discrete/Network.h"

#include <stdexcept>

namespace rlopt::agent::discrete {

ReplayBuffer::ReplayBuffer(int64_t capacity, DiscreteShape shape,
                           int returnSteps, double gamma)
    : capacity(capacity), shape(shape), returnSteps(returnSteps), gamma(gamma) {
}

namespace {

/// Writes `row` as row `index` of the row-major `table`, appending while
/// the table is still growing.
template <typename T>
void putRow(std::vector<T> &table, int64_t index, const std::vector<T> &row) {
  size_t offset = index * row.size();
  if (offset == table.size())
    table.insert(table.end(), row.begin(), row.end());
  else
    std::copy(row.begin(), row.end(), table.begin() + offset);
}

template <typename T>
void gatherRows(const std::vector<T> &table, int64_t width,
                const std::vector<int64_t> &rows, T *out) {
  for (size_t i = 0; i < rows.size(); ++i)
    std::copy(table.begin() + rows[i] * width,
              table.begin() + (rows[i] + 1) * width, out + i * width);
}

} // namespace

void ReplayBuffer::add(const AgentState &state, int64_t action, double reward,
                       const LoopStep &step) {
  pending.push_back({state, action, reward});
  // The oldest pending step has its n rewards, or the episode is over and
  // every pending step has all the rewards it will get.
  while (!pending.empty() &&
         (step.ended || static_cast<int>(pending.size()) == returnSteps)) {
    double sum = 0, discount = 1;
    for (const Pending &later : pending) {
      sum += discount * later.reward;
      discount *= gamma;
    }
    store(pending.front(), sum, static_cast<int>(pending.size()), step);
    pending.pop_front();
  }
}

void ReplayBuffer::store(const Pending &first, double reward, int stepCount,
                         const LoopStep &step) {
  putRow(features, position, first.state.features);
  putRow(allowed, position, first.state.allowed);
  putRow(nextFeatures, position, step.next.features);
  putRow(nextAllowed, position, step.next.allowed);
  putRow(actions, position, {first.action});
  putRow(rewards, position, {static_cast<float>(reward)});
  putRow(terminated, position, {step.terminated ? 1.0f : 0.0f});
  putRow(steps, position, {static_cast<float>(stepCount)});
  position = (position + 1) % capacity;
  count = std::min(count + 1, capacity);
}

ReplayBuffer::Batch ReplayBuffer::sample(int64_t batchSize,
                                         std::mt19937_64 &rng) const {
  if (count == 0)
    throw std::logic_error("ReplayBuffer::sample on an empty buffer");
  std::vector<int64_t> rows(batchSize);
  for (int64_t &row : rows)
    row = rng() % count;
  int64_t d = shape.observationSize, a = shape.actionCount;
  Batch batch;
  batch.features = torch::empty({batchSize, d});
  batch.nextFeatures = torch::empty({batchSize, d});
  batch.allowed = torch::empty({batchSize, a}, torch::kUInt8);
  batch.nextAllowed = torch::empty({batchSize, a}, torch::kUInt8);
  batch.actions = torch::empty({batchSize}, torch::kInt64);
  batch.rewards = torch::empty({batchSize});
  torch::Tensor ended = torch::empty({batchSize});
  torch::Tensor stepCounts = torch::empty({batchSize});
  gatherRows(features, d, rows, batch.features.data_ptr<float>());
  gatherRows(nextFeatures, d, rows, batch.nextFeatures.data_ptr<float>());
  gatherRows(allowed, a, rows, batch.allowed.data_ptr<uint8_t>());
  gatherRows(nextAllowed, a, rows, batch.nextAllowed.data_ptr<uint8_t>());
  gatherRows(actions, 1, rows, batch.actions.data_ptr<int64_t>());
  gatherRows(rewards, 1, rows, batch.rewards.data_ptr<float>());
  gatherRows(terminated, 1, rows, ended.data_ptr<float>());
  gatherRows(steps, 1, rows, stepCounts.data_ptr<float>());
  batch.bootstrap = torch::pow(gamma, stepCounts) * (1 - ended);
  batch.allowed = batch.allowed.to(torch::kBool);
  batch.nextAllowed = batch.nextAllowed.to(torch::kBool);
  return batch;
}

CheckpointPart ReplayBuffer::checkpointPart() {
  return {[this](torch::serialize::OutputArchive &archive) { save(archive); },
          [this](torch::serialize::InputArchive &archive,
                 const std::string &where) { return load(archive, where); }};
}

void ReplayBuffer::save(torch::serialize::OutputArchive &archive) const {
  int64_t d = shape.observationSize, a = shape.actionCount;
  archive.write("replay.position", c10::IValue(position));
  archive.write("replay.count", c10::IValue(count));
  archive.write("replay.features", floatRows(features, d));
  archive.write("replay.next_features", floatRows(nextFeatures, d));
  archive.write("replay.allowed", byteRows(allowed, a));
  archive.write("replay.next_allowed", byteRows(nextAllowed, a));
  archive.write("replay.rewards", floatRows(rewards, 1));
  archive.write("replay.terminated", floatRows(terminated, 1));
  archive.write("replay.steps", floatRows(steps, 1));
  torch::Tensor storedActions = torch::empty({count}, torch::kInt64);
  std::copy(actions.begin(), actions.end(), storedActions.data_ptr<int64_t>());
  archive.write("replay.actions", storedActions);
}

namespace {

template <typename T>
bool readTable(torch::serialize::InputArchive &archive, const std::string &key,
               int64_t rows, int64_t width, std::vector<T> &out) {
  torch::Tensor t;
  if (!archive.try_read(key, t) || t.numel() != rows * width ||
      t.scalar_type() != c10::CppTypeToScalarType<T>::value)
    return false;
  t = t.contiguous();
  out.assign(t.data_ptr<T>(), t.data_ptr<T>() + t.numel());
  return true;
}

} // namespace

Status ReplayBuffer::load(torch::serialize::InputArchive &archive,
                          const std::string &where) {
  c10::IValue storedPosition, storedCount;
  if (!archive.try_read("replay.position", storedPosition) ||
      !archive.try_read("replay.count", storedCount))
    return makeError(where + ": the checkpoint has no replay buffer");
  int64_t n = storedCount.toInt();
  int64_t d = shape.observationSize, a = shape.actionCount;
  if (n > capacity || !readTable(archive, "replay.features", n, d, features) ||
      !readTable(archive, "replay.next_features", n, d, nextFeatures) ||
      !readTable(archive, "replay.allowed", n, a, allowed) ||
      !readTable(archive, "replay.next_allowed", n, a, nextAllowed) ||
      !readTable(archive, "replay.rewards", n, 1, rewards) ||
      !readTable(archive, "replay.terminated", n, 1, terminated) ||
      !readTable(archive, "replay.actions", n, 1, actions))
    return makeError(where + ": the checkpoint's replay buffer does not fit "
                             "this config");
  // Checkpoints written before n-step returns hold one-step transitions.
  if (!readTable(archive, "replay.steps", n, 1, steps))
    steps.assign(n, 1.0f);
  count = n;
  position = storedPosition.toInt();
  return Status::success();
}

} // namespace rlopt::agent::discrete
