#ifndef RLOPT_TOOLS_ARGS_H
#define RLOPT_TOOLS_ARGS_H

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rlopt::tool {

/// Exit codes: 0 ok, 1 a measurement or compile failed, 2 bad input.
enum ExitCode { ExitOk = 0, ExitFailure = 1, ExitUsage = 2 };

/// `--name value`, `--name=value` and `--flag` options plus positionals.
/// Each subcommand declares which options take a value and which are flags.
class Args {
public:
  Args(std::vector<std::string> valueOptions, std::vector<std::string> flags)
      : valueOptions(std::move(valueOptions)), flags(std::move(flags)) {}

  /// Parses argv[first..]; on error returns a one-line message.
  std::optional<std::string> parse(int argc, char **argv, int first);

  bool has(const std::string &name) const { return values.count(name); }
  std::string get(const std::string &name,
                  const std::string &fallback = "") const;
  const std::vector<std::string> &positional() const { return positionals; }

  /// Parses option `name` as an integer in [min, max]; `error` is set on a
  /// bad value.
  long getInt(const std::string &name, long fallback, long min, long max,
              std::string &error) const;

private:
  std::vector<std::string> valueOptions, flags;
  std::map<std::string, std::string> values;
  std::vector<std::string> positionals;
};

/// The items of a comma-separated option value ("a,b,,c": a, b, c).
std::vector<std::string> splitList(const std::string &text);

/// Prints `rlopt: message` to stderr and returns `code`.
int fail(const std::string &message, int code = ExitUsage);

} // namespace rlopt::tool

#endif
