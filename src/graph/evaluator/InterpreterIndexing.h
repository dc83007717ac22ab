// Flat row-major index arithmetic for the reference interpreter: every
// data-movement op is a walk over a box of indices with one stride per
// dimension on each side, so no op builds multi-indices per element.
#ifndef RLOPT_SRC_GRAPH_EVALUATOR_INTERPRETERINDEXING_H
#define RLOPT_SRC_GRAPH_EVALUATOR_INTERPRETERINDEXING_H

#include "InterpreterInternal.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rlopt::graph::interp {

/// Row-major strides of `dims` (the last dimension has stride 1).
inline std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;)
    strides[d - 1] = strides[d] * dims[d];
  return strides;
}

inline int64_t product(const std::vector<int64_t> &dims) {
  int64_t count = 1;
  for (int64_t dim : dims)
    count *= dim;
  return count;
}

/// Calls visit(offsetA, offsetB) for every index of `dims` in row-major
/// order, where offsetX = sum over d of index[d] * stridesX[d].
template <typename Visit>
void forEachIndex(const std::vector<int64_t> &dims,
                  const std::vector<int64_t> &stridesA,
                  const std::vector<int64_t> &stridesB, Visit &&visit) {
  size_t rank = dims.size();
  for (int64_t dim : dims)
    if (dim <= 0)
      return;
  if (rank == 0) {
    visit(int64_t(0), int64_t(0));
    return;
  }
  std::vector<int64_t> index(rank, 0);
  const int64_t inner = dims[rank - 1];
  const int64_t innerA = stridesA[rank - 1], innerB = stridesB[rank - 1];
  int64_t baseA = 0, baseB = 0;
  while (true) {
    int64_t a = baseA, b = baseB;
    for (int64_t i = 0; i < inner; ++i, a += innerA, b += innerB)
      visit(a, b);
    size_t d = rank - 1;
    while (true) {
      if (d == 0)
        return;
      --d;
      ++index[d];
      baseA += stridesA[d];
      baseB += stridesB[d];
      if (index[d] < dims[d])
        break;
      baseA -= stridesA[d] * dims[d];
      baseB -= stridesB[d] * dims[d];
      index[d] = 0;
    }
  }
}

/// out[sum idx*outStrides] = in[sum idx*inStrides] over the box `dims`.
/// `in` and `out` point at the box's first element; strides may be zero
/// (broadcast) or negative (reverse).
/// T is the interpreter's double or constant folding's exact integer.
template <typename T>
void copyBox(const T *in, const std::vector<int64_t> &inStrides, T *out,
             const std::vector<int64_t> &outStrides,
             const std::vector<int64_t> &dims) {
  if (dims.empty() || product(dims) <= 0) {
    if (dims.empty())
      out[0] = in[0];
    return;
  }
  // Walk rows of the innermost dimension; contiguous rows copy as blocks
  // and broadcast rows fill.
  size_t last = dims.size() - 1;
  int64_t length = dims[last], inStep = inStrides[last],
          outStep = outStrides[last];
  if (outStep == 1 && inStep != 1 && inStep != 0 && dims.size() >= 2) {
    // A transpose: the input is contiguous along another dimension. Copy
    // square tiles of the two so that reads and writes both stay in cache.
    for (size_t k = 0; k < last; ++k) {
      if (inStrides[k] != 1 || dims[k] == 1)
        continue;
      constexpr int64_t kTile = 32;
      std::vector<int64_t> outerDims, outerIn, outerOut;
      for (size_t d = 0; d < last; ++d)
        if (d != k) {
          outerDims.push_back(dims[d]);
          outerIn.push_back(inStrides[d]);
          outerOut.push_back(outStrides[d]);
        }
      int64_t rows = dims[k], rowStride = outStrides[k];
      forEachIndex(outerDims, outerIn, outerOut, [&](int64_t a, int64_t b) {
        for (int64_t i0 = 0; i0 < rows; i0 += kTile)
          for (int64_t j0 = 0; j0 < length; j0 += kTile)
            for (int64_t i = i0; i < std::min(rows, i0 + kTile); ++i)
              for (int64_t j = j0; j < std::min(length, j0 + kTile); ++j)
                out[b + i * rowStride + j] = in[a + i + j * inStep];
      });
      return;
    }
  }
  std::vector<int64_t> rowDims(dims.begin(), dims.end() - 1);
  std::vector<int64_t> rowIn(inStrides.begin(), inStrides.end() - 1);
  std::vector<int64_t> rowOut(outStrides.begin(), outStrides.end() - 1);
  forEachIndex(rowDims, rowIn, rowOut, [&](int64_t a, int64_t b) {
    const T *from = in + a;
    T *to = out + b;
    if (inStep == 1 && outStep == 1)
      std::copy(from, from + length, to);
    else if (inStep == 0 && outStep == 1)
      std::fill(to, to + length, *from);
    else
      for (int64_t i = 0; i < length; ++i)
        to[i * outStep] = from[i * inStep];
  });
}

/// The row-major array of `dims` with its dimensions reordered: result
/// dimension i is input dimension order[i].
inline std::vector<double> permuteDims(const double *data,
                                       const std::vector<int64_t> &dims,
                                       const std::vector<int64_t> &order) {
  std::vector<int64_t> strides = rowMajorStrides(dims);
  std::vector<int64_t> outDims, inStrides;
  for (int64_t d : order) {
    outDims.push_back(dims[d]);
    inStrides.push_back(strides[d]);
  }
  std::vector<double> result = newScratchBuffer(product(dims));
  copyBox(data, inStrides, result.data(), rowMajorStrides(outDims), outDims);
  return result;
}

} // namespace rlopt::graph::interp

#endif
