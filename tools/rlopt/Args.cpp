#include "Args.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace rlopt::tool {

std::optional<std::string> Args::parse(int argc, char **argv, int first) {
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-o")
      arg = "--output";
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      positionals.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2), value;
    bool inlineValue = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inlineValue = true;
    }
    bool takesValue =
        std::count(valueOptions.begin(), valueOptions.end(), name);
    bool isFlag = std::count(flags.begin(), flags.end(), name);
    if (!takesValue && !isFlag)
      return "unknown option --" + name;
    if (isFlag) {
      if (inlineValue)
        return "option --" + name + " takes no value";
      values[name] = "1";
      continue;
    }
    if (!inlineValue) {
      if (i + 1 >= argc)
        return "option --" + name + " needs a value";
      value = argv[++i];
    }
    values[name] = value;
  }
  return std::nullopt;
}

std::string Args::get(const std::string &name,
                      const std::string &fallback) const {
  auto it = values.find(name);
  return it == values.end() ? fallback : it->second;
}

long Args::getInt(const std::string &name, long fallback, long min, long max,
                  std::string &error) const {
  if (!has(name))
    return fallback;
  std::string text = get(name);
  char *end = nullptr;
  errno = 0;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < min ||
      value > max) {
    error = "--" + name + " expects an integer in [" + std::to_string(min) +
            ", " + std::to_string(max) + "], got '" + text + "'";
    return fallback;
  }
  return value;
}

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ','))
    if (!item.empty())
      items.push_back(item);
  return items;
}

int fail(const std::string &message, int code) {
  std::cerr << "rlopt: " << message << "\n";
  return code;
}

} // namespace rlopt::tool
