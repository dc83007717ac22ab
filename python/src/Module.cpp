// The `rlopt._rlopt` extension: rlopt's environments for Python. The
// Gymnasium API on top (spaces, seeding, registration) is rlopt/env.py.

#include "PyEnv.h"

#include <pybind11/stl.h>
#include <pybind11_json/pybind11_json.hpp>

#include <dlfcn.h>

namespace py = pybind11;
using namespace rlopt::python;

namespace {

rlopt::python::EnvKind kindOf(const std::string &id) {
  auto kind = parseEnvId(id);
  if (!kind)
    throw PyFailure(kind.error().message);
  return *kind;
}

nlohmann::json optionsOf(const std::string &id, const py::dict &options) {
  try {
    return pyjson::to_json(options);
  } catch (const std::exception &) {
    throw PyFailure("rlopt.make('" + id +
                    "'): option values must be numbers, strings, booleans, "
                    "None, lists or dicts");
  }
}

/// Python loads extensions with RTLD_LOCAL, but the Linalg JIT resolves the
/// OpenMP and MLIR runtime symbols through the process's global scope, as it
/// does in the rlopt binary (-rdynamic). Both libraries are already loaded
/// as this module's dependencies; this only makes them global.
void exposeJitRuntime() {
  for (const char *library : {RLOPT_OMP_LIB, RLOPT_C_RUNNER_UTILS})
    dlopen(library, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

} // namespace

PYBIND11_MODULE(_rlopt, m) {
  m.doc() = "rlopt's compiler environments (Linalg schedules, LLVM pass "
            "ordering, HLO graph passes)";
  exposeJitRuntime();
  py::register_exception<PyFailure>(m, "Error", PyExc_RuntimeError);

  py::class_<PyEnv>(m, "Env")
      .def("reset", &PyEnv::reset, py::arg("benchmark"), py::arg("seed"))
      .def("step", &PyEnv::step, py::arg("action"))
      .def("fork", &PyEnv::fork)
      .def("close", &PyEnv::close)
      .def("validate", &PyEnv::validate)
      .def("episode", &PyEnv::episode)
      .def_property_readonly("closed", &PyEnv::closed)
      .def_property_readonly("step_seconds", &PyEnv::stepSeconds)
      .def_property_readonly("step_count", &PyEnv::stepCount)
      .def_property_readonly("id", &PyEnv::id)
      .def_property_readonly("benchmarks", &PyEnv::benchmarks)
      .def_property_readonly("observation_shape", &PyEnv::observationShape)
      .def_property_readonly("observation_low", &PyEnv::observationLow)
      .def_property_readonly("observation_high", &PyEnv::observationHigh)
      .def_property_readonly("action_nvec", &PyEnv::actionNvec)
      .def_property_readonly("action_names", &PyEnv::actionNames);

  m.def(
      "make",
      [](const std::string &id, const py::dict &options) {
        EnvKind kind = kindOf(id);
        auto made = makeEnv(kind, optionsOf(id, options));
        if (!made)
          throw PyFailure(made.error().message);
        return PyEnv(made.takeValue());
      },
      py::arg("id"), py::arg("options"));

  m.def(
      "benchmarks",
      [](const std::string &id, const std::string &suite,
         const std::string &split) {
        auto listed = listBenchmarks(kindOf(id), suite, split);
        if (!listed)
          throw PyFailure(listed.error().message);
        return listed.takeValue();
      },
      py::arg("id"), py::arg("suite") = "", py::arg("split") = "all");

  m.attr("__version__") = RLOPT_VERSION;
}
