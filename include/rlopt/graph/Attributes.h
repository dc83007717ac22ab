// Typed forms of the HLO attributes that analyses read. Every attribute is
// also kept as written (Instruction::attributes()), so printing reproduces
// the input; these are views interpreted from that text.
#ifndef RLOPT_GRAPH_ATTRIBUTES_H
#define RLOPT_GRAPH_ATTRIBUTES_H

#include "rlopt/core/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlopt::graph {

class Computation;

/// One `key=value` attribute as written. Attributes that name computations
/// (`to_apply`, `calls`, `condition`, `body`, `branch_computations`, ...)
/// hold the computations instead, so renaming a computation renames every
/// reference when printed.
struct Attribute {
  std::string key;
  std::string value;
  std::vector<Computation *> computations;
  /// `{%a, %b}` rather than `%a`.
  bool braced = false;

  bool namesComputations() const { return !computations.empty(); }
};

/// True for the keys whose value is a computation or a list of them.
bool isComputationAttribute(std::string_view key);

/// `slice={[start:limit:stride], ...}`, one entry per dimension.
struct SliceDim {
  int64_t start = 0, limit = 0, stride = 1;
};

/// One dimension of `window={size=3x3 stride=2x2 pad=0_1x0_1 ...}`.
struct WindowDim {
  int64_t size = 1, stride = 1;
  int64_t padLow = 0, padHigh = 0;
  int64_t baseDilation = 1;   // lhs_dilate
  int64_t windowDilation = 1; // rhs_dilate
  bool reversal = false;      // rhs_reversal
};

/// `lhs_batch_dims`, `rhs_batch_dims`, `lhs_contracting_dims`,
/// `rhs_contracting_dims` of a dot.
struct DotDims {
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContracting, rhsContracting;
};

/// A convolution's `dim_labels=b01f_01io->b01f`: which dimension of input,
/// kernel and output is batch, feature and each spatial dimension.
struct ConvDims {
  int64_t inputBatch = 0, inputFeature = 0;
  std::vector<int64_t> inputSpatial;
  int64_t kernelInputFeature = 0, kernelOutputFeature = 0;
  std::vector<int64_t> kernelSpatial;
  int64_t outputBatch = 0, outputFeature = 0;
  std::vector<int64_t> outputSpatial;
};

/// One dimension of a pad's `padding=low_high[_interior]x...`.
struct PadDim {
  int64_t low = 0, high = 0, interior = 0;
};

enum class ComparisonDirection { Eq, Ne, Ge, Gt, Le, Lt };
std::string_view comparisonDirectionName(ComparisonDirection direction);

// Parsers for attribute values. Errors say what is wrong with the value; the
// caller adds where it is.
Result<std::vector<int64_t>> parseIntList(std::string_view text);
Result<std::vector<SliceDim>> parseSlice(std::string_view text);
Result<std::vector<WindowDim>> parseWindow(std::string_view text);
Result<ConvDims> parseConvDims(std::string_view text);
Result<std::vector<PadDim>> parsePadding(std::string_view text);
Result<ComparisonDirection> parseComparisonDirection(std::string_view text);

} // namespace rlopt::graph

#endif
