// rlopt apply FILE (--schedule S | --heuristic [--threads N]) [-o OUT]
//             [--emit-transform T] [--emit-schedule S] [--emit-program P]
//             [--as-written]
#include "Args.h"
#include "Commands.h"
#include "rlopt/core/File.h"

#include "rlopt/linalg/Apply.h"
#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Heuristic.h"

#include "llvm/Support/raw_ostream.h"

#include <iostream>

namespace rlopt::tool {

int runApply(int argc, char **argv) {
  Args args({"schedule", "output", "emit-transform", "emit-schedule",
             "emit-program", "threads"},
            {"heuristic", "as-written"});
  if (auto error = args.parse(argc, argv, 2))
    return fail("apply: " + *error);
  if (args.positional().size() != 1)
    return fail("apply: expected one FILE");
  if (!args.has("schedule") && !args.has("heuristic"))
    return fail("apply: --schedule is required (or --heuristic)");
  if (args.has("schedule") && args.has("heuristic"))
    return fail("apply: --schedule and --heuristic exclude each other");
  if (args.has("threads") && !args.has("heuristic"))
    return fail("apply: --threads sizes the heuristic's schedule; it needs "
                "--heuristic");
  std::string error;
  linalg::HeuristicOptions heuristic;
  heuristic.threads = args.getInt("threads", 1, 1, 1024, error);
  if (!error.empty())
    return fail("apply: " + error);
  auto schedule = linalg::parseSchedule(args.get("schedule"));
  if (!schedule)
    return fail(schedule.error().message);
  auto context = linalg::createContext();
  linalg::LoadOptions load;
  load.pointwiseConvolutionsAsMatmuls = !args.has("as-written");
  auto program = linalg::loadProgram(*context, args.positional()[0], load);
  if (!program)
    return fail(program.error().message);
  if (args.has("heuristic"))
    *schedule = linalg::heuristicSchedule(*program, heuristic);
  auto script = linalg::buildTransformScript(*program, *schedule);
  if (!script)
    return fail(program->path + ": " + script.error().message);
  mlir::OwningOpRef<mlir::ModuleOp> result = program->module.get().clone();
  if (Status s = linalg::applyTransformScript(*result, *script); !s)
    return fail(program->path + ": " + s.error().message, ExitFailure);

  std::string ir = linalg::printedModule(*result);
  if (args.has("emit-transform"))
    if (Status s = writeFileAtomically(args.get("emit-transform"), *script); !s)
      return fail(s.error().message);
  if (args.has("emit-program"))
    if (Status s = writeFileAtomically(args.get("emit-program"),
                                       linalg::printedModule(*program->module));
        !s)
      return fail(s.error().message);
  if (args.has("emit-schedule"))
    if (Status s = writeFileAtomically(args.get("emit-schedule"),
                                       schedule->str() + "\n");
        !s)
      return fail(s.error().message);
  if (args.has("output")) {
    if (Status s = writeFileAtomically(args.get("output"), ir); !s)
      return fail(s.error().message);
  } else {
    std::cout << ir;
  }
  return ExitOk;
}

} // namespace rlopt::tool
