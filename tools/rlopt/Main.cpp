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
} // namespace rlopt::tool

using namespace rlopt::tool;

static const char *kUsage =
    "usage: rlopt <command> [options]\n"
    "\n"
    "commands:\n"
    "  inspect FILE [--json]                 list ops and their features\n"
    "  apply FILE --schedule S [-o OUT] [--emit-transform T]\n"
    "                                        apply a schedule, write the IR\n"
    "  measure FILE [--schedule S] [--threads N] [--json] [--db PATH]\n"
    "                                        time a schedule against naive\n"
    "  search FILE [--episodes N] [--seed S] [--config C] [--json]\n"
    "                                        random search over the schedule\n"
    "                                        environment; keeps the best\n"
    "  peak [--json]                         this machine's FP32 FMA peak\n";

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
  if (command == "search")
    return runSearch(argc, argv);
  if (command == "peak")
    return runPeak(argc, argv);
  return fail("unknown command '" + command + "' (see rlopt --help)");
}
