// rlopt inspect FILE [--json]: the ops of a program and their features.
#include "Args.h"
#include "Commands.h"

#include "rlopt/linalg/Context.h"
#include "rlopt/linalg/Program.h"

#include <iostream>

namespace rlopt::tool {

int runInspect(int argc, char **argv) {
  Args args({}, {"json"});
  if (auto error = args.parse(argc, argv, 2))
    return fail("inspect: " + *error);
  if (args.positional().size() != 1)
    return fail("inspect: expected one FILE");
  auto context = linalg::createContext();
  auto program = linalg::loadProgram(*context, args.positional()[0]);
  if (!program)
    return fail(program.error().message);
  if (args.has("json")) {
    nlohmann::json ops = nlohmann::json::array();
    for (const linalg::OpInfo &op : program->ops)
      ops.push_back(linalg::toJson(op));
    std::cout << nlohmann::json{{"file", program->path},
                                {"function",
                                 program->entry().getSymName().str()},
                                {"ops", ops}}
                     .dump(2)
              << "\n";
    return ExitOk;
  }
  std::cout << program->path << ": @" << program->entry().getSymName().str()
            << ", " << program->ops.size() << " Linalg ops\n";
  for (const linalg::OpInfo &op : program->ops)
    std::cout << linalg::describe(op);
  return ExitOk;
}

} // namespace rlopt::tool
