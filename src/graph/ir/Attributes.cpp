#include "rlopt/graph/Attributes.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace rlopt::graph {

namespace {

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

bool parseInt(std::string_view text, int64_t &out) {
  if (text.empty())
    return false;
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size();
}

std::string_view trim(std::string_view text) {
  while (!text.empty() &&
         std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t next = text.find(separator, start);
    parts.push_back(text.substr(start, next == std::string_view::npos
                                           ? std::string_view::npos
                                           : next - start));
    if (next == std::string_view::npos)
      return parts;
    start = next + 1;
  }
}

// `1x2x3` -> {1, 2, 3}; `what` names the window field for errors.
Result<std::vector<int64_t>> parseTimesList(std::string_view text,
                                            std::string_view what) {
  std::vector<int64_t> values;
  for (std::string_view part : split(text, 'x')) {
    int64_t value;
    if (!parseInt(part, value))
      return makeError("bad " + std::string(what) + " " + quoted(text));
    values.push_back(value);
  }
  return values;
}

} // namespace

bool isComputationAttribute(std::string_view key) {
  static constexpr std::array<std::string_view, 10> kKeys = {
      "to_apply",
      "calls",
      "condition",
      "body",
      "branch_computations",
      "true_computation",
      "false_computation",
      "select",
      "scatter",
      "called_computations"};
  return std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end();
}

std::string_view comparisonDirectionName(ComparisonDirection direction) {
  switch (direction) {
  case ComparisonDirection::Eq:
    return "EQ";
  case ComparisonDirection::Ne:
    return "NE";
  case ComparisonDirection::Ge:
    return "GE";
  case ComparisonDirection::Gt:
    return "GT";
  case ComparisonDirection::Le:
    return "LE";
  case ComparisonDirection::Lt:
    return "LT";
  }
  return "?";
}

Result<ComparisonDirection> parseComparisonDirection(std::string_view text) {
  for (auto direction : {ComparisonDirection::Eq, ComparisonDirection::Ne,
                         ComparisonDirection::Ge, ComparisonDirection::Gt,
                         ComparisonDirection::Le, ComparisonDirection::Lt})
    if (comparisonDirectionName(direction) == text)
      return direction;
  return makeError("unknown comparison direction " + quoted(text) +
                   " (expected EQ, NE, GE, GT, LE or LT)");
}

Result<std::vector<int64_t>> parseIntList(std::string_view text) {
  std::string_view inner = trim(text);
  if (inner.size() < 2 || inner.front() != '{' || inner.back() != '}')
    return makeError("expected a list like {0,1}, got " + quoted(text));
  inner = trim(inner.substr(1, inner.size() - 2));
  std::vector<int64_t> values;
  if (inner.empty())
    return values;
  for (std::string_view part : split(inner, ',')) {
    int64_t value;
    if (!parseInt(trim(part), value))
      return makeError("expected integers in " + quoted(text));
    values.push_back(value);
  }
  return values;
}

Result<std::vector<SliceDim>> parseSlice(std::string_view text) {
  std::string_view inner = trim(text);
  if (inner.size() < 2 || inner.front() != '{' || inner.back() != '}')
    return makeError("expected a slice like {[0:2], [1:3]}, got " +
                     quoted(text));
  inner = trim(inner.substr(1, inner.size() - 2));
  std::vector<SliceDim> dims;
  if (inner.empty())
    return dims;
  for (std::string_view part : split(inner, ',')) {
    part = trim(part);
    if (part.size() < 2 || part.front() != '[' || part.back() != ']')
      return makeError("bad slice dimension " + quoted(part));
    std::vector<std::string_view> bounds =
        split(part.substr(1, part.size() - 2), ':');
    SliceDim dim;
    if ((bounds.size() != 2 && bounds.size() != 3) ||
        !parseInt(bounds[0], dim.start) || !parseInt(bounds[1], dim.limit) ||
        (bounds.size() == 3 && !parseInt(bounds[2], dim.stride)))
      return makeError("bad slice dimension " + quoted(part));
    dims.push_back(dim);
  }
  return dims;
}

Result<std::vector<WindowDim>> parseWindow(std::string_view text) {
  std::string_view inner = trim(text);
  if (inner.size() < 2 || inner.front() != '{' || inner.back() != '}')
    return makeError("expected a window like {size=3x3}, got " + quoted(text));
  inner = trim(inner.substr(1, inner.size() - 2));
  std::vector<WindowDim> dims;
  if (inner.empty())
    return dims;
  size_t rank = 0;
  auto fitRank = [&](size_t count, std::string_view field) -> Status {
    if (rank == 0) {
      rank = count;
      dims.resize(rank);
    }
    if (count != rank)
      return makeError("window " + std::string(field) + " has " +
                       std::to_string(count) + " dimensions, expected " +
                       std::to_string(rank));
    return Status::success();
  };
  for (std::string_view field : split(inner, ' ')) {
    if (field.empty())
      continue;
    size_t eq = field.find('=');
    if (eq == std::string_view::npos)
      return makeError("bad window field " + quoted(field));
    std::string_view key = field.substr(0, eq), value = field.substr(eq + 1);
    if (key == "pad") {
      std::vector<std::string_view> pads = split(value, 'x');
      if (auto fits = fitRank(pads.size(), key); !fits)
        return fits.error();
      for (size_t i = 0; i < pads.size(); ++i) {
        std::vector<std::string_view> lowHigh = split(pads[i], '_');
        if (lowHigh.size() != 2 || !parseInt(lowHigh[0], dims[i].padLow) ||
            !parseInt(lowHigh[1], dims[i].padHigh))
          return makeError("bad window pad " + quoted(value));
      }
      continue;
    }
    if (key == "rhs_reversal") {
      auto flags = parseTimesList(value, key);
      if (!flags)
        return flags.error();
      if (auto fits = fitRank(flags->size(), key); !fits)
        return fits.error();
      for (size_t i = 0; i < flags->size(); ++i)
        dims[i].reversal = (*flags)[i] != 0;
      continue;
    }
    int64_t WindowDim::*member = nullptr;
    if (key == "size")
      member = &WindowDim::size;
    else if (key == "stride")
      member = &WindowDim::stride;
    else if (key == "lhs_dilate")
      member = &WindowDim::baseDilation;
    else if (key == "rhs_dilate")
      member = &WindowDim::windowDilation;
    else
      return makeError("unknown window field " + quoted(key));
    auto values = parseTimesList(value, key);
    if (!values)
      return values.error();
    if (auto fits = fitRank(values->size(), key); !fits)
      return fits.error();
    for (size_t i = 0; i < values->size(); ++i) {
      if ((*values)[i] < (member == &WindowDim::size ? 0 : 1))
        return makeError("window " + std::string(key) +
                         " must be positive in " + quoted(value));
      dims[i].*member = (*values)[i];
    }
  }
  return dims;
}

namespace {

// One side of dim_labels: letters for batch/feature, digits for spatial
// dimensions in order.
Status parseLabels(std::string_view labels, char first, char second,
                   int64_t &firstDim, int64_t &secondDim,
                   std::vector<int64_t> &spatial, std::string_view whole) {
  firstDim = secondDim = -1;
  std::vector<int64_t> bySpatialIndex(labels.size(), -1);
  size_t spatialCount = 0;
  for (size_t i = 0; i < labels.size(); ++i) {
    char c = labels[i];
    if (c == first && firstDim < 0) {
      firstDim = i;
    } else if (c == second && secondDim < 0) {
      secondDim = i;
    } else if (std::isdigit(static_cast<unsigned char>(c)) &&
               size_t(c - '0') < labels.size() && bySpatialIndex[c - '0'] < 0) {
      bySpatialIndex[c - '0'] = i;
      ++spatialCount;
    } else {
      return makeError("bad dim_labels " + quoted(whole));
    }
  }
  if (firstDim < 0 || secondDim < 0 || spatialCount + 2 != labels.size())
    return makeError("bad dim_labels " + quoted(whole));
  spatial.assign(bySpatialIndex.begin(), bySpatialIndex.begin() + spatialCount);
  if (std::count(spatial.begin(), spatial.end(), -1))
    return makeError("bad dim_labels " + quoted(whole));
  return Status::success();
}

} // namespace

Result<ConvDims> parseConvDims(std::string_view text) {
  size_t underscore = text.find('_'), arrow = text.find("->");
  if (underscore == std::string_view::npos || arrow == std::string_view::npos ||
      arrow < underscore)
    return makeError("expected dim_labels like b01f_01io->b01f, got " +
                     quoted(text));
  ConvDims dims;
  std::string_view input = text.substr(0, underscore);
  std::string_view kernel = text.substr(underscore + 1, arrow - underscore - 1);
  std::string_view output = text.substr(arrow + 2);
  if (auto ok = parseLabels(input, 'b', 'f', dims.inputBatch, dims.inputFeature,
                            dims.inputSpatial, text);
      !ok)
    return ok.error();
  if (auto ok = parseLabels(kernel, 'i', 'o', dims.kernelInputFeature,
                            dims.kernelOutputFeature, dims.kernelSpatial, text);
      !ok)
    return ok.error();
  if (auto ok = parseLabels(output, 'b', 'f', dims.outputBatch,
                            dims.outputFeature, dims.outputSpatial, text);
      !ok)
    return ok.error();
  if (dims.inputSpatial.size() != dims.kernelSpatial.size() ||
      dims.inputSpatial.size() != dims.outputSpatial.size())
    return makeError("dim_labels " + quoted(text) +
                     " disagree on the number of spatial dimensions");
  return dims;
}

Result<std::vector<PadDim>> parsePadding(std::string_view text) {
  std::vector<PadDim> dims;
  if (text.empty())
    return makeError("empty padding");
  for (std::string_view part : split(text, 'x')) {
    std::vector<std::string_view> values = split(part, '_');
    PadDim dim;
    if ((values.size() != 2 && values.size() != 3) ||
        !parseInt(values[0], dim.low) || !parseInt(values[1], dim.high) ||
        (values.size() == 3 && !parseInt(values[2], dim.interior)))
      return makeError("bad padding " + quoted(text) +
                       " (expected low_high[_interior] per dimension)");
    dims.push_back(dim);
  }
  return dims;
}

} // namespace rlopt::graph
