// dot with dot_dimension_numbers: both operands are copied to contiguous
// [batch, free, contracting] matrices, multiplied in double with a blocked
// register-tile loop, and rounded once to the result type.
#include "InterpreterElements.h"
#include "InterpreterIndexing.h"
#include "InterpreterInternal.h"

#include <algorithm>
#include <cstring>

namespace rlopt::graph::interp {

namespace {

/// `operand` with `groups` of dimensions first to last, contiguous, and the
/// product of each group's sizes.
std::vector<double>
gatherGroups(const RuntimeValue &operand,
             const std::vector<std::vector<int64_t>> &groups,
             std::vector<int64_t> &groupSizes) {
  std::vector<int64_t> order;
  groupSizes.clear();
  for (const std::vector<int64_t> &group : groups) {
    int64_t size = 1;
    for (int64_t d : group) {
      order.push_back(d);
      size *= operand.shape.dim(d);
    }
    groupSizes.push_back(size);
  }
  return permuteDims(operand.data(), operand.shape.dims(), order);
}

std::vector<int64_t> freeDims(int64_t rank, const std::vector<int64_t> &batch,
                              const std::vector<int64_t> &contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) ==
            contracting.end())
      free.push_back(d);
  return free;
}

constexpr int64_t kTileRows = 4, kTileColumns = 8, kDepthBlock = 256;

/// Four doubles: GCC and Clang map it to one AVX register or two SSE ones.
typedef double Vector4 __attribute__((vector_size(32)));

/// acc[4][8] = sum over k of a[k][0..4) x b[k][0..8): one register tile,
/// written out row by row so the eight sums stay in registers.
inline void multiplyTile(const double *a, const double *b, int64_t depth,
                         double *acc) {
  Vector4 c00 = {}, c01 = {}, c10 = {}, c11 = {}, c20 = {}, c21 = {}, c30 = {},
          c31 = {};
  for (int64_t k = 0; k < depth; ++k) {
    Vector4 b0, b1;
    std::memcpy(&b0, b + k * kTileColumns, sizeof b0);
    std::memcpy(&b1, b + k * kTileColumns + 4, sizeof b1);
    const double *x = a + k * kTileRows;
    Vector4 a0 = {x[0], x[0], x[0], x[0]};
    c00 += a0 * b0;
    c01 += a0 * b1;
    Vector4 a1 = {x[1], x[1], x[1], x[1]};
    c10 += a1 * b0;
    c11 += a1 * b1;
    Vector4 a2 = {x[2], x[2], x[2], x[2]};
    c20 += a2 * b0;
    c21 += a2 * b1;
    Vector4 a3 = {x[3], x[3], x[3], x[3]};
    c30 += a3 * b0;
    c31 += a3 * b1;
  }
  const Vector4 *sums[8] = {&c00, &c01, &c10, &c11, &c20, &c21, &c30, &c31};
  for (int i = 0; i < 8; ++i)
    std::memcpy(acc + 4 * i, sums[i], sizeof(Vector4));
}

/// out[i][j] += sum_k lhs[i][k] * rhs[k][j] for one batch element. Blocks
/// of the depth are packed into 4-row and 8-column panels so the tile
/// loop reads both contiguously and keeps its sums in registers.
#if defined(__x86_64__) && defined(__GNUC__)
// Wider vectors where the CPU has them; without FMA, so results are the
// same on every x86-64 machine.
__attribute__((target_clones("avx2", "default")))
#endif
void multiplyMatrices(const double *lhs, const double *rhs, double *out,
                      int64_t rows, int64_t inner, int64_t columns) {
  int64_t panels = (columns + kTileColumns - 1) / kTileColumns;
  std::vector<double> packedRhs, packedLhs(kDepthBlock * kTileRows);
  double acc[kTileRows * kTileColumns];
  for (int64_t k0 = 0; k0 < inner; k0 += kDepthBlock) {
    int64_t depth = std::min(kDepthBlock, inner - k0);
    packedRhs.assign(panels * depth * kTileColumns, 0.0);
    for (int64_t p = 0; p < panels; ++p)
      for (int64_t k = 0; k < depth; ++k)
        for (int64_t s = 0; s < kTileColumns; ++s) {
          int64_t j = p * kTileColumns + s;
          if (j < columns)
            packedRhs[(p * depth + k) * kTileColumns + s] =
                rhs[(k0 + k) * columns + j];
        }
    for (int64_t i0 = 0; i0 < rows; i0 += kTileRows) {
      int64_t tileRows = std::min(kTileRows, rows - i0);
      std::fill(packedLhs.begin(), packedLhs.end(), 0.0);
      for (int64_t k = 0; k < depth; ++k)
        for (int64_t r = 0; r < tileRows; ++r)
          packedLhs[k * kTileRows + r] = lhs[(i0 + r) * inner + k0 + k];
      for (int64_t p = 0; p < panels; ++p) {
        multiplyTile(packedLhs.data(),
                     packedRhs.data() + p * depth * kTileColumns, depth, acc);
        int64_t j0 = p * kTileColumns;
        int64_t tileColumns = std::min(kTileColumns, columns - j0);
        for (int64_t r = 0; r < tileRows; ++r)
          for (int64_t s = 0; s < tileColumns; ++s)
            out[(i0 + r) * columns + j0 + s] += acc[r * kTileColumns + s];
      }
    }
  }
}

void multiply(const double *lhs, const double *rhs, double *out, int64_t batch,
              int64_t rows, int64_t inner, int64_t columns) {
  for (int64_t b = 0; b < batch; ++b)
    multiplyMatrices(lhs + b * rows * inner, rhs + b * inner * columns,
                     out + b * rows * columns, rows, inner, columns);
}

} // namespace

Result<RuntimeValue> evaluateDot(Interpreter &interpreter,
                                 const Instruction &instruction,
                                 Operands &operands) {
  const RuntimeValue &lhs = operands[0];
  const RuntimeValue &rhs = operands[1];
  const Shape &shape = instruction.shape();
  for (const RuntimeValue *operand : {&lhs, &rhs})
    if (!operand->shape.isArray() || isComplex(operand->shape.type()))
      return failAt(instruction, "operands must be real arrays");
  if (!shape.isArray() || isComplex(shape.type()))
    return failAt(instruction, "result must be a real array");
  const DotDims &numbers = instruction.dotDims();
  if (numbers.lhsBatch.size() != numbers.rhsBatch.size() ||
      numbers.lhsContracting.size() != numbers.rhsContracting.size())
    return failAt(instruction, "lhs and rhs need as many batch and "
                               "contracting dimensions");
  auto checkPairs = [&](const std::vector<int64_t> &l,
                        const std::vector<int64_t> &r) {
    for (size_t i = 0; i < l.size(); ++i)
      if (l[i] < 0 || l[i] >= lhs.shape.rank() || r[i] < 0 ||
          r[i] >= rhs.shape.rank() ||
          lhs.shape.dim(l[i]) != rhs.shape.dim(r[i]))
        return false;
    return true;
  };
  if (!checkPairs(numbers.lhsBatch, numbers.rhsBatch) ||
      !checkPairs(numbers.lhsContracting, numbers.rhsContracting))
    return failAt(instruction, "batch or contracting dimensions of " +
                                   lhs.shape.toString(false) + " and " +
                                   rhs.shape.toString(false) + " do not match");
  std::vector<int64_t> lhsFree =
      freeDims(lhs.shape.rank(), numbers.lhsBatch, numbers.lhsContracting);
  std::vector<int64_t> rhsFree =
      freeDims(rhs.shape.rank(), numbers.rhsBatch, numbers.rhsContracting);

  // The result is [batch..., lhs free..., rhs free...], exactly [B, M, N].
  std::vector<int64_t> expected;
  for (int64_t d : numbers.lhsBatch)
    expected.push_back(lhs.shape.dim(d));
  for (int64_t d : lhsFree)
    expected.push_back(lhs.shape.dim(d));
  for (int64_t d : rhsFree)
    expected.push_back(rhs.shape.dim(d));
  if (expected != shape.dims())
    return failAt(instruction, "result " + shape.toString(false) +
                                   " does not match the dot of " +
                                   lhs.shape.toString(false) + " and " +
                                   rhs.shape.toString(false));

  std::vector<int64_t> lhsSizes, rhsSizes;
  std::vector<double> left = gatherGroups(
      lhs, {numbers.lhsBatch, lhsFree, numbers.lhsContracting}, lhsSizes);
  std::vector<double> right = gatherGroups(
      rhs, {numbers.rhsBatch, numbers.rhsContracting, rhsFree}, rhsSizes);
  int64_t batch = lhsSizes[0], rows = lhsSizes[1], inner = lhsSizes[2],
          columns = rhsSizes[2];
  std::vector<double> out = newBuffer(batch * rows * columns);
  multiply(left.data(), right.data(), out.data(), batch, rows, inner, columns);

  ElementType type = shape.type();
  if (isIntegral(type)) {
    // Integer dots wrap like integer adds and multiplies.
    for (double &value : out)
      value = fromIntegerBits(type, integerBits(ElementType::S64, value));
  } else if (type == ElementType::Pred) {
    for (double &value : out)
      value = value != 0 ? 1.0 : 0.0;
  } else if (interpreter.options().roundToElementType) {
    roundFloats(type, out.data(), static_cast<int64_t>(out.size()));
  }
  return makeArray(shape, std::move(out));
}

} // namespace rlopt::graph::interp
