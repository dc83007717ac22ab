// Runs a generated program in-process, naive (lowered without a schedule),
// on given inputs, for the tests that check what a program computes.
#ifndef RLOPT_TESTS_DATAGEN_RUNPROGRAMUTIL_H
#define RLOPT_TESTS_DATAGEN_RUNPROGRAMUTIL_H

#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Executor.h"
#include "rlopt/linalg/Lowering.h"
#include "rlopt/linalg/Program.h"

#include <cstring>
#include <memory>
#include <vector>

namespace rlopt::datagen::testing {

using Tensor = std::vector<float>; ///< row-major

inline mlir::MLIRContext &sharedContext() {
  static std::unique_ptr<mlir::MLIRContext> context = linalg::createContext();
  return *context;
}

/// The shapes of `mlir`'s arguments.
inline Result<std::vector<std::vector<int64_t>>>
argumentShapes(const std::string &mlir) {
  auto program = linalg::parseProgram(sharedContext(), mlir, "program.mlir");
  if (!program)
    return program.error();
  std::vector<std::vector<int64_t>> shapes;
  for (const linalg::TensorSpec &spec :
       linalg::signatureOf(program->entry()).inputs)
    shapes.push_back(spec.shape);
  return shapes;
}

/// Parses, lowers and JIT-compiles `mlir` once, runs it on each set of
/// inputs (one tensor per argument) and returns each run's results.
inline Result<std::vector<std::vector<Tensor>>>
runProgramOn(const std::string &mlir,
             const std::vector<std::vector<Tensor>> &inputSets,
             const linalg::LoadOptions &load = {}) {
  auto program =
      linalg::parseProgram(sharedContext(), mlir, "program.mlir", load);
  if (!program)
    return program.error();
  linalg::Signature sig = linalg::signatureOf(program->entry());
  auto lowered = linalg::lowerToLLVM(*program->module);
  if (!lowered)
    return lowered.error();
  auto kernel = linalg::JitKernel::compile(*program->module, sig);
  if (!kernel)
    return kernel.error();
  std::vector<std::vector<Tensor>> runs;
  for (const std::vector<Tensor> &inputs : inputSets) {
    if (sig.inputs.size() != inputs.size())
      return makeError("expected " + std::to_string(sig.inputs.size()) +
                       " inputs");
    std::vector<std::unique_ptr<linalg::HostBuffer>> given;
    std::vector<const linalg::HostBuffer *> inputBuffers;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (size_t(sig.inputs[i].numElements()) != inputs[i].size())
        return makeError("input " + std::to_string(i) + " has the wrong size");
      given.push_back(std::make_unique<linalg::HostBuffer>(sig.inputs[i]));
      std::memcpy(given.back()->data(), inputs[i].data(),
                  inputs[i].size() * sizeof(float));
      inputBuffers.push_back(given.back().get());
    }
    linalg::KernelCall call = linalg::prepareCall(sig, *lowered, inputBuffers);
    (*kernel)->run(call.args);
    std::vector<Tensor> results;
    for (const linalg::HostBuffer *result : call.results) {
      const float *p = static_cast<const float *>(result->data());
      results.emplace_back(p, p + result->spec().numElements());
    }
    runs.push_back(std::move(results));
  }
  return runs;
}

/// runProgramOn with one set of inputs.
inline Result<std::vector<Tensor>>
runProgram(const std::string &mlir, const std::vector<Tensor> &inputs,
           const linalg::LoadOptions &load = {}) {
  auto runs = runProgramOn(mlir, {inputs}, load);
  if (!runs)
    return runs.error();
  return (*runs)[0];
}

/// Values in [-1, 1) from a fixed-seed linear congruential generator.
inline Tensor randomTensor(size_t n, uint64_t seed) {
  Tensor t(n);
  uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (float &v : t) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    v = float(double(state >> 11) / double(1ull << 53) * 2 - 1);
  }
  return t;
}

} // namespace rlopt::datagen::testing

#endif
