#ifndef RLOPT_PYTHON_PYENV_H
#define RLOPT_PYTHON_PYENV_H

#include "EnvMaker.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <stdexcept>

namespace rlopt::python {

namespace py = pybind11;

/// An rlopt error raised into Python as `rlopt.Error`, with its one line.
struct PyFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One environment as the Python module sees it: observations become numpy
/// arrays that own the feature vector (no copy), info becomes a dict with
/// the action mask, and the GIL is released while the compiler works.
class PyEnv {
public:
  explicit PyEnv(MadeEnv made);

  /// Starts an episode on `benchmark`: (observation, info).
  py::tuple reset(const std::string &benchmark, uint64_t seed);
  /// (observation, reward, terminated, truncated, info). An action outside
  /// the action space is a ValueError; one the compiler refuses ends the
  /// episode with info["error"].
  py::tuple step(py::handle action);
  PyEnv fork();
  /// Refused while another thread is inside a call of this environment.
  void close();
  bool closed() const { return !env; }

  py::dict validate();
  py::dict episode() const;

  /// Seconds spent inside the environment's step() and the steps counted,
  /// since creation: what separates the binding's cost from the compiler's.
  double stepSeconds() const { return inStep; }
  int64_t stepCount() const { return steps; }

  const char *id() const { return envIdOf(kind); }
  const std::vector<std::string> &benchmarks() const { return programs; }
  std::vector<int64_t> observationShape() const;
  float observationLow() const;
  float observationHigh() const;
  std::vector<int64_t> actionNvec() const;
  std::vector<std::string> actionNames() const;

private:
  PyEnv(EnvKind kind, std::unique_ptr<Env> env,
        std::vector<std::string> programs, bool running,
        std::shared_ptr<std::mutex> family);
  Env &live() const;
  /// Runs `work` with the GIL released, so other Python threads go on while
  /// the compiler works. Another thread calling into this environment
  /// meanwhile is refused; an environment and its forks share state (the
  /// pass runner, the program cache), so their calls take turns.
  template <typename Work> auto withoutGil(const char *what, Work &&work);
  /// An observation of the declared shape and masks of the heads' sizes,
  /// also after a step that failed and observed nothing.
  void fillDeclaredShape(Observation &obs) const;
  std::vector<int64_t> actionValues(py::handle action) const;
  py::dict infoOf(const Info &info, std::vector<std::vector<uint8_t>> &masks);

  EnvKind kind;
  std::unique_ptr<Env> env;
  std::vector<std::string> programs;
  bool running = false;
  bool busy = false;
  std::shared_ptr<std::mutex> family = std::make_shared<std::mutex>();
  double inStep = 0;
  int64_t steps = 0;
};

/// The features as a float32 array that owns them.
py::array_t<float> toArray(std::vector<float> &&features);

} // namespace rlopt::python

#endif
