#include "Commands.h"
#include "Args.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

namespace rlopt::tool {

namespace {

struct CommandGroup;

/// One verb: how it is called, what it does, and what runs it (a handler,
/// or a group of verbs of its own).
struct Command {
  const char *name;
  const char *synopsis; ///< the arguments after the name
  const char *summary;
  int (*run)(int, char **) = nullptr;
  const CommandGroup *group = nullptr;
};

/// Verbs that follow one word: `rlopt passes run`, `rlopt gen ops`.
struct CommandGroup {
  const char *name;    ///< "" for the top level
  const char *title;   ///< heading in `rlopt --help`
  const char *noun;    ///< what a verb is called in errors
  bool dropsGroupWord; ///< handlers run as if the group word were absent
  std::vector<Command> commands;
};

const CommandGroup kGen = {
    "gen",
    "Benchmark suites from real model shapes: rlopt gen <kind>",
    "suite kind",
    false,
    {{"ops",
      "--out DIR [--seed S] [--count N] [--scale small|full] "
      "[--shapes table|random]",
      "single-op suite", runGenOps},
     {"chains", "--out DIR [--seed S] [--count N] [--scale small|full]",
      "op-chain suite", runGenChains},
     {"nets", "--out DIR [--scale small|full]", "whole-network suite",
      runGenNets}}};

const CommandGroup kCostModel = {
    "costmodel",
    "Learned cost model of schedules: rlopt costmodel <command>",
    "command",
    false,
    {{"train",
      "--db DB --out MODEL [--threads N] [--objective ranking|regression]\n"
      "[--rounds N] [--folds K] [--seed S]",
      "fit the cost model to the measured schedules of a cache",
      runCostModelTrain},
     {"eval", "--db DB --model MODEL [--threads N] [--json]",
      "how well a model ranks the measured schedules of a cache",
      runCostModelEval}}};

// The Linalg verbs, run as `rlopt linalg VERB` or, as before, `rlopt VERB`.
const std::vector<Command> kLinalgCommands = {
    {"inspect", "FILE [--json]", "list ops and their features", runInspect},
    {"apply",
     "FILE (--schedule S | --heuristic [--threads N]) [-o OUT]\n"
     "[--emit-transform T] [--emit-schedule S] [--emit-program P]\n"
     "[--as-written]",
     "apply a schedule, write the IR", runApply},
    {"measure",
     "FILE [--schedule S | --heuristic | --transform T] [--threads N] "
     "[--json]\n"
     "[--db PATH] [--no-cache] [--seed N] [--timeout S] [--repetitions N]\n"
     "[--as-written]",
     "time a schedule (or a transform-dialect script) against the naive "
     "program",
     runMeasure},
    {"search",
     "FILE [--episodes N] [--seed S] [--config C] [--db PATH]\n"
     "[--threads N] [--json]",
     "random search over the schedules; keeps the best", runSearch},
    {"train",
     "--suite DIR[,DIR...] --out RUN [--config C] [--resume] [--workers N]\n"
     "[--iterations N]",
     "train the PPO policy", runTrain},
    {"optimize",
     "FILE [--policy P] [-o OUT] [--emit-schedule]\n"
     "[--emit-transform T] [--emit-program P]\n"
     "[--search N | --budget N [--cost-model M]]\n"
     "[--threads N] [--db PATH] [--seed S] [--json]",
     "schedule a program with a policy or the cost model's search",
     runOptimize},
    {"eval",
     "--suite DIR --agent "
     "naive|heuristic|random:N|search:N[:PATH]|policy:PATH\n"
     "--out DIR [--split S] [--threads T] [--baselines torch,onednn]\n"
     "[--config C] [--db PATH] [--seed S] [--cost-model M|none]",
     "evaluate an agent on a suite", runEval},
    {"costmodel", "train|eval ...", "learned cost model of schedules", nullptr,
     &kCostModel},
    {"gen", "ops|chains|nets --out DIR ...", "generate a benchmark suite",
     nullptr, &kGen}};

const CommandGroup kLinalg = {
    "linalg", "Linalg scheduling: rlopt linalg <command>, or the command alone",
    "command", true, kLinalgCommands};

const CommandGroup kPassesDataset = {
    "dataset",
    "Programs of your own: rlopt passes dataset <command>",
    "command",
    false,
    {{"install", "DIR [--name NAME] [--replace] [--quiet]",
      "build a directory of benchmark specs into a dataset",
      runPassesDatasetInstall},
     {"list", "[--json]", "installed datasets", runPassesDatasetList}}};

const CommandGroup kPasses = {
    "passes",
    "LLVM pass ordering: rlopt passes <command>",
    "command",
    false,
    {{"list", "[--json]", "actions, spaces and benchmarks", runPassesList},
     {"run",
      "URI [--passes P,P,...] [--pipeline TEXT] [--observation S,S]\n"
      "[--reward R] [--config C] [-o OUT.ll] [--validate]\n"
      "[--validation auto|run|replay] [--json]",
      "apply passes to a benchmark, print observations", runPassesRun},
     {"search",
      "URI... --agent greedy|random:N|random-time:SECONDS [--seed S]\n"
      "[--episode-length N] [--json]",
      "search pass sequences for benchmarks", runPassesSearch},
     {"eval",
      "(--suite SUITE[:SPLIT],... [--split train|test|all] | URI...)\n"
      "--agent Oz|O3|greedy|random:N|random-time:SECONDS|policy:PATH|\n"
      "guided:K:PATH|guided-time:SECONDS:PATH\n"
      "--out DIR [--episode-length N]\n"
      "[--validation auto|run|replay | --no-validate] [--json]",
      "evaluate an agent on benchmarks", runPassesEval},
     {"train",
      "--agent ppo|a2c|dqn|sac --out RUN [--config C] [--resume]\n"
      "[--suite SUITE[:SPLIT],...] [--split train] [--reward R]\n"
      "[--observation O] [--episode-length N] [--iterations N] [--seed S]",
      "train a pass-ordering agent", runPassesTrain},
     {"dataset", "<command> ...", "install programs of your own", nullptr,
      &kPassesDataset}}};

const CommandGroup kGraph = {
    "graph",
    "HLO graph pass ordering: rlopt graph <command>",
    "command",
    false,
    {{"inspect", "FILE [--json]", "op counts and FLOPs of an HLO module",
      runGraphInspect},
     {"list", "[--json]", "passes and bundled graphs", runGraphList},
     {"run",
      "FILE|URI [--passes P,P,...] [--default-pipeline] [-o OUT]\n"
      "[--validate [--argument-sets N]] [--reward R] [--observation O]\n"
      "[--env-config C] [--shaping] [--json]",
      "apply graph passes to a module", runGraphRun},
     {"eval",
      "--agent default|greedy|random:N|random-time:SECONDS|policy:PATH|\n"
      "guided:K:PATH|guided-time:SECONDS:PATH\n"
      "--out DIR [--split S] "
      "[--seed S] [--episode-length N] [--reward R]\n"
      "[--observation O] [--env-config C] [--shaping] [--json]",
      "evaluate an agent on the bundled graphs", runGraphEval},
     {"train",
      "--agent ppo|a2c|dqn|sac --out RUN [--config C] [--resume]\n"
      "[--split S] [--reward R] [--observation O]\n"
      "[--episode-length N] [--iterations N] [--seed S]\n"
      "[--env-config C] [--shaping]",
      "train a graph pass-ordering agent", runGraphTrain}}};

const CommandGroup kAnyEnvironment = {
    "",
    "Any environment",
    "command",
    false,
    {{"report", "DIR... -o OUT.html [--title T]",
      "HTML report of eval results and training runs", runReport},
     {"peak", "[--json]", "this machine's FP32 FMA peak", runPeak}}};

/// The top level: the three environments, the tools for any of them, and
/// the Linalg verbs under their old names.
CommandGroup topLevel() {
  CommandGroup top{"", "", "command", false, {}};
  top.commands = {
      {"linalg", "<command> ...", "Linalg scheduling", nullptr, &kLinalg},
      {"passes", "<command> ...", "LLVM pass ordering", nullptr, &kPasses},
      {"graph", "<command> ...", "HLO graph pass ordering", nullptr, &kGraph}};
  for (const CommandGroup *group : {&kLinalg, &kAnyEnvironment})
    top.commands.insert(top.commands.end(), group->commands.begin(),
                        group->commands.end());
  return top;
}

bool isHelpFlag(const std::string &word) {
  return word == "--help" || word == "-h";
}

/// Prints `prefix name synopsis`, the synopsis continued under the name,
/// then the summary.
void printCommand(std::ostream &out, const std::string &prefix,
                  const Command &command, const char *indent) {
  std::string head = prefix + command.name + " ";
  std::string synopsis = command.synopsis;
  std::string continuation =
      "\n" + std::string(indent) + std::string(head.size(), ' ');
  for (size_t at = 0; (at = synopsis.find('\n', at)) != std::string::npos;
       at += continuation.size())
    synopsis.replace(at, 1, continuation);
  out << indent << head << synopsis << "\n"
      << indent << "    " << command.summary << "\n";
}

void printGroup(std::ostream &out, const CommandGroup &group,
                const std::string &prefix) {
  out << group.title << "\n";
  for (const Command &command : group.commands)
    printCommand(out, prefix, command, "  ");
}

void printTopLevel(std::ostream &out) {
  out << "usage: rlopt <command> [options]  (rlopt help <command> for one)\n"
         "       rlopt --version\n\n";
  printGroup(out, kLinalg, "");
  out << "\n";
  printGroup(out, kGen, "gen ");
  out << "\n";
  printGroup(out, kCostModel, "costmodel ");
  out << "\n";
  printGroup(out, kPasses, "passes ");
  out << "\n";
  printGroup(out, kGraph, "graph ");
  out << "\n";
  printGroup(out, kAnyEnvironment, "");
}

std::string verbList(const CommandGroup &group) {
  std::string list;
  for (size_t i = 0; i < group.commands.size(); ++i)
    list += std::string(i == 0                           ? ""
                        : i + 1 == group.commands.size() ? " or "
                                                         : ", ") +
            group.commands[i].name;
  return list;
}

/// Dispatches argv[depth] among `group`'s verbs; `words` is the command
/// line so far ("rlopt passes").
int dispatch(const CommandGroup &group, int argc, char **argv, int depth,
             const std::string &words) {
  bool help = std::any_of(argv + std::min(depth, argc), argv + argc,
                          [](const char *arg) { return isHelpFlag(arg); });
  // "passes" for "rlopt passes": how errors and usage name the group.
  std::string label = words.size() > 6 ? words.substr(6) : "";
  if (depth >= argc || argv[depth][0] == '-') {
    if (help) {
      std::cout << "usage: " << words << " <" << group.noun << "> ...\n\n";
      printGroup(std::cout, group, label.empty() ? "" : label + " ");
      return ExitOk;
    }
    if (label.empty())
      return fail("unknown option '" + std::string(argv[depth]) +
                  "' (see rlopt --help)");
    return fail(label + ": expected a " + group.noun + " (" + verbList(group) +
                ")");
  }
  std::string name = argv[depth];
  auto command = std::find_if(group.commands.begin(), group.commands.end(),
                              [&](const Command &c) { return name == c.name; });
  if (command == group.commands.end() && label.empty())
    return fail("unknown command '" + name + "' (see rlopt --help)");
  if (command == group.commands.end())
    return fail(label + ": unknown " + group.noun + " '" + name +
                "' (expected " + verbList(group) + ")");
  int shift = group.dropsGroupWord ? 1 : 0;
  if (command->group)
    return dispatch(*command->group, argc - shift, argv + shift,
                    depth + 1 - shift, words + " " + name);
  if (help) {
    std::cout << "usage:\n";
    printCommand(std::cout, words + " ", *command, "  ");
    return ExitOk;
  }
  return command->run(argc - shift, argv + shift);
}

} // namespace

int runCommandLine(int argc, char **argv) {
  if (argc < 2) {
    printTopLevel(std::cerr);
    return ExitUsage;
  }
  std::string first = argv[1];
  if (isHelpFlag(first) || (first == "help" && argc == 2)) {
    printTopLevel(std::cout);
    return ExitOk;
  }
  if (first == "--version") {
    std::cout << "rlopt " << RLOPT_VERSION << "\n";
    return ExitOk;
  }
  static const CommandGroup top = topLevel();
  if (first == "help") {
    // `rlopt help passes run` is `rlopt passes run --help`.
    std::vector<char *> asked(argv, argv + argc);
    asked.erase(asked.begin() + 1);
    static char helpFlag[] = "--help";
    asked.push_back(helpFlag);
    return dispatch(top, static_cast<int>(asked.size()), asked.data(), 1,
                    "rlopt");
  }
  return dispatch(top, argc, argv, 1, "rlopt");
}

} // namespace rlopt::tool
