// rlopt measure FILE [--schedule S | --heuristic | --transform T] [--threads N]
//               [--json] [--db PATH] [--as-written]
#include "Args.h"
#include "Commands.h"

#include "rlopt/core/File.h"
#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Heuristic.h"
#include "rlopt/linalg/Measurement.h"

#include <cstdio>
#include <iostream>

namespace rlopt::tool {

int runMeasure(int argc, char **argv) {
  Args args({"schedule", "transform", "threads", "db", "seed", "timeout",
             "repetitions"},
            {"json", "no-cache", "heuristic", "as-written"});
  if (auto error = args.parse(argc, argv, 2))
    return fail("measure: " + *error);
  if (args.positional().size() != 1)
    return fail("measure: expected one FILE");

  linalg::MeasureOptions options;
  std::string error;
  options.threads = args.getInt("threads", 1, 1, 1024, error);
  options.seed = args.getInt("seed", 0, 0, 1l << 40, error);
  options.limits.timeoutSeconds = args.getInt("timeout", 120, 1, 86400, error);
  options.timing.repetitions = args.getInt("repetitions", 7, 1, 1000, error);
  if (!error.empty())
    return fail("measure: " + error);

  if (args.has("heuristic") + args.has("schedule") + args.has("transform") > 1)
    return fail("measure: --heuristic, --schedule and --transform exclude "
                "each other");
  auto schedule = linalg::parseSchedule(args.get("schedule"));
  if (!schedule)
    return fail(schedule.error().message);

  // A hand-written transform script is timed as it is, uncached.
  std::string transformScript;
  if (args.has("transform")) {
    auto text = readRegularFile(args.get("transform"));
    if (!text)
      return fail("measure: --transform: " + text.error().message);
    transformScript = *text;
  }

  std::unique_ptr<measure::Cache> cache;
  if (!args.has("no-cache") && !args.has("transform")) {
    auto opened = args.has("db") ? measure::Cache::open(args.get("db"))
                                 : measure::Cache::openOrDefault("");
    if (!opened)
      return fail(opened.error().message);
    cache = std::move(*opened);
  }

  auto context = linalg::createContext();
  // A hand-written script names the ops as the file writes them.
  linalg::LoadOptions load;
  load.pointwiseConvolutionsAsMatmuls =
      !args.has("transform") && !args.has("as-written");
  auto program = linalg::loadProgram(*context, args.positional()[0], load);
  if (!program)
    return fail(program.error().message);
  if (args.has("heuristic")) {
    linalg::HeuristicOptions heuristic;
    heuristic.threads = options.threads;
    heuristic.limits = options.transformLimits;
    *schedule = linalg::heuristicSchedule(*program, heuristic);
  }
  // Validate the schedule here so that its errors are usage errors.
  auto script = linalg::buildTransformScript(*program, *schedule,
                                             options.transformLimits);
  if (!script)
    return fail(program->path + ": " + script.error().message);

  auto result =
      args.has("transform")
          ? linalg::measureTransformScript(*program, transformScript, options)
          : linalg::measureSchedule(*program, *schedule, options, cache.get());
  if (!result)
    return fail(program->path + ": " + result.error().message, ExitFailure);
  const linalg::Measurement &m = *result;
  if (args.has("json")) {
    nlohmann::json json = m.toJson();
    if (!args.has("transform"))
      json["schedule"] = schedule->str();
    std::cout << json.dump(2) << "\n";
  } else {
    if (args.has("transform"))
      std::printf("transform  %s\n", args.get("transform").c_str());
    else
      std::printf("schedule   %s\n", schedule->str().c_str());
    std::printf("baseline   %10.3f ms  (spread %.1f%%)\n", m.baselineMs,
                100 * m.baselineSpread);
    std::printf("candidate  %10.3f ms  (spread %.1f%%)\n", m.candidateMs,
                100 * m.candidateSpread);
    std::printf("speedup    %10.2fx\n", m.speedup);
    std::printf("correct    %10s  (max abs error %.3g)\n",
                m.correct ? "yes" : "NO", m.maxAbsError);
    std::printf("cached     %10s\n", m.cached ? "yes" : "no");
  }
  return m.correct ? ExitOk : ExitFailure;
}

} // namespace rlopt::tool
