#include "PyEnv.h"

#include <pybind11_json/pybind11_json.hpp>

#include <chrono>
#include <string>

namespace rlopt::python {

py::array_t<float> toArray(std::vector<float> &&features) {
  auto *owned = new std::vector<float>(std::move(features));
  py::capsule owner(
      owned, [](void *p) { delete static_cast<std::vector<float> *>(p); });
  return py::array_t<float>({static_cast<py::ssize_t>(owned->size())},
                            owned->data(), owner);
}

namespace {

/// int8, the dtype gymnasium's `sample(mask=...)` asks for; the 0/1
/// bytes are the environment's own.
py::array_t<int8_t> maskArray(std::vector<uint8_t> &&mask) {
  auto *owned = new std::vector<uint8_t>(std::move(mask));
  py::capsule owner(
      owned, [](void *p) { delete static_cast<std::vector<uint8_t> *>(p); });
  return py::array_t<int8_t>({static_cast<py::ssize_t>(owned->size())},
                             reinterpret_cast<int8_t *>(owned->data()), owner);
}

int64_t indexOf(py::handle item) {
  PyObject *index = PyNumber_Index(item.ptr());
  if (!index)
    throw py::error_already_set();
  long long value = PyLong_AsLongLong(index);
  Py_DECREF(index);
  if (value == -1 && PyErr_Occurred())
    throw py::error_already_set();
  return value;
}

} // namespace

PyEnv::PyEnv(MadeEnv made)
    : kind(made.kind), env(std::move(made.env)),
      programs(std::move(made.benchmarks)) {}

PyEnv::PyEnv(EnvKind kind, std::unique_ptr<Env> env,
             std::vector<std::string> programs, bool running,
             std::shared_ptr<std::mutex> family)
    : kind(kind), env(std::move(env)), programs(std::move(programs)),
      running(running), family(std::move(family)) {}

template <typename Work> auto PyEnv::withoutGil(const char *what, Work &&work) {
  live();
  if (busy)
    throw PyFailure(std::string(id()) + ": " + what +
                    ": the environment is busy in another thread");
  busy = true;
  struct Idle {
    bool &busy;
    ~Idle() { busy = false; }
  } idle{busy};
  py::gil_scoped_release released;
  std::lock_guard<std::mutex> turn(*family);
  return work(*env);
}

void PyEnv::close() {
  if (busy)
    throw PyFailure(std::string(id()) +
                    ": close: the environment is busy in another thread");
  env.reset();
}

void PyEnv::fillDeclaredShape(Observation &obs) const {
  const Spaces &spaces = live().spaces();
  if (static_cast<int64_t>(obs.features.size()) != spaces.observation.size())
    obs.features.assign(spaces.observation.size(), 0.0f);
  const std::vector<int64_t> &nvec = spaces.action.nvec;
  if (obs.masks.size() != nvec.size()) {
    obs.masks.clear();
    for (int64_t n : nvec)
      obs.masks.emplace_back(n, 0);
  }
}

Env &PyEnv::live() const {
  if (!env)
    throw PyFailure(std::string(id()) + ": the environment is closed");
  return *env;
}

std::vector<int64_t> PyEnv::actionValues(py::handle action) const {
  std::vector<int64_t> values;
  if (PyLong_Check(action.ptr())) {
    values.push_back(indexOf(action));
  } else if (py::isinstance<py::array>(action)) {
    auto array = py::reinterpret_borrow<py::array>(action);
    char kind = array.dtype().kind();
    if (kind != 'i' && kind != 'u')
      throw py::value_error("action: expected integers, got an array of " +
                            std::string(py::str(array.dtype())));
    auto ints =
        py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(
            array);
    values.assign(ints.data(), ints.data() + ints.size());
  } else if (PySequence_Check(action.ptr())) {
    for (py::handle item : py::reinterpret_borrow<py::sequence>(action))
      values.push_back(indexOf(item));
  } else {
    values.push_back(indexOf(action));
  }

  const std::vector<int64_t> &nvec = live().spaces().action.nvec;
  if (values.size() != nvec.size())
    throw py::value_error("action: expected " + std::to_string(nvec.size()) +
                          " value(s), got " + std::to_string(values.size()));
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i] < 0 || values[i] >= nvec[i])
      throw py::value_error("action: value " + std::to_string(values[i]) +
                            " of head " + std::to_string(i) +
                            " is outside [0, " + std::to_string(nvec[i]) + ")");
  return values;
}

py::dict PyEnv::infoOf(const Info &info,
                       std::vector<std::vector<uint8_t>> &masks) {
  py::dict dict =
      info.is_object() ? py::dict(pyjson::from_json(info)) : py::dict();
  if (masks.size() == 1) {
    dict["action_mask"] = maskArray(std::move(masks[0]));
  } else {
    py::tuple heads(masks.size());
    for (size_t i = 0; i < masks.size(); ++i)
      heads[i] = maskArray(std::move(masks[i]));
    dict["action_mask"] = heads;
  }
  return dict;
}

py::tuple PyEnv::reset(const std::string &benchmark, uint64_t seed) {
  running = false;
  Result<Observation> started = withoutGil("reset", [&](Env &target) {
    return target.tryReset(BenchmarkRef{benchmark}, seed);
  });
  if (!started)
    throw PyFailure(started.error().message);
  running = true;
  fillDeclaredShape(*started);
  Info info = {{"benchmark", benchmark}};
  py::dict dict = infoOf(info, started->masks);
  return py::make_tuple(toArray(std::move(started->features)), dict);
}

py::tuple PyEnv::step(py::handle action) {
  live();
  if (!running)
    throw PyFailure(std::string(id()) + ": step outside an episode; call "
                                        "reset");
  Action chosen{actionValues(action)};
  StepResult result = withoutGil("step", [&](Env &target) {
    auto start = std::chrono::steady_clock::now();
    StepResult stepped = target.step(chosen);
    inStep +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    return stepped;
  });
  ++steps;
  running = !result.terminated && !result.truncated;
  fillDeclaredShape(result.obs);
  py::dict info = infoOf(result.info, result.obs.masks);
  return py::make_tuple(toArray(std::move(result.obs.features)), result.reward,
                        result.terminated, result.truncated, info);
}

PyEnv PyEnv::fork() {
  std::unique_ptr<Env> copy =
      withoutGil("fork", [](Env &target) { return target.fork(); });
  return PyEnv(kind, std::move(copy), programs, running, family);
}

py::dict PyEnv::validate() {
  Result<nlohmann::json> report = withoutGil(
      "validate", [&](Env &target) { return validateEpisode(kind, target); });
  if (!report)
    throw PyFailure(std::string(id()) + ": " + report.error().message);
  return pyjson::from_json(*report);
}

py::dict PyEnv::episode() const {
  return pyjson::from_json(describeEpisode(kind, live()));
}

std::vector<int64_t> PyEnv::observationShape() const {
  return live().spaces().observation.shape;
}
float PyEnv::observationLow() const { return live().spaces().observation.low; }
float PyEnv::observationHigh() const {
  return live().spaces().observation.high;
}
std::vector<int64_t> PyEnv::actionNvec() const {
  return live().spaces().action.nvec;
}
std::vector<std::string> PyEnv::actionNames() const {
  return live().spaces().action.names;
}

} // namespace rlopt::python
