// The text of a program under tests/data, for tests that run or rewrite it
// as text rather than load it.
#pragma once

#include "LinalgTestUtil.h"

#include <fstream>
#include <sstream>
#include <string>

namespace rlopt::linalg::testing {

inline std::string fixtureText(const std::string &name) {
  std::ifstream in(fixturePath(name));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace rlopt::linalg::testing
