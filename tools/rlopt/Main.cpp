// rlopt: thin front end; each subcommand lives in its own file.
#include "Args.h"

#include <cstring>
#include <iostream>
#include <string>

namespace rlopt::tool {
int runInspect(int argc, char **argv);
int runApply(int argc, char **argv);
int runMeasure(int argc, char **argv);
int runPeak(int argc, char **argv);
int runSearch(int argc, char **argv);
int runTrain(int argc, char **argv);
int runOptimize(int argc, char **argv);
int runEval(int argc, char **argv);
int runGen(int argc, char **argv);
int runReport(int argc, char **argv);
int runGraph(int argc, char **argv);
int runPasses(int argc, char **argv);
} // namespace rlopt::tool

using namespace rlopt::tool;

static const char *kUsage =
    "usage: rlopt <command> [options]\n"
    "\n"
    "commands:\n"
    "  inspect FILE [--json]                 list ops and their features\n"
    "  apply FILE --schedule S [-o OUT] [--emit-transform T]\n"
    "                                        apply a schedule, write the IR\n"
    "  measure FILE [--schedule S | --heuristic] [--threads N] [--json]\n"
    "          [--db PATH] [--no-cache] [--seed N] [--timeout S]\n"
    "                                        time a schedule against naive\n"
    "  search FILE [--episodes N] [--seed S] [--config C] [--json]\n"
    "                                        random search over the schedule\n"
    "                                        environment; keeps the best\n"
    "  train --suite DIR --out RUN [--config C] [--resume] [--workers N]\n"
    "                                        train the PPO policy\n"
    "  optimize FILE [--policy P] [-o OUT] [--emit-schedule]\n"
    "          [--emit-transform T] [--search N] [--json]\n"
    "                                        schedule a program with a policy\n"
    "  eval --suite DIR --agent naive|heuristic|random:N --out DIR\n"
    "       [--split S] [--threads T] [--baselines torch,onednn]\n"
    "                                        evaluate an agent on a suite\n"
    "  report DIR... -o OUT.html [--title T]\n"
    "                                        HTML report of eval results and\n"
    "                                        training runs\n"
    "  peak [--json]                         this machine's FP32 FMA peak\n"
    "  gen ops|chains --out DIR [--seed S] [--count N]\n"
    "          [--scale small|full]          generate the single-op or the\n"
    "                                        op-chain benchmark suite\n"
    "  gen nets --out DIR [--scale small|full]\n"
    "                                        generate the whole-network suite\n"
    "  passes list|run|search|eval|train    LLVM pass ordering (rlopt passes\n"
    "                                        --help)\n"
    "  graph inspect FILE [--json]           HLO module: op counts, FLOPs\n"
    "  graph list|run|eval|train             graph pass ordering over HLO\n";

int main(int argc, char **argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") ||
      !std::strcmp(argv[1], "-h")) {
    std::cout << kUsage;
    return argc < 2 ? ExitUsage : ExitOk;
  }
  std::string command = argv[1];
  if (command == "--version") {
    std::cout << "rlopt " << RLOPT_VERSION << "\n";
    return ExitOk;
  }
  if (command == "inspect")
    return runInspect(argc, argv);
  if (command == "apply")
    return runApply(argc, argv);
  if (command == "measure")
    return runMeasure(argc, argv);
  if (command == "train")
    return runTrain(argc, argv);
  if (command == "optimize")
    return runOptimize(argc, argv);
  if (command == "eval")
    return runEval(argc, argv);
  if (command == "search")
    return runSearch(argc, argv);
  if (command == "report")
    return runReport(argc, argv);
  if (command == "peak")
    return runPeak(argc, argv);
  if (command == "gen")
    return runGen(argc, argv);
  if (command == "graph")
    return runGraph(argc, argv);
  if (command == "passes")
    return runPasses(argc, argv);
  return fail("unknown command '" + command + "' (see rlopt --help)");
}
