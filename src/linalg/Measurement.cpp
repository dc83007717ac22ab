#include "rlopt/linalg/Measurement.h"

#include "rlopt/core/Memory.h"
#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/Executor.h"
#include "rlopt/linalg/Lowering.h"
#include "rlopt/measure/MachineInfo.h"

#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

extern "C" void omp_set_num_threads(int);

namespace rlopt::linalg {

static nlohmann::json externalsJson(const std::vector<ExternalTiming> &all) {
  nlohmann::json list = nlohmann::json::array();
  for (const ExternalTiming &e : all)
    list.push_back({{"name", e.name},
                    {"ms", e.ms},
                    {"spread", e.spread},
                    {"correct", e.correct},
                    {"max_abs_error", e.maxAbsError},
                    {"error", e.error}});
  return list;
}

nlohmann::json Measurement::toJson() const {
  return {{"baseline_ms", baselineMs},
          {"candidate_ms", candidateMs},
          {"speedup", speedup},
          {"baseline_spread", baselineSpread},
          {"candidate_spread", candidateSpread},
          {"correct", correct},
          {"max_abs_error", maxAbsError},
          {"cached", cached},
          {"rounds", rounds},
          {"compile_ms", compileMs},
          {"program_hash", programHash},
          {"externals", externalsJson(externals)}};
}

namespace {

/// A number of `json`, or `otherwise` when absent. JSON has no NaN: a NaN
/// (e.g. the error of a NaN output) was written as null.
double numberOr(const nlohmann::json &json, const char *key, double otherwise) {
  auto it = json.find(key);
  if (it == json.end())
    return otherwise;
  return it->is_number() ? it->get<double>()
                         : std::numeric_limits<double>::quiet_NaN();
}

bool isNumberOrNull(const nlohmann::json &json, const char *key) {
  auto it = json.find(key);
  return it == json.end() || it->is_number() || it->is_null();
}

bool hasType(const nlohmann::json &json, const char *key,
             nlohmann::json::value_t type) {
  auto it = json.find(key);
  return it == json.end() || it->type() == type ||
         (type == nlohmann::json::value_t::number_integer &&
          it->is_number_integer());
}

/// What is wrong with a stored measurement, or empty when it is well-formed
/// and self-consistent.
std::string problemOf(const nlohmann::json &json) {
  using Type = nlohmann::json::value_t;
  if (!json.is_object())
    return "not an object";
  for (const char *key : {"baseline_ms", "candidate_ms", "speedup"}) {
    auto it = json.find(key);
    if (it == json.end() || !it->is_number() ||
        !std::isfinite(it->get<double>()) || it->get<double>() < 0)
      return std::string(key) + " is missing or not a non-negative number";
  }
  if (!json.contains("correct") || !json["correct"].is_boolean())
    return "correct is missing or not a boolean";
  for (const char *key :
       {"baseline_spread", "candidate_spread", "max_abs_error", "compile_ms"})
    if (!isNumberOrNull(json, key))
      return std::string(key) + " is not a number";
  if (!hasType(json, "rounds", Type::number_integer) ||
      !hasType(json, "program_hash", Type::string) ||
      !hasType(json, "cached", Type::boolean) ||
      !hasType(json, "externals", Type::array))
    return "a field has the wrong type";
  for (const nlohmann::json &e :
       json.value("externals", nlohmann::json::array()))
    if (!e.is_object() || !hasType(e, "name", Type::string) ||
        !hasType(e, "error", Type::string) ||
        !hasType(e, "correct", Type::boolean) || !isNumberOrNull(e, "ms") ||
        !isNumberOrNull(e, "spread") || !isNumberOrNull(e, "max_abs_error"))
      return "an external timing is malformed";
  // The speedup is derived from the times: a row whose numbers disagree was
  // not written by a measurement.
  double baseline = json["baseline_ms"], candidate = json["candidate_ms"];
  double speedup = json["speedup"];
  if (!json["correct"].get<bool>())
    return speedup == 0 ? "" : "a wrong candidate has a speedup";
  if (baseline <= 0 || candidate <= 0 ||
      std::abs(speedup - baseline / candidate) > 1e-6 * speedup)
    return "the speedup does not match the times";
  return "";
}

} // namespace

Measurement Measurement::fromJson(const nlohmann::json &json) {
  Measurement m;
  m.baselineMs = numberOr(json, "baseline_ms", 0);
  m.candidateMs = numberOr(json, "candidate_ms", 0);
  m.speedup = numberOr(json, "speedup", 0);
  m.baselineSpread = numberOr(json, "baseline_spread", 0);
  m.candidateSpread = numberOr(json, "candidate_spread", 0);
  m.correct = json.value("correct", false);
  m.maxAbsError = numberOr(json, "max_abs_error", 0);
  m.cached = json.value("cached", false);
  m.rounds = json.value("rounds", 0);
  m.compileMs = numberOr(json, "compile_ms", 0);
  m.programHash = json.value("program_hash", std::string());
  for (const nlohmann::json &e :
       json.value("externals", nlohmann::json::array()))
    m.externals.push_back({e.value("name", ""), e.value("error", ""),
                           numberOr(e, "ms", 0), numberOr(e, "spread", 0),
                           e.value("correct", false),
                           numberOr(e, "max_abs_error", 0)});
  return m;
}

Result<Measurement> Measurement::fromStoredJson(const nlohmann::json &json) {
  std::string problem = problemOf(json);
  if (!problem.empty())
    return makeError(problem);
  return fromJson(json);
}

static std::string hexHash(const std::string &text) {
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                (unsigned long long)llvm::xxh3_64bits(text));
  return hex;
}

static double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

namespace {

/// Everything the worker builds before it may run: both sides lowered.
struct LoweredPair {
  mlir::OwningOpRef<mlir::ModuleOp> baseline, candidate;
  LoweredEntry baselineEntry, candidateEntry;
  std::string hash;
};

} // namespace

/// Untimed calls of each side before each of its samples. A side's thread
/// pool sleeps while the single-threaded naive baseline runs; woken by its
/// first timed call, it made two-thread kernels time slower than one-thread
/// ones. Where a sample is one call (slow kernels), this doubles the
/// measurement's time.
static int warmCallsPerSample(const MeasureOptions &options) {
  return options.threads > 1 ? 1 : 0;
}

static Result<LoweredPair> lowerBoth(const Program &program,
                                     const std::string &script,
                                     const MeasureOptions &options) {
  LoweredPair pair;
  pair.baseline = program.module.get().clone();
  pair.candidate = program.module.get().clone();
  if (!script.empty()) {
    Status applied = applyTransformScript(*pair.candidate, script);
    if (!applied)
      return applied.error();
  }
  auto baselineEntry = lowerToLLVM(*pair.baseline);
  if (!baselineEntry)
    return makeError("baseline: " + baselineEntry.error().message);
  auto candidateEntry = lowerToLLVM(*pair.candidate);
  if (!candidateEntry)
    return makeError("candidate: " + candidateEntry.error().message);
  pair.baselineEntry = *baselineEntry;
  pair.candidateEntry = *candidateEntry;
  // The protocol tag changes whenever how a sample is taken changes, so
  // samples taken the old way are not answered from the cache.
  std::string key = printedModule(*pair.baseline) + "\n//candidate\n" +
                    printedModule(*pair.candidate) +
                    "\n//seed=" + std::to_string(options.seed) +
                    "\n//protocol=steady-heap";
  if (warmCallsPerSample(options) > 0)
    key += ",warm-pools";
  for (const ExternalBaseline &external : options.externals)
    key += "\n//external=" + external.name + " " + external.version;
  pair.hash = hexHash(key);
  return pair;
}

/// The worker's side: lower, report the hash, and run if asked to.
static int runWorker(WorkerChannel &channel, const Program &program,
                     const std::string &script, const MeasureOptions &options) {
  auto start = std::chrono::steady_clock::now();
  auto fail = [&](const std::string &message) {
    channel.send(nlohmann::json{{"error", message}}.dump());
    return 0;
  };
  auto pair = lowerBoth(program, script, options);
  if (!pair)
    return fail(pair.error().message);
  channel.send(nlohmann::json{{"hash", pair->hash}}.dump());
  auto go = channel.receive();
  if (!go || *go != "run")
    return 0;

  // A lowered kernel mallocs and frees its intermediate buffers on every
  // call; returned to the kernel, two 25 MB buffers cost ~200 ms of page
  // faults per call on a VM, against a 15 ms kernel. A real runtime reuses
  // its buffers: time the steady state, alike for both sides.
  keepFreedHeapMemory();

  std::string threads = std::to_string(options.threads);
  setenv("OMP_NUM_THREADS", threads.c_str(), 1);
  setenv("OMP_PROC_BIND", "close", 1);
  omp_set_num_threads(options.threads);

  Signature sig = signatureOf(program.entry());
  auto baseline = JitKernel::compile(*pair->baseline, sig);
  if (!baseline)
    return fail("baseline: " + baseline.error().message);
  auto candidate = JitKernel::compile(*pair->candidate, sig);
  if (!candidate)
    return fail("candidate: " + candidate.error().message);
  double compileMs = msSince(start);

  auto outOfMemory = [&](size_t bytes, const std::string &what) {
    return fail("out of memory allocating " + std::to_string(bytes >> 20) +
                " MiB for " + what + " (worker memory limit " +
                std::to_string(options.limits.memoryBytes >> 20) + " MiB)");
  };
  std::vector<std::unique_ptr<HostBuffer>> pristine;
  std::vector<const HostBuffer *> inputs;
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    pristine.push_back(std::make_unique<HostBuffer>(sig.inputs[i]));
    if (!pristine.back()->valid())
      return outOfMemory(sig.inputs[i].bytes(), "input " + std::to_string(i));
    pristine.back()->fillRandom(options.seed * 7919 + i);
    inputs.push_back(pristine.back().get());
  }
  // Each side gets its own copy of the inputs: a kernel may write into an
  // argument (destination-passing style), and the two sides may differ in
  // which results they write there.
  KernelCall calls[2] = {prepareCall(sig, pair->baselineEntry, inputs),
                         prepareCall(sig, pair->candidateEntry, inputs)};
  for (const KernelCall &call : calls)
    if (call.unallocatedBytes)
      return outOfMemory(call.unallocatedBytes, "a tensor");
  std::vector<HostBuffer *> args[2] = {calls[0].args, calls[1].args};
  std::vector<HostBuffer *> outputs[2] = {calls[0].results, calls[1].results};
  (*baseline)->run(args[0]);
  (*candidate)->run(args[1]);
  Comparison comparison =
      compareOutputs(outputs[0], outputs[1], options.rtol, options.atol);

  Measurement m;
  m.correct = comparison.match;
  m.maxAbsError = comparison.maxAbsError;
  m.compileMs = compileMs;
  m.programHash = pair->hash;
  std::vector<std::function<void()>> timedSides = {
      [&] { (*baseline)->run(args[0]); }, [&] { (*candidate)->run(args[1]); }};

  // External baselines: their own copies of the inputs and a buffer per
  // result, checked against the baseline's outputs, then timed in the same
  // interleaved rounds.
  bool half = false;
  for (const std::vector<TensorSpec> *specs : {&sig.inputs, &sig.outputs})
    for (const TensorSpec &spec : *specs)
      half |= spec.isHalf();
  std::vector<KernelCall> externalCalls;
  std::vector<size_t> externalSide;
  for (const ExternalBaseline &external : options.externals) {
    ExternalTiming timing;
    timing.name = external.name;
    KernelCall call = prepareCall(sig, LoweredEntry{}, inputs);
    auto raw = [](HostBuffer *buffer) {
      return RawTensor{buffer->data(), buffer->spec().shape,
                       buffer->spec().isF64()};
    };
    std::vector<RawTensor> in, out;
    for (size_t i = 0; i < sig.inputs.size(); ++i)
      in.push_back(raw(call.args[i]));
    for (HostBuffer *result : call.results)
      out.push_back(raw(result));
    auto prepared =
        call.unallocatedBytes
            ? Result<std::function<void()>>(makeError("out of memory"))
        : half ? Result<std::function<void()>>(makeError(
                     external.name + " baseline: f16 and bf16 are not covered"))
               : external.prepare(in, out);
    if (!prepared) {
      timing.error = prepared.error().message;
    } else {
      (*prepared)();
      Comparison check =
          compareOutputs(outputs[0], call.results, options.rtol, options.atol);
      timing.correct = check.match;
      timing.maxAbsError = check.maxAbsError;
      if (!check.match)
        timing.error = "outputs differ from the baseline's";
      else {
        externalSide.push_back(m.externals.size());
        timedSides.push_back(*prepared);
      }
    }
    m.externals.push_back(timing);
    externalCalls.push_back(std::move(call));
  }

  measure::TimingConfig timingConfig = options.timing;
  timingConfig.warmCallsPerSample = warmCallsPerSample(options);
  measure::MultiTiming timing =
      measure::timeInterleavedSides(timedSides, timingConfig);
  m.baselineMs = timing.sides[0].medianMs;
  m.candidateMs = timing.sides[1].medianMs;
  m.baselineSpread = timing.sides[0].spread;
  m.candidateSpread = timing.sides[1].spread;
  m.rounds = timing.rounds;
  m.speedup = m.correct && m.candidateMs > 0 ? m.baselineMs / m.candidateMs : 0;
  for (size_t e = 0; e < externalSide.size(); ++e) {
    m.externals[externalSide[e]].ms = timing.sides[2 + e].medianMs;
    m.externals[externalSide[e]].spread = timing.sides[2 + e].spread;
  }
  channel.send(m.toJson().dump());
  return 0;
}

static Result<nlohmann::json> parseReply(const Result<std::string> &reply) {
  if (!reply)
    return reply.error();
  auto json = nlohmann::json::parse(*reply, nullptr, false);
  if (json.is_discarded())
    return makeError("worker sent a malformed reply");
  if (json.contains("error"))
    return makeError(json["error"].get<std::string>());
  return json;
}

/// Measures `script` applied to the program; a cache row records
/// `scheduleText`, the schedule the script was built from.
static Result<Measurement> measureScript(const Program &program,
                                         const std::string &script,
                                         const std::string &scheduleText,
                                         const MeasureOptions &options,
                                         measure::Cache *cache) {
  auto worker = Worker::spawn(
      [&](WorkerChannel &channel) {
        return runWorker(channel, program, script, options);
      },
      options.limits);
  if (!worker)
    return worker.error();

  auto hello = parseReply(worker->receive());
  if (!hello)
    return hello.error();
  measure::CacheKey key{(*hello)["hash"].get<std::string>(),
                        measure::hostMachine().fingerprint(options.threads)};
  if (cache && !options.freshSample) {
    if (auto stored = cache->lookup(key)) {
      // Checked before the worker is let go: a row that fails is measured
      // again by this same worker.
      auto m = Measurement::fromStoredJson(
          nlohmann::json::parse(*stored, nullptr, false));
      if (m) {
        worker->send("stop");
        worker->finish();
        m->cached = true;
        return *m;
      }
      cache->reportRejectedRow(m.error().message);
    }
  }
  worker->send("run");
  auto reply = parseReply(worker->receive());
  worker->finish();
  if (!reply)
    return reply.error();
  Measurement m = Measurement::fromJson(*reply);
  if (cache) {
    // What was measured, so that a cost model can learn from the row.
    std::string source = printedModule(*program.module);
    std::string sourceHash = hexHash(source);
    (*reply)["schedule"] = scheduleText;
    (*reply)["source"] = sourceHash;
    Status stored = cache->storeSource(sourceHash, source);
    if (stored)
      stored = cache->store(key, reply->dump());
    if (!stored)
      return stored.error();
  }
  return m;
}

Result<Measurement> measureSchedule(const Program &program,
                                    const Schedule &schedule,
                                    const MeasureOptions &options,
                                    measure::Cache *cache) {
  std::string script;
  if (!schedule.empty()) {
    auto built =
        buildTransformScript(program, schedule, options.transformLimits);
    if (!built)
      return built.error();
    script = *built;
  }
  return measureScript(program, script, schedule.str(), options, cache);
}

Result<Measurement> measureTransformScript(const Program &program,
                                           const std::string &script,
                                           const MeasureOptions &options) {
  return measureScript(program, script, "", options, nullptr);
}

} // namespace rlopt::linalg
