// The rlopt command line: one table of verbs drives dispatch, usage and
// `--help` for every command and subcommand.
#ifndef RLOPT_TOOLS_COMMANDS_H
#define RLOPT_TOOLS_COMMANDS_H

namespace rlopt::tool {

/// Runs `rlopt argv[1..]`; returns the exit code.
int runCommandLine(int argc, char **argv);

// Handlers, one file each. A handler reads its options after its verb:
// from argv[2] for top-level verbs, argv[3] for `passes`, `graph`, `gen` and
// `costmodel`.
int runInspect(int argc, char **argv);
int runApply(int argc, char **argv);
int runMeasure(int argc, char **argv);
int runSearch(int argc, char **argv);
int runTrain(int argc, char **argv);
int runOptimize(int argc, char **argv);
int runEval(int argc, char **argv);
int runGenOps(int argc, char **argv);
int runGenChains(int argc, char **argv);
int runGenNets(int argc, char **argv);
int runReport(int argc, char **argv);
int runPeak(int argc, char **argv);
int runCostModelTrain(int argc, char **argv);
int runCostModelEval(int argc, char **argv);
int runPassesList(int argc, char **argv);
int runPassesRun(int argc, char **argv);
int runPassesSearch(int argc, char **argv);
int runPassesEval(int argc, char **argv);
int runPassesTrain(int argc, char **argv);
int runPassesDatasetInstall(int argc, char **argv);
int runPassesDatasetList(int argc, char **argv);
int runGraphInspect(int argc, char **argv);
int runGraphList(int argc, char **argv);
int runGraphRun(int argc, char **argv);
int runGraphEval(int argc, char **argv);
int runGraphTrain(int argc, char **argv);

} // namespace rlopt::tool

#endif
