#include "rlopt/agent/linalg/Rollout.h"

#include "rlopt/agent/linalg/Batch.h"

#include <chrono>

namespace rlopt::agent {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

nlohmann::json Trajectory::toJson() const {
  nlohmann::json masksJson = nlohmann::json::array();
  for (const auto &mask : masks)
    masksJson.push_back(
        nlohmann::json::binary(std::vector<uint8_t>(mask.begin(), mask.end())));
  return {{"program", program},
          {"schedule", schedule},
          {"observations", observations},
          {"masks", masksJson},
          {"actions", actions},
          {"log_probs", logProbs},
          {"values", values},
          {"rewards", rewards},
          {"speedup", speedup},
          {"failed", failed}};
}

Result<Trajectory> Trajectory::fromJson(const nlohmann::json &json) {
  Trajectory t;
  try {
    t.program = json.at("program").get<std::string>();
    t.schedule = json.at("schedule").get<std::string>();
    t.observations =
        json.at("observations").get<std::vector<std::vector<float>>>();
    for (const auto &mask : json.at("masks"))
      t.masks.push_back(mask.get_binary());
    t.actions = json.at("actions").get<std::vector<std::vector<int64_t>>>();
    t.logProbs = json.at("log_probs").get<std::vector<float>>();
    t.values = json.at("values").get<std::vector<float>>();
    t.rewards = json.at("rewards").get<std::vector<float>>();
    t.speedup = json.at("speedup").get<double>();
    t.failed = json.at("failed").get<bool>();
  } catch (const nlohmann::json::exception &e) {
    return makeError(std::string("malformed episode: ") + e.what());
  }
  size_t n = t.rewards.size();
  if (t.observations.size() != n || t.masks.size() != n ||
      t.actions.size() != n || t.logProbs.size() != n || t.values.size() != n)
    return makeError("malformed episode: its steps disagree in number");
  return t;
}

Result<RolloutResult> rollout(std::vector<EnvServer> &servers,
                              LinalgPolicy &policy,
                              const std::vector<std::string> &programs,
                              int episodes, std::mt19937_64 &rng, bool greedy,
                              bool sequential) {
  RolloutResult result;
  struct Slot {
    bool active = false;
    Observation obs;
    Trajectory trajectory;
  };
  std::vector<Slot> slots(servers.size());
  int started = 0;
  auto start = [&](size_t s) -> Status {
    const std::string &program = sequential
                                     ? programs[started % programs.size()]
                                     : programs[rng() % programs.size()];
    ++started;
    auto t0 = Clock::now();
    servers[s].sendReset({program}, rng());
    auto obs = servers[s].receiveReset();
    result.environmentSeconds += secondsSince(t0);
    if (!obs)
      return obs.error();
    slots[s] = Slot{true, std::move(*obs), Trajectory{}};
    slots[s].trajectory.program = program;
    return Status::success();
  };
  for (size_t s = 0; s < servers.size() && started < episodes; ++s)
    if (Status st = start(s); !st)
      return st.error();

  while (true) {
    std::vector<size_t> running;
    for (size_t s = 0; s < slots.size(); ++s)
      if (slots[s].active)
        running.push_back(s);
    if (running.empty())
      break;
    std::vector<const std::vector<float> *> obsRows;
    std::vector<std::vector<uint8_t>> masks;
    for (size_t s : running) {
      obsRows.push_back(&slots[s].obs.features);
      masks.push_back(flatMask(slots[s].obs));
    }
    std::vector<const std::vector<uint8_t> *> maskRows;
    for (const auto &m : masks)
      maskRows.push_back(&m);
    auto t0 = Clock::now();
    LinalgPolicy::Output out =
        policy.act(stackFloats(obsRows), stackBytes(maskRows), greedy);
    result.inferenceSeconds += secondsSince(t0);

    t0 = Clock::now();
    for (size_t i = 0; i < running.size(); ++i) {
      torch::Tensor row = out.actions[i].contiguous();
      std::vector<int64_t> action(row.data_ptr<int64_t>(),
                                  row.data_ptr<int64_t>() + row.numel());
      Trajectory &t = slots[running[i]].trajectory;
      t.observations.push_back(slots[running[i]].obs.features);
      t.masks.push_back(masks[i]);
      t.actions.push_back(action);
      t.logProbs.push_back(out.logProb[i].item<float>());
      t.values.push_back(out.value[i].item<float>());
      servers[running[i]].sendStep({action});
    }
    for (size_t i = 0; i < running.size(); ++i) {
      Slot &slot = slots[running[i]];
      auto step = servers[running[i]].receiveStep();
      if (!step)
        return step.error();
      slot.trajectory.rewards.push_back(step->reward);
      slot.obs = std::move(step->obs);
      if (step->info.contains("measurement"))
        result.compileSeconds +=
            step->info["measurement"].value("compile_ms", 0.0) / 1000;
      if (!step->terminated && !step->truncated)
        continue;
      Trajectory &t = slot.trajectory;
      t.failed = step->info.contains("error");
      t.schedule = step->info.value("schedule", "");
      if (!t.failed && step->info.contains("measurement"))
        t.speedup = step->info["measurement"].value("speedup", 0.0);
      result.trajectories.push_back(std::move(t));
      slot.active = false;
      if (started < episodes)
        if (Status st = start(running[i]); !st)
          return st.error();
    }
    result.environmentSeconds += secondsSince(t0);
  }
  return result;
}

} // namespace rlopt::agent
