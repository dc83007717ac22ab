// rlopt report DIR... -o report.html [--title T]
#include "Args.h"
#include "Commands.h"
#include "rlopt/core/File.h"

#include "rlopt/eval/Report.h"

#include <iostream>

namespace rlopt::tool {

int runReport(int argc, char **argv) {
  Args args({"output", "title"}, {});
  if (auto error = args.parse(argc, argv, 2))
    return fail("report: " + *error);
  if (args.positional().empty())
    return fail("report: expected one or more directories (rlopt eval "
                "outputs or rlopt train runs); usage: rlopt report DIR... -o "
                "report.html [--title T]");
  if (!args.has("output") || args.get("output").empty())
    return fail("report: -o OUT.html is required");

  auto inputs = eval::loadReportInputs(args.positional());
  if (!inputs)
    return fail(inputs.error().message);
  eval::ReportOptions options;
  if (args.has("title"))
    options.title = args.get("title");
  auto gnuplot = eval::findGnuplot();
  if (!gnuplot)
    return fail(gnuplot.error().message);
  options.gnuplot = *gnuplot;

  auto report = eval::renderReport(*inputs, options);
  if (!report)
    return fail("report: " + report.error().message, ExitFailure);
  std::string output = args.get("output");
  if (Status s = writeFileAtomically(output, report->html); !s)
    return fail(s.error().message);
  std::cout << "report: " << output << " (" << report->charts << " charts, "
            << inputs->agents.size() << " evaluation(s), "
            << inputs->runs.size() << " training run(s))\n";
  return ExitOk;
}

} // namespace rlopt::tool
