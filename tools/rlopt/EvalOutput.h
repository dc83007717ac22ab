#ifndef RLOPT_TOOLS_EVALOUTPUT_H
#define RLOPT_TOOLS_EVALOUTPUT_H

#include "Args.h"

#include "rlopt/core/Result.h"
#include "rlopt/eval/ResultTable.h"

#include <iostream>
#include <string>
#include <vector>

namespace rlopt::tool {

/// Ends a pass-ordering eval command (`rlopt passes eval|search`, `rlopt
/// graph eval`): writes the outcomes under --out with `write`, prints them
/// (the results document with --json, else `printTable()`), and exits 1 when
/// any outcome failed.
template <typename Outcome, typename Summary, typename PrintFn>
int finishEval(const Args &args, const std::string &agent,
               const std::vector<Outcome> &outcomes,
               Summary (*summarize)(const std::vector<Outcome> &),
               Status (*write)(const std::string &, const std::string &,
                               const std::vector<Outcome> &),
               PrintFn printTable) {
  if (args.has("out"))
    if (Status written = write(args.get("out"), agent, outcomes); !written)
      return fail(written.error().message, ExitFailure);
  if (args.has("json")) {
    nlohmann::json document =
        eval::resultsDocument(agent, summarize(outcomes), outcomes);
    std::cout << document.dump(2) << "\n";
  } else {
    printTable();
  }
  for (const auto &o : outcomes)
    if (!o.error.empty())
      return ExitFailure;
  return ExitOk;
}

} // namespace rlopt::tool

#endif
