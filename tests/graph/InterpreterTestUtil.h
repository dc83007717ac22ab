// Helpers for the interpreter tests: literal values and running a small
// hand-written module.
#ifndef RLOPT_TESTS_GRAPH_INTERPRETERTESTUTIL_H
#define RLOPT_TESTS_GRAPH_INTERPRETERTESTUTIL_H

#include "GraphTestUtil.h"

#include "rlopt/graph/Interpreter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rlopt::graph::testing {

inline Value arrayValue(ElementType type, std::vector<int64_t> dims,
                        std::vector<double> data) {
  Value value;
  value.shape = Shape::array(type, std::move(dims));
  value.data = std::move(data);
  return value;
}

inline Value f32(std::vector<int64_t> dims, std::vector<double> data) {
  return arrayValue(ElementType::F32, std::move(dims), std::move(data));
}

inline Value s32(std::vector<int64_t> dims, std::vector<double> data) {
  return arrayValue(ElementType::S32, std::move(dims), std::move(data));
}

inline Value u32(std::vector<int64_t> dims, std::vector<double> data) {
  return arrayValue(ElementType::U32, std::move(dims), std::move(data));
}

inline Value pred(std::vector<int64_t> dims, std::vector<double> data) {
  return arrayValue(ElementType::Pred, std::move(dims), std::move(data));
}

/// Evaluates the module in `text` on `arguments`, failing the test (and
/// returning an empty value) on an error.
inline Value run(const std::string &text, const std::vector<Value> &arguments,
                 const InterpreterOptions &options = {}) {
  Module module = parseOk(text);
  auto result = evaluate(module, arguments, options);
  EXPECT_TRUE(result.ok()) << result.error().message;
  return result ? result.takeValue() : Value();
}

/// The Error message of evaluating `text`, or "" when it succeeds.
inline std::string runError(const std::string &text,
                            const std::vector<Value> &arguments,
                            const InterpreterOptions &options = {}) {
  Module module = parseOk(text);
  auto result = evaluate(module, arguments, options);
  return result ? "" : result.error().message;
}

} // namespace rlopt::graph::testing

#endif
