// rlopt graph <subcommand>: the HLO graph tools. Each subcommand is a
// `int runGraphX(int argc, char **argv)`; argv[2] names it, its options
// start at argv[3]. Subcommands that grow (run, train, eval) live in their
// own files and join the table in runGraph.
#include "Args.h"
#include "Commands.h"

#include "rlopt/graph/CostAnalysis.h"
#include "rlopt/graph/OpCount.h"
#include "rlopt/graph/Parser.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

namespace rlopt::tool {

namespace {

constexpr int kFirstOption = 3;

// Counts are integers, however large; JSON keeps them as integers while
// they are exact in a double.
nlohmann::json countJson(double value) {
  if (std::fabs(value) < 9e15)
    return static_cast<int64_t>(value);
  return value;
}

std::string countText(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.0f", value);
  return buffer;
}

nlohmann::json opCountJson(const graph::OpCounts &entry,
                           const graph::OpCounts &module) {
  nlohmann::json rows = nlohmann::json::object();
  const auto &names = graph::opcodeVocabulary();
  for (size_t i = 0; i < graph::kNumOpcodes; ++i)
    if (module.perOpcode[i] != 0)
      rows[std::string(names[i])] = {{"entry", entry.perOpcode[i]},
                                     {"module", module.perOpcode[i]}};
  return rows;
}

} // namespace

// rlopt graph inspect FILE [--json]: structure, op counts and cost.
int runGraphInspect(int argc, char **argv) {
  Args args({}, {"json"});
  if (auto error = args.parse(argc, argv, kFirstOption))
    return fail("graph inspect: " + *error);
  if (args.positional().size() != 1)
    return fail("graph inspect: expected one FILE");
  const std::string &path = args.positional()[0];
  auto module = graph::parseModuleFile(path);
  if (!module)
    return fail(module.error().message);
  auto cost = graph::analyzeCost(*module);
  if (!cost)
    return fail(path + ": " + cost.error().message);
  graph::OpCounts entry = graph::countEntryOps(*module);
  graph::OpCounts all = graph::countModuleOps(*module);

  if (args.has("json")) {
    nlohmann::json computations = nlohmann::json::array();
    for (const auto &computation : module->computations())
      computations.push_back({{"name", computation->name()},
                              {"instructions", computation->instructionCount()},
                              {"entry", computation.get() == module->entry()}});
    std::cout
        << nlohmann::json{{"file", path},
                          {"module", module->name()},
                          {"entry", module->entry()->name()},
                          {"computations", computations},
                          {"instructions",
                           {{"entry", entry.total}, {"module", all.total}}},
                          {"op_count",
                           {{"entry", entry.total}, {"module", all.total}}},
                          {"flops", countJson(cost->flops)},
                          {"transcendentals", countJson(cost->transcendentals)},
                          {"unknown_cost_instructions",
                           cost->unknownCostInstructions},
                          {"opcodes", opCountJson(entry, all)}}
               .dump(2)
        << "\n";
    return ExitOk;
  }

  std::cout << path << ": module " << module->name() << ", "
            << module->computations().size() << " computations, entry "
            << module->entry()->name() << "\n";
  std::cout << "instructions: " << entry.total << " in the entry, " << all.total
            << " in the module\n";
  std::cout << "op count: " << all.total << " (module), " << entry.total
            << " (entry)\n";
  std::cout << "flops: " << countText(cost->flops)
            << "\ntranscendentals: " << countText(cost->transcendentals);
  if (cost->unknownCostInstructions > 0)
    std::cout << "\nunknown cost: " << cost->unknownCostInstructions
              << " custom-calls (flops are a lower bound)";
  std::cout << "\n\n";
  std::printf("%-28s %8s %8s\n", "opcode", "entry", "module");
  const auto &names = graph::opcodeVocabulary();
  for (size_t i = 0; i < graph::kNumOpcodes; ++i)
    if (all.perOpcode[i] != 0)
      std::printf("%-28s %8lld %8lld\n", std::string(names[i]).c_str(),
                  static_cast<long long>(entry.perOpcode[i]),
                  static_cast<long long>(all.perOpcode[i]));
  return ExitOk;
}

} // namespace rlopt::tool
