#include "Layers.h"

#include <cassert>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace rlopt::data::detail {

namespace {

const char *kNegInf = "0xFF800000";

std::string windowAttrs(int64_t stride) {
  return "dilations = dense<1> : tensor<2xi64>, strides = dense<" +
         std::to_string(stride) + "> : tensor<2xi64>";
}

/// Output size of an unpadded window of `window` at `stride`.
int64_t windowOutput(int64_t input, int64_t window, int64_t stride) {
  assert(input >= window && "window larger than its input");
  return (input - window) / stride + 1;
}

/// A constant's name from its literal, e.g. eps_1_0e_12 for 1.0e-12.
std::string literalName(const std::string &prefix, const std::string &literal) {
  std::string name = prefix;
  for (char c : literal)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

std::string yield(const std::string &value) {
  return "linalg.yield " + value + " : f32";
}

} // namespace

Value LayerWriter::arg(const std::string &name, const Shape &shape) {
  return w.arg(w.fresh(name), shape);
}

Value LayerWriter::zeroed(const std::string &name, const Shape &shape) {
  std::string zero = w.constant("zero", "0.0");
  return w.fill(w.fresh(name + "_init"), zero,
                w.empty(w.fresh(name + "_empty"), shape));
}

Value LayerWriter::matmul(const std::string &name, const Value &x,
                          const Value &weight) {
  int64_t m = x.shape[0], k = x.shape[1], n = weight.shape[1];
  assert(weight.shape[0] == k && "matmul sizes disagree");
  Value acc = zeroed(name, {m, n});
  w.flops += 2.0 * m * n * k;
  return w.named(w.fresh(name), "linalg.matmul", "", {x, weight}, acc);
}

Value LayerWriter::linear(const std::string &name, const Value &x,
                          int64_t outputs) {
  Value weight = arg(name + "_w", {x.shape[1], outputs});
  Value bias = arg(name + "_b", {outputs});
  return fanInScaledBias(name + "_biased", matmul(name, x, weight), x.shape[1],
                         bias);
}

Value LayerWriter::batchMatmul(const std::string &name, const Value &a,
                               const Value &b) {
  int64_t batch = a.shape[0], m = a.shape[1], k = a.shape[2], n = b.shape[2];
  assert(b.shape[0] == batch && b.shape[1] == k && "bmm sizes disagree");
  Value acc = zeroed(name, {batch, m, n});
  w.flops += 2.0 * batch * m * n * k;
  return w.named(w.fresh(name), "linalg.batch_matmul", "", {a, b}, acc);
}

Value LayerWriter::conv(const std::string &name, const Value &x,
                        const Value &filter, int64_t stride) {
  int64_t k = filter.shape[0], c = filter.shape[2], f = filter.shape[3];
  assert(x.shape[3] == c && "conv channels disagree");
  int64_t oh = windowOutput(x.shape[1], k, stride),
          ow = windowOutput(x.shape[2], k, stride);
  Value acc = zeroed(name, {x.shape[0], oh, ow, f});
  w.flops += 2.0 * x.shape[0] * oh * ow * f * k * k * c;
  return w.named(w.fresh(name), "linalg.conv_2d_nhwc_hwcf", windowAttrs(stride),
                 {x, filter}, acc);
}

Value LayerWriter::depthwise(const std::string &name, const Value &x,
                             const Value &filter, int64_t stride) {
  int64_t k = filter.shape[0], c = filter.shape[2];
  assert(x.shape[3] == c && "depthwise channels disagree");
  int64_t oh = windowOutput(x.shape[1], k, stride),
          ow = windowOutput(x.shape[2], k, stride);
  Value acc = zeroed(name, {x.shape[0], oh, ow, c});
  w.flops += 2.0 * x.shape[0] * oh * ow * c * k * k;
  return w.named(w.fresh(name), "linalg.depthwise_conv_2d_nhwc_hwc",
                 windowAttrs(stride), {x, filter}, acc);
}

Value LayerWriter::maxPool(const std::string &name, const Value &x,
                           int64_t window, int64_t stride) {
  int64_t oh = windowOutput(x.shape[1], window, stride),
          ow = windowOutput(x.shape[2], window, stride);
  Shape out{x.shape[0], oh, ow, x.shape[3]};
  std::string ninf = w.constant("ninf", kNegInf);
  Value windowShape = w.empty(w.fresh(name + "_window"), {window, window});
  Value acc = w.fill(w.fresh(name + "_init"), ninf,
                     w.empty(w.fresh(name + "_empty"), out));
  w.flops += double(numElements(out)) * window * window;
  return w.named(w.fresh(name), "linalg.pooling_nhwc_max", windowAttrs(stride),
                 {x, windowShape}, acc);
}

Value LayerWriter::pad(const std::string &name, const Value &x, int64_t amount,
                       bool negInf) {
  std::string border =
      negInf ? w.constant("ninf", kNegInf) : w.constant("zero", "0.0");
  return w.pad(w.fresh(name), x, {0, amount, amount, 0}, border);
}

Value LayerWriter::globalAvgPool(const std::string &name, const Value &x) {
  int64_t n = x.shape[0], h = x.shape[1], wd = x.shape[2], c = x.shape[3];
  Value init = zeroed(name + "_sum", {n, c});
  // Loops (n, c, h, w): the reductions innermost.
  GenericSpec sum;
  sum.ins = {{x, w.customMap(4, {"d0", "d2", "d3", "d1"})}};
  sum.out = init;
  sum.outMap = w.customMap(4, {"d0", "d1"});
  sum.loops = {n, c, h, wd};
  sum.reduction = {false, false, true, true};
  sum.blockArgs = {"%a", "%o"};
  sum.body = {"%r = arith.addf %a, %o : f32", yield("%r")};
  sum.opsPerPoint = 1;
  Value total = w.generic(w.fresh(name + "_sum"), sum);
  std::string count = w.constant("count_" + std::to_string(h * wd),
                                 std::to_string(h * wd) + ".0");
  return pointwise(name, total, {},
                   {"%r = arith.divf %a, " + count + " : f32", yield("%r")}, 1);
}

Value LayerWriter::pointwise(
    const std::string &name, const Value &x,
    const std::vector<std::pair<Value, std::string>> &extras,
    const std::vector<std::string> &body, int opsPerPoint) {
  static const char *kArgs[] = {"%a", "%b", "%c", "%d"};
  assert(extras.size() < 4 && "too many inputs");
  size_t rank = x.shape.size();
  GenericSpec spec;
  spec.ins = {{x, w.map("id", rank)}};
  spec.blockArgs = {kArgs[0]};
  for (size_t i = 0; i < extras.size(); ++i) {
    spec.ins.push_back(extras[i]);
    spec.blockArgs.push_back(kArgs[i + 1]);
  }
  spec.blockArgs.push_back("%o");
  spec.out = w.empty(w.fresh(name + "_empty"), x.shape);
  spec.outMap = w.map("id", rank);
  spec.loops = x.shape;
  spec.reduction.assign(rank, false);
  spec.body = body;
  spec.opsPerPoint = opsPerPoint;
  return w.generic(w.fresh(name), spec);
}

Value LayerWriter::biasAdd(const std::string &name, const Value &x,
                           const Value &bias) {
  assert(bias.shape == Shape{x.shape.back()} && "bias size disagrees");
  return pointwise(name, x, {{bias, w.map("last", x.shape.size())}},
                   {"%r = arith.addf %a, %b : f32", yield("%r")}, 1);
}

Value LayerWriter::fanInScaledBias(const std::string &name, const Value &x,
                                   int64_t fanIn, const Value &bias) {
  assert(bias.shape == Shape{x.shape.back()} && "bias size disagrees");
  char literal[32];
  std::snprintf(literal, sizeof(literal), "%.9e", 1 / std::sqrt(double(fanIn)));
  std::string scale =
      w.constant("inv_sqrt_fan_in_" + std::to_string(fanIn), literal);
  return pointwise(name, x, {{bias, w.map("last", x.shape.size())}},
                   {"%s = arith.mulf %a, " + scale + " : f32",
                    "%r = arith.addf %s, %b : f32", yield("%r")},
                   2);
}

Value LayerWriter::scaleShift(const std::string &name, const Value &x,
                              const Value &scale, const Value &shift) {
  std::string last = w.map("last", x.shape.size());
  return pointwise(name, x, {{scale, last}, {shift, last}},
                   {"%s = arith.mulf %a, %b : f32",
                    "%r = arith.addf %s, %c : f32", yield("%r")},
                   2);
}

Value LayerWriter::relu(const std::string &name, const Value &x) {
  std::string zero = w.constant("zero", "0.0");
  return pointwise(name, x, {},
                   {"%r = arith.maximumf %a, " + zero + " : f32", yield("%r")},
                   1);
}

Value LayerWriter::relu6(const std::string &name, const Value &x) {
  std::string zero = w.constant("zero", "0.0");
  std::string six = w.constant("six", "6.0");
  return pointwise(name, x, {},
                   {"%r = arith.maximumf %a, " + zero + " : f32",
                    "%s = arith.minimumf %r, " + six + " : f32", yield("%s")},
                   2);
}

Value LayerWriter::gelu(const std::string &name, const Value &x) {
  // 0.5 (1 + tanh(u)) = 1 / (1 + exp(-2u)): GELU with one exp and one
  // divide.
  std::string c = w.constant("minus_2_sqrt_2_over_pi", "-1.59576912");
  std::string c1 = w.constant("gelu_cubic", "4.471500e-02");
  std::string one = w.constant("one", "1.0");
  return pointwise(
      name, x, {},
      {"%x2 = arith.mulf %a, %a : f32", "%x3 = arith.mulf %x2, %a : f32",
       "%t = arith.mulf %x3, " + c1 + " : f32", "%s = arith.addf %a, %t : f32",
       "%v = arith.mulf %s, " + c + " : f32", "%e = math.exp %v : f32",
       "%d = arith.addf %e, " + one + " : f32", "%r = arith.divf %a, %d : f32",
       yield("%r")},
      8);
}

Value LayerWriter::scaleMask(const std::string &name, const Value &x,
                             const std::string &scale, const Value &mask) {
  size_t rank = x.shape.size();
  assert(mask.shape == Shape(x.shape.end() - 2, x.shape.end()) &&
         "mask shape disagrees");
  std::string factor = w.constant("score_scale", scale);
  std::string map = w.customMap(
      rank, {"d" + std::to_string(rank - 2), "d" + std::to_string(rank - 1)});
  return pointwise(name, x, {{mask, map}},
                   {"%s = arith.mulf %a, " + factor + " : f32",
                    "%r = arith.addf %s, %b : f32", yield("%r")},
                   2);
}

Value LayerWriter::add(const std::string &name, const Value &x,
                       const Value &y) {
  assert(x.shape == y.shape && "add shapes disagree");
  w.flops += double(numElements(x.shape));
  return w.named(w.fresh(name), "linalg.add", "", {x, y},
                 w.empty(w.fresh(name + "_empty"), x.shape));
}

Value LayerWriter::softmax(const std::string &name, const Value &x) {
  size_t rank = x.shape.size();
  Shape rows(x.shape.begin(), x.shape.end() - 1);
  std::string ninf = w.constant("ninf", kNegInf);
  std::string zero = w.constant("zero", "0.0");
  std::string id = w.map("id", rank), row = w.map("rows", rank);
  Value rowsEmpty = w.empty(w.fresh(name + "_rows"), rows);
  Value maxInit = w.fill(w.fresh(name + "_max_init"), ninf, rowsEmpty);
  Value max = w.generic(w.fresh(name + "_max"), {{x, id}}, maxInit, row, rank,
                        true, {"%a", "%m"},
                        {"%r = arith.maximumf %a, %m : f32", yield("%r")}, 1);
  Value empty = w.empty(w.fresh(name + "_empty"), x.shape);
  Value exp = w.generic(
      w.fresh(name + "_exp"), {{x, id}, {max, row}}, empty, id, rank, false,
      {"%a", "%m", "%o"},
      {"%d = arith.subf %a, %m : f32", "%e = math.exp %d : f32", yield("%e")},
      2);
  Value sumInit = w.fill(w.fresh(name + "_sum_init"), zero, rowsEmpty);
  Value sum =
      w.generic(w.fresh(name + "_sum"), {{exp, id}}, sumInit, row, rank, true,
                {"%e", "%s"}, {"%r = arith.addf %e, %s : f32", yield("%r")}, 1);
  return w.generic(w.fresh(name), {{exp, id}, {sum, row}}, empty, id, rank,
                   false, {"%e", "%s", "%o"},
                   {"%r = arith.divf %e, %s : f32", yield("%r")}, 1);
}

Value LayerWriter::layernorm(const std::string &name, const Value &x,
                             const Value &gamma, const Value &beta,
                             const std::string &eps) {
  size_t rank = x.shape.size();
  int64_t width = x.shape.back();
  Shape rows(x.shape.begin(), x.shape.end() - 1);
  std::string zero = w.constant("zero", "0.0");
  std::string n = w.constant("width_" + std::to_string(width),
                             std::to_string(width) + ".0");
  std::string epsilon = w.constant(literalName("eps", eps), eps);
  std::string id = w.map("id", rank), row = w.map("rows", rank),
              last = w.map("last", rank), rowId = w.map("id", rank - 1);
  Value rowsEmpty = w.empty(w.fresh(name + "_rows"), rows);
  Value sumInit = w.fill(w.fresh(name + "_sum_init"), zero, rowsEmpty);
  Value sum =
      w.generic(w.fresh(name + "_sum"), {{x, id}}, sumInit, row, rank, true,
                {"%a", "%s"}, {"%r = arith.addf %a, %s : f32", yield("%r")}, 1);
  Value mean =
      w.generic(w.fresh(name + "_mean"), {{sum, rowId}}, rowsEmpty, rowId,
                rank - 1, false, {"%s", "%o"},
                {"%r = arith.divf %s, " + n + " : f32", yield("%r")}, 1);
  Value sqInit = w.fill(w.fresh(name + "_sq_init"), zero, rowsEmpty);
  Value sq = w.generic(w.fresh(name + "_sq"), {{x, id}, {mean, row}}, sqInit,
                       row, rank, true, {"%a", "%m", "%s"},
                       {"%d = arith.subf %a, %m : f32",
                        "%d2 = arith.mulf %d, %d : f32",
                        "%r = arith.addf %d2, %s : f32", yield("%r")},
                       3);
  Value rstd = w.generic(w.fresh(name + "_rstd"), {{sq, rowId}}, rowsEmpty,
                         rowId, rank - 1, false, {"%s", "%o"},
                         {"%v = arith.divf %s, " + n + " : f32",
                          "%ve = arith.addf %v, " + epsilon + " : f32",
                          "%r = math.rsqrt %ve : f32", yield("%r")},
                         3);
  GenericSpec norm;
  norm.ins = {{x, id}, {mean, row}, {rstd, row}, {gamma, last}, {beta, last}};
  norm.out = w.empty(w.fresh(name + "_empty"), x.shape);
  norm.outMap = id;
  norm.loops = x.shape;
  norm.reduction.assign(rank, false);
  norm.blockArgs = {"%a", "%m", "%r", "%g", "%b", "%o"};
  norm.body = {"%d = arith.subf %a, %m : f32", "%n = arith.mulf %d, %r : f32",
               "%s = arith.mulf %n, %g : f32", "%y = arith.addf %s, %b : f32",
               yield("%y")};
  norm.opsPerPoint = 4;
  return w.generic(w.fresh(name), norm);
}

Value LayerWriter::transpose(const std::string &name, const Value &x,
                             const std::vector<int64_t> &permutation) {
  assert(permutation.size() == x.shape.size() && "permutation rank");
  Shape out;
  for (int64_t p : permutation)
    out.push_back(x.shape[p]);
  return w.named(w.fresh(name), "linalg.transpose", "", {x},
                 w.empty(w.fresh(name + "_empty"), out),
                 "permutation = [" + joinShape(permutation, ", ") + "]");
}

} // namespace rlopt::data::detail
