#include "InterpreterLinalg.h"

#include "InterpreterElements.h"
#include "InterpreterIndexing.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace rlopt::graph::interp {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A batch of row-major matrices: the last two dimensions of a shape.
struct Matrices {
  int64_t batch = 1, rows = 0, cols = 0;
  int64_t size() const { return rows * cols; }
};

Result<Matrices> matricesOf(const Instruction &instruction,
                            const Shape &shape) {
  if (!shape.isArray() || shape.rank() < 2 ||
      domainOf(shape.type()) != Domain::Float)
    return failAt(instruction, "needs floating-point matrices, got " +
                                   shape.toString(false));
  Matrices m;
  for (int64_t d = 0; d + 2 < shape.rank(); ++d)
    m.batch *= shape.dim(d);
  m.rows = shape.dim(shape.rank() - 2);
  m.cols = shape.dim(shape.rank() - 1);
  return m;
}

/// Cholesky factor in the `lower` (or upper) triangle of the n x n matrix
/// `a`; the other triangle is left as it was, as LAPACK's potrf does.
/// Returns 0, or the order of the first minor that is not positive.
int64_t choleskyFactor(double *a, int64_t n, bool lower) {
  // The upper factor is the transpose of the lower one: read a[j][i].
  auto at = [&](int64_t i, int64_t j) -> double & {
    return lower ? a[i * n + j] : a[j * n + i];
  };
  for (int64_t j = 0; j < n; ++j) {
    double diagonal = at(j, j);
    for (int64_t k = 0; k < j; ++k)
      diagonal -= at(j, k) * at(j, k);
    if (!(diagonal > 0)) {
      at(j, j) = diagonal;
      return j + 1;
    }
    diagonal = std::sqrt(diagonal);
    at(j, j) = diagonal;
    for (int64_t i = j + 1; i < n; ++i) {
      double value = at(i, j);
      for (int64_t k = 0; k < j; ++k)
        value -= at(i, k) * at(j, k);
      at(i, j) = value / diagonal;
    }
  }
  return 0;
}

/// LU with partial pivoting of the m x n matrix `a` (LAPACK getrf): unit
/// lower L and U in place, 1-based pivot rows. Returns 0 or the first
/// zero pivot (1-based).
int64_t luFactor(double *a, int64_t m, int64_t n, double *pivots) {
  int64_t info = 0;
  for (int64_t j = 0; j < std::min(m, n); ++j) {
    int64_t pivot = j;
    for (int64_t i = j + 1; i < m; ++i)
      if (std::fabs(a[i * n + j]) > std::fabs(a[pivot * n + j]))
        pivot = i;
    pivots[j] = static_cast<double>(pivot + 1);
    if (pivot != j)
      for (int64_t c = 0; c < n; ++c)
        std::swap(a[j * n + c], a[pivot * n + c]);
    double diagonal = a[j * n + j];
    if (diagonal == 0) {
      if (info == 0)
        info = j + 1;
      continue;
    }
    for (int64_t i = j + 1; i < m; ++i) {
      double factor = a[i * n + j] /= diagonal;
      for (int64_t c = j + 1; c < n; ++c)
        a[i * n + c] -= factor * a[j * n + c];
    }
  }
  return info;
}

/// Householder QR of the m x n matrix `a` (LAPACK geqrf): R in the upper
/// triangle, reflector vectors below it, their scales in `taus`.
void qrFactor(double *a, int64_t m, int64_t n, double *taus) {
  for (int64_t i = 0; i < std::min(m, n); ++i) {
    double alpha = a[i * n + i], norm = 0;
    for (int64_t r = i + 1; r < m; ++r)
      norm = std::hypot(norm, a[r * n + i]);
    if (norm == 0) {
      taus[i] = 0;
      continue;
    }
    double beta = -std::copysign(std::hypot(alpha, norm), alpha);
    taus[i] = (beta - alpha) / beta;
    for (int64_t r = i + 1; r < m; ++r)
      a[r * n + i] /= alpha - beta;
    a[i * n + i] = beta;
    // Apply H = I - tau v v^T (v = [1; a[i+1:, i]]) to the columns right.
    for (int64_t c = i + 1; c < n; ++c) {
      double w = a[i * n + c];
      for (int64_t r = i + 1; r < m; ++r)
        w += a[r * n + i] * a[r * n + c];
      w *= taus[i];
      a[i * n + c] -= w;
      for (int64_t r = i + 1; r < m; ++r)
        a[r * n + c] -= w * a[r * n + i];
    }
  }
}

/// The first n columns of Q from k reflectors as qrFactor leaves them
/// (LAPACK orgqr), in place.
void formQ(double *a, int64_t m, int64_t n, const double *taus, int64_t k) {
  for (int64_t j = k; j < n; ++j)
    for (int64_t r = 0; r < m; ++r)
      a[r * n + j] = r == j ? 1.0 : 0.0;
  for (int64_t i = k - 1; i >= 0; --i) {
    for (int64_t c = i + 1; c < n; ++c) {
      double w = a[i * n + c];
      for (int64_t r = i + 1; r < m; ++r)
        w += a[r * n + i] * a[r * n + c];
      w *= taus[i];
      a[i * n + c] -= w;
      for (int64_t r = i + 1; r < m; ++r)
        a[r * n + c] -= w * a[r * n + i];
    }
    for (int64_t r = i + 1; r < m; ++r)
      a[r * n + i] *= -taus[i];
    a[i * n + i] = 1 - taus[i];
    for (int64_t r = 0; r < i; ++r)
      a[r * n + i] = 0;
  }
}

/// Solves op(T) X = B in place for X (B is n x columns), where T is the
/// `lower` (or upper) triangle of the n x n matrix `a` and op transposes
/// when `transpose`.
void solveLeft(const double *a, int64_t n, bool lower, bool transpose,
               bool unitDiagonal, double *b, int64_t columns) {
  auto op = [&](int64_t i, int64_t j) {
    return transpose ? a[j * n + i] : a[i * n + j];
  };
  bool forward = lower != transpose;
  for (int64_t step = 0; step < n; ++step) {
    int64_t i = forward ? step : n - 1 - step;
    for (int64_t c = 0; c < columns; ++c) {
      double value = b[i * columns + c];
      if (forward)
        for (int64_t j = 0; j < i; ++j)
          value -= op(i, j) * b[j * columns + c];
      else
        for (int64_t j = i + 1; j < n; ++j)
          value -= op(i, j) * b[j * columns + c];
      b[i * columns + c] = unitDiagonal ? value : value / op(i, i);
    }
  }
}

/// op(T) X = B (left side) or X op(T) = B, per matrix of a batch.
void triangularSolve(const double *a, int64_t n, double *b, int64_t rows,
                     int64_t cols, bool leftSide, bool lower, bool transpose,
                     bool unitDiagonal) {
  if (leftSide)
    return solveLeft(a, n, lower, transpose, unitDiagonal, b, cols);
  // X op(T) = B  <=>  op(T)^T X^T = B^T.
  std::vector<double> transposed = permuteDims(b, {rows, cols}, {1, 0});
  solveLeft(a, n, lower, !transpose, unitDiagonal, transposed.data(), rows);
  std::vector<double> back =
      permuteDims(transposed.data(), {cols, rows}, {1, 0});
  std::copy(back.begin(), back.end(), b);
}

int32_t configField(const std::string &bytes, size_t offset) {
  int32_t value = 0;
  if (offset + sizeof value <= bytes.size())
    std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

/// The custom call's tuple result: `leading` values, then zero-filled
/// workspaces for the remaining elements.
Result<RuntimeValue> tupleResult(const Instruction &instruction,
                                 std::vector<RuntimeValue> leading) {
  const Shape &shape = instruction.shape();
  if (!shape.isTuple() || shape.tupleShapes().size() < leading.size())
    return failAt(instruction, "result must be a tuple of at least " +
                                   std::to_string(leading.size()) +
                                   " elements");
  for (size_t i = 0; i < leading.size(); ++i) {
    if (leading[i].size() != shape.tupleShape(i).elementCount())
      return failAt(instruction, "result element " + std::to_string(i) +
                                     " does not match " +
                                     shape.tupleShape(i).toString(false));
    leading[i].shape = shape.tupleShape(i);
  }
  for (size_t i = leading.size(); i < shape.tupleShapes().size(); ++i)
    leading.push_back(makeZeroValue(shape.tupleShape(i)));
  RuntimeValue tuple = makeTuple(std::move(leading));
  tuple.shape = shape;
  return tuple;
}

RuntimeValue plain(std::vector<double> data) {
  return makeArray(Shape(), std::move(data));
}

Result<RuntimeValue> potrf(const Instruction &instruction, Operands &operands) {
  auto m = matricesOf(instruction, operands[0].shape);
  if (!m)
    return m.error();
  // PotrfDescriptor {type, uplo, batch, n, lwork}; cuBLAS lower is 0.
  bool lower = configField(configBytes(instruction), 4) == 0;
  RuntimeValue a = std::move(operands[0]);
  double *data = a.writable().data();
  std::vector<double> info(m->batch);
  for (int64_t b = 0; b < m->batch; ++b)
    info[b] = static_cast<double>(
        choleskyFactor(data + b * m->size(), m->rows, lower));
  return tupleResult(instruction, {std::move(a), plain(std::move(info))});
}

Result<RuntimeValue> getrf(const Instruction &instruction, Operands &operands) {
  auto m = matricesOf(instruction, operands[0].shape);
  if (!m)
    return m.error();
  RuntimeValue a = std::move(operands[0]);
  double *data = a.writable().data();
  int64_t steps = std::min(m->rows, m->cols);
  std::vector<double> pivots(m->batch * steps), info(m->batch);
  for (int64_t b = 0; b < m->batch; ++b)
    info[b] = static_cast<double>(
        luFactor(data + b * m->size(), m->rows, m->cols, &pivots[b * steps]));
  return tupleResult(instruction, {std::move(a), plain(std::move(pivots)),
                                   plain(std::move(info))});
}

Result<RuntimeValue> geqrf(const Instruction &instruction, Operands &operands) {
  auto m = matricesOf(instruction, operands[0].shape);
  if (!m)
    return m.error();
  RuntimeValue a = std::move(operands[0]);
  double *data = a.writable().data();
  int64_t steps = std::min(m->rows, m->cols);
  std::vector<double> taus(m->batch * steps), info(m->batch, 0.0);
  for (int64_t b = 0; b < m->batch; ++b)
    qrFactor(data + b * m->size(), m->rows, m->cols, &taus[b * steps]);
  return tupleResult(instruction, {std::move(a), plain(std::move(taus)),
                                   plain(std::move(info))});
}

Result<RuntimeValue> orgqr(const Instruction &instruction, Operands &operands) {
  if (operands.size() != 2)
    return failAt(instruction, "orgqr takes the factored matrix and taus");
  auto m = matricesOf(instruction, operands[0].shape);
  if (!m)
    return m.error();
  int64_t reflectors = operands[1].shape.rank() > 0
                           ? operands[1].shape.dim(operands[1].shape.rank() - 1)
                           : 0;
  if (reflectors > m->cols || operands[1].size() != m->batch * reflectors)
    return failAt(instruction, "taus do not match the matrices");
  RuntimeValue a = std::move(operands[0]);
  double *data = a.writable().data();
  for (int64_t b = 0; b < m->batch; ++b)
    formQ(data + b * m->size(), m->rows, m->cols,
          operands[1].data() + b * reflectors, reflectors);
  return tupleResult(instruction,
                     {std::move(a), plain(std::vector<double>(m->batch, 0.0))});
}

Result<RuntimeValue> trsm(const Instruction &instruction, Operands &operands) {
  if (operands.size() != 2)
    return failAt(instruction, "trsm takes a triangular matrix and a "
                               "right-hand side");
  auto a = matricesOf(instruction, operands[0].shape);
  auto b = matricesOf(instruction, operands[1].shape);
  if (!a)
    return a.error();
  if (!b)
    return b.error();
  // TrsmDescriptor {type, batch, m, n, side, uplo, trans, diag}, cuBLAS
  // enums: side left 0, fill lower 0, op N 0, diag unit 1.
  std::string config = configBytes(instruction);
  bool left = configField(config, 16) == 0;
  bool lower = configField(config, 20) == 0;
  bool transpose = configField(config, 24) != 0;
  bool unit = configField(config, 28) == 1;
  int64_t n = left ? b->rows : b->cols;
  if (a->rows != n || a->cols != n || a->batch != b->batch)
    return failAt(instruction, "trsm operands do not match");
  RuntimeValue x = std::move(operands[1]);
  double *data = x.writable().data();
  for (int64_t k = 0; k < b->batch; ++k)
    triangularSolve(operands[0].data() + k * a->size(), n, data + k * b->size(),
                    b->rows, b->cols, left, lower, transpose, unit);
  return tupleResult(instruction, {std::move(x)});
}

Result<RuntimeValue> pivotsToPermutation(const Instruction &instruction,
                                         const Operands &operands) {
  const Shape &shape = instruction.shape();
  const Shape &pivots = operands[0].shape;
  if (!shape.isArray() || shape.rank() < 1 || pivots.rank() != shape.rank())
    return failAt(instruction, "pivots and permutation must be arrays of "
                               "one rank");
  int64_t size = shape.dim(shape.rank() - 1);
  int64_t steps = pivots.dim(pivots.rank() - 1);
  int64_t batch = size == 0 ? 0 : shape.elementCount() / size;
  std::vector<double> permutation(shape.elementCount());
  for (int64_t b = 0; b < batch; ++b) {
    double *row = permutation.data() + b * size;
    for (int64_t i = 0; i < size; ++i)
      row[i] = static_cast<double>(i);
    for (int64_t i = 0; i < std::min(steps, size); ++i) {
      double target = operands[0].data()[b * steps + i];
      if (target >= 0 && target < size)
        std::swap(row[i], row[static_cast<int64_t>(target)]);
    }
  }
  return makeArray(shape, std::move(permutation));
}

} // namespace

std::optional<Result<RuntimeValue>>
evaluateLinalgCustomCall(std::string_view target,
                         const Instruction &instruction, Operands &operands) {
  if (operands.empty())
    return std::nullopt;
  if (target == "cusolver_potrf")
    return potrf(instruction, operands);
  if (target == "cusolver_getrf" || target == "cublas_getrf_batched")
    return getrf(instruction, operands);
  if (target == "cusolver_geqrf" || target == "cublas_geqrf_batched")
    return geqrf(instruction, operands);
  if (target == "cusolver_orgqr")
    return orgqr(instruction, operands);
  if (target == "cublas_trsm_batched")
    return trsm(instruction, operands);
  if (target == "cuda_lu_pivots_to_permutation")
    return pivotsToPermutation(instruction, operands);
  return std::nullopt;
}

Result<RuntimeValue> evaluateTriangularSolve(Interpreter &interpreter,
                                             const Instruction &instruction,
                                             Operands &operands) {
  auto a = matricesOf(instruction, operands[0].shape);
  auto b = matricesOf(instruction, operands[1].shape);
  if (!a)
    return a.error();
  if (!b)
    return b.error();
  bool left = boolAttribute(instruction, "left_side", false);
  bool lower = boolAttribute(instruction, "lower", false);
  bool unit = boolAttribute(instruction, "unit_diagonal", false);
  std::string_view mode =
      attributeText(instruction, "transpose_a").value_or("NO_TRANSPOSE");
  // Real matrices: the adjoint is the transpose.
  bool transpose = mode == "TRANSPOSE" || mode == "ADJOINT";
  int64_t n = left ? b->rows : b->cols;
  if (a->rows != n || a->cols != n || a->batch != b->batch)
    return failAt(instruction, "a " + operands[0].shape.toString(false) +
                                   " does not match b " +
                                   operands[1].shape.toString(false));
  RuntimeValue x = std::move(operands[1]);
  double *data = x.writable().data();
  for (int64_t k = 0; k < b->batch; ++k)
    triangularSolve(operands[0].data() + k * a->size(), n, data + k * b->size(),
                    b->rows, b->cols, left, lower, transpose, unit);
  if (interpreter.options().roundToElementType)
    roundFloats(x.shape.type(), data, x.size());
  x.shape = instruction.shape();
  return x;
}

Result<RuntimeValue> evaluateCholesky(Interpreter &interpreter,
                                      const Instruction &instruction,
                                      Operands &operands) {
  auto m = matricesOf(instruction, operands[0].shape);
  if (!m)
    return m.error();
  if (m->rows != m->cols)
    return failAt(instruction, "needs square matrices");
  bool lower = boolAttribute(instruction, "lower", false);
  RuntimeValue a = std::move(operands[0]);
  double *data = a.writable().data();
  for (int64_t b = 0; b < m->batch; ++b) {
    double *matrix = data + b * m->size();
    // A matrix that is not positive definite has no factor: NaN, as XLA's
    // expanders produce.
    if (choleskyFactor(matrix, m->rows, lower) != 0)
      std::fill(matrix, matrix + m->size(), kNaN);
  }
  if (interpreter.options().roundToElementType)
    roundFloats(a.shape.type(), data, a.size());
  a.shape = instruction.shape();
  return a;
}

} // namespace rlopt::graph::interp
