// compareValues: the oracle's verdict on two interpreter results.
#include "rlopt/graph/Interpreter.h"

#include <cmath>
#include <cstdio>

namespace rlopt::graph {

namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

/// "{0,2}" for element 2 of tuple element 0; empty at the top.
std::string tuplePath(const std::vector<size_t> &path) {
  if (path.empty())
    return "";
  std::string text = "{";
  for (size_t i = 0; i < path.size(); ++i)
    text += (i ? "," : "") + std::to_string(path[i]);
  return text + "}";
}

/// "[1,3]": the multi-index of flat row-major `index` in `dims`.
std::string multiIndex(int64_t index, const std::vector<int64_t> &dims) {
  std::vector<int64_t> coordinates(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    int64_t size = std::max<int64_t>(dims[d], 1);
    coordinates[d] = index % size;
    index /= size;
  }
  std::string text = "[";
  for (size_t d = 0; d < coordinates.size(); ++d)
    text += (d ? "," : "") + std::to_string(coordinates[d]);
  return text + "]";
}

Status compareAt(const Value &expected, const Value &actual, double rtol,
                 double atol, std::vector<size_t> &path) {
  std::string where =
      path.empty() ? "" : " at tuple element " + tuplePath(path);
  if (!expected.shape.compatible(actual.shape))
    return makeError("compareValues: shape mismatch" + where + ": expected " +
                     expected.shape.toString(false) + ", got " +
                     actual.shape.toString(false));
  if (expected.shape.isTuple()) {
    if (expected.elements.size() != actual.elements.size())
      return makeError("compareValues: tuple sizes differ" + where);
    for (size_t i = 0; i < expected.elements.size(); ++i) {
      path.push_back(i);
      Status status =
          compareAt(expected.elements[i], actual.elements[i], rtol, atol, path);
      path.pop_back();
      if (!status)
        return status;
    }
    return Status::success();
  }
  if (expected.data.size() != actual.data.size())
    return makeError("compareValues: " + std::to_string(expected.data.size()) +
                     " values expected" + where + ", got " +
                     std::to_string(actual.data.size()));
  bool pairs = isComplex(expected.shape.type());
  for (size_t i = 0; i < expected.data.size(); ++i) {
    double a = expected.data[i], b = actual.data[i];
    if (a == b || (std::isnan(a) && std::isnan(b)))
      continue;
    // Infinities match only themselves; the tolerance would be infinite.
    double tolerance = std::isfinite(a) ? atol + rtol * std::fabs(a) : 0.0;
    if (std::isfinite(b) && std::fabs(a - b) <= tolerance)
      continue;
    int64_t element = static_cast<int64_t>(pairs ? i / 2 : i);
    std::string part = pairs ? (i % 2 ? " (imaginary)" : " (real)") : "";
    return makeError("compareValues: mismatch" + where + " at index " +
                     multiIndex(element, expected.shape.dims()) + part +
                     ": expected " + number(a) + ", got " + number(b) +
                     " (tolerance " + number(tolerance) + ")");
  }
  return Status::success();
}

} // namespace

Status compareValues(const Value &expected, const Value &actual, double rtol,
                     double atol) {
  std::vector<size_t> path;
  return compareAt(expected, actual, rtol, atol, path);
}

} // namespace rlopt::graph
