// Shared helpers for the graph tests: where the bundled HLO graphs and the
// hand-written fixtures live, and parsing that fails the test on error.
#ifndef RLOPT_TESTS_GRAPH_GRAPHTESTUTIL_H
#define RLOPT_TESTS_GRAPH_GRAPHTESTUTIL_H

#include "rlopt/graph/Parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rlopt::graph::testing {

/// The real graphs bundled in data/hlo.
inline std::filesystem::path bundledGraphs() {
  return std::filesystem::path(RLOPT_TEST_DATA "/../../data/hlo");
}

/// Hand-written fixtures in tests/data/hlo.
inline std::string fixture(const std::string &name) {
  return std::string(RLOPT_TEST_DATA) + "/hlo/" + name;
}

inline std::string readText(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Parses `text`, failing the calling test with the parse error.
inline Module parseOk(const std::string &text) {
  auto module = parseModule(text, "test");
  EXPECT_TRUE(module.ok()) << module.error().message;
  return module ? module.takeValue() : Module();
}

} // namespace rlopt::graph::testing

#endif
