// MLIR text for each op class: one func.func on static f32 tensors, in the
// form `rlopt inspect` accepts (Linalg named ops or linalg.generic,
// arith.constant, tensor.empty, tensor.expand_shape). FLOPs are counted as
// the ops are written: one per arithmetic op per point (a multiply-add is
// two, exp or rsqrt one).
#include "OpSuiteInternal.h"
#include "ProgramWriter.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <sstream>

namespace rlopt::data::detail {

namespace {

Shape concat(Shape a, const Shape &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const char *kNegInf = "0xFF800000";

std::string convAttrs(int64_t stride) {
  return "dilations = dense<1> : tensor<2xi64>, strides = dense<" +
         std::to_string(stride) + "> : tensor<2xi64>";
}

/// A describing sentence and the class sizes of `layer` at `lead`.
struct Description {
  std::string text;
  nlohmann::json sizes = nlohmann::json::object();
};

Description emitMatmul(ProgramWriter &w, std::vector<Value> &results,
                       const Layer &l, int64_t m) {
  int64_t k = l.dims[0], n = l.dims[1];
  Value a = w.arg("a", {m, k}), b = w.arg("b", {k, n});
  std::string zero = w.constant("zero", "0.0");
  Value acc = w.fill("acc", zero, w.empty("empty", {m, n}));
  results.push_back(w.named("c", "linalg.matmul", "", {a, b}, acc));
  w.flops += 2.0 * m * n * k;
  return {"matmul " + std::to_string(m) + "x" + std::to_string(k) + " * " +
              std::to_string(k) + "x" + std::to_string(n),
          {{"M", m}, {"K", k}, {"N", n}}};
}

Description emitBatchMatmul(ProgramWriter &w, std::vector<Value> &results,
                            const Layer &l, int64_t batch) {
  int64_t m = l.dims[0], k = l.dims[1], n = l.dims[2];
  Value a = w.arg("a", {batch, m, k}), b = w.arg("b", {batch, k, n});
  std::string zero = w.constant("zero", "0.0");
  Value acc = w.fill("acc", zero, w.empty("empty", {batch, m, n}));
  results.push_back(w.named("c", "linalg.batch_matmul", "", {a, b}, acc));
  w.flops += 2.0 * batch * m * n * k;
  return {std::to_string(batch) + " matmuls " + std::to_string(m) + "x" +
              std::to_string(k) + " * " + std::to_string(k) + "x" +
              std::to_string(n),
          {{"B", batch}, {"M", m}, {"K", k}, {"N", n}}};
}

Description emitMatvec(ProgramWriter &w, std::vector<Value> &results,
                       const Layer &l) {
  int64_t n = l.dims[0], k = l.dims[1];
  Value a = w.arg("a", {n, k}), x = w.arg("x", {k});
  std::string zero = w.constant("zero", "0.0");
  Value acc = w.fill("acc", zero, w.empty("empty", {n}));
  results.push_back(w.named("y", "linalg.matvec", "", {a, x}, acc));
  w.flops += 2.0 * n * k;
  return {"y = A x with A " + std::to_string(n) + "x" + std::to_string(k),
          {{"N", n}, {"K", k}}};
}

/// The manifest sizes of a square-windowed op (convolution or pooling).
nlohmann::json windowShapes(const std::string &layout, int64_t batch,
                            int64_t channels, int64_t inputSize, int64_t window,
                            int64_t stride, int64_t outputSize) {
  return {{"layout", layout}, {"N", batch},       {"C", channels},
          {"H", inputSize},   {"W", inputSize},   {"KH", window},
          {"KW", window},     {"stride", stride}, {"OH", outputSize},
          {"OW", outputSize}};
}

Description emitConv(ProgramWriter &w, std::vector<Value> &results,
                     const Layer &l, int64_t batch) {
  int64_t c = l.dims[0], f = l.dims[1], oh = l.dims[2], k = l.dims[3],
          s = l.dims[4];
  int64_t ih = (oh - 1) * s + k;
  bool nhwc = l.variant == "nhwc_hwcf";
  Value in =
      w.arg("input", nhwc ? Shape{batch, ih, ih, c} : Shape{batch, c, ih, ih});
  Value filter = w.arg("filter", nhwc ? Shape{k, k, c, f} : Shape{f, c, k, k});
  std::string zero = w.constant("zero", "0.0");
  Value acc = w.fill("acc", zero,
                     w.empty("empty", nhwc ? Shape{batch, oh, oh, f}
                                           : Shape{batch, f, oh, oh}));
  results.push_back(w.named("out", "linalg.conv_2d_" + l.variant, convAttrs(s),
                            {in, filter}, acc));
  w.flops += 2.0 * batch * oh * oh * f * k * k * c;
  return {std::to_string(k) + "x" + std::to_string(k) + " convolution (" +
              l.variant + "), " + std::to_string(c) + " -> " +
              std::to_string(f) + " channels, stride " + std::to_string(s) +
              ", " + std::to_string(oh) + "x" + std::to_string(oh) + " output",
          [&] {
            nlohmann::json shapes =
                windowShapes(l.variant, batch, c, ih, k, s, oh);
            shapes["F"] = f;
            return shapes;
          }()};
}

Description emitDepthwise(ProgramWriter &w, std::vector<Value> &results,
                          const Layer &l, int64_t batch) {
  int64_t c = l.dims[0], oh = l.dims[1], k = l.dims[2], s = l.dims[3];
  int64_t ih = (oh - 1) * s + k;
  Value in = w.arg("input", {batch, ih, ih, c});
  Value filter = w.arg("filter", {k, k, c});
  std::string zero = w.constant("zero", "0.0");
  Value acc = w.fill("acc", zero, w.empty("empty", {batch, oh, oh, c}));
  results.push_back(w.named("out", "linalg.depthwise_conv_2d_nhwc_hwc",
                            convAttrs(s), {in, filter}, acc));
  w.flops += 2.0 * batch * oh * oh * c * k * k;
  return {std::to_string(k) + "x" + std::to_string(k) +
              " depthwise convolution, " + std::to_string(c) +
              " channels, stride " + std::to_string(s) + ", " +
              std::to_string(oh) + "x" + std::to_string(oh) + " output",
          windowShapes("nhwc_hwc", batch, c, ih, k, s, oh)};
}

Description emitPool(ProgramWriter &w, std::vector<Value> &results,
                     const Layer &l, int64_t batch) {
  int64_t c = l.dims[0], oh = l.dims[1], k = l.dims[2], s = l.dims[3];
  int64_t ih = (oh - 1) * s + k;
  bool isMax = l.opClass == "max_pool";
  Value in = w.arg("input", {batch, ih, ih, c});
  std::string init =
      isMax ? w.constant("ninf", kNegInf) : w.constant("zero", "0.0");
  Value window = w.empty("window", {k, k});
  Shape outShape{batch, oh, oh, c};
  Value acc = w.fill("acc", init, w.empty("empty", outShape));
  Value pooled =
      w.named(isMax ? "out" : "sum",
              isMax ? "linalg.pooling_nhwc_max" : "linalg.pooling_nhwc_sum",
              convAttrs(s), {in, window}, acc);
  w.flops += double(numElements(outShape)) * k * k;
  if (isMax) {
    results.push_back(pooled);
  } else {
    std::string count = w.constant("count", std::to_string(k * k) + ".0");
    std::string id = w.map("id", 4);
    results.push_back(w.generic(
        "out", {{pooled, id}}, w.empty("avg_empty", outShape), id, 4, false,
        {"%s", "%o"},
        {"%r = arith.divf %s, " + count + " : f32", "linalg.yield %r : f32"},
        1));
  }
  return {std::to_string(k) + "x" + std::to_string(k) +
              (isMax ? " max" : " average") + " pooling (nhwc), " +
              std::to_string(c) + " channels, stride " + std::to_string(s) +
              ", " + std::to_string(oh) + "x" + std::to_string(oh) + " output",
          windowShapes("nhwc", batch, c, ih, k, s, oh)};
}

std::string shapeText(const Shape &shape) { return joinShape(shape, "x"); }

Description emitAdd(ProgramWriter &w, std::vector<Value> &results,
                    const Shape &shape) {
  Value a = w.arg("a", shape), b = w.arg("b", shape);
  results.push_back(
      w.named("c", "linalg.add", "", {a, b}, w.empty("empty", shape)));
  w.flops += double(numElements(shape));
  return {"elementwise add of two " + shapeText(shape) + " tensors",
          {{"shape", shape}}};
}

Description emitRelu(ProgramWriter &w, std::vector<Value> &results,
                     const Layer &l, const Shape &shape) {
  bool six = l.variant == "relu6";
  Value x = w.arg("x", shape);
  std::string zero = w.constant("zero", "0.0");
  std::vector<std::string> body = {"%r = arith.maximumf %v, " + zero +
                                   " : f32"};
  if (six) {
    std::string sixValue = w.constant("six", "6.0");
    body.push_back("%r6 = arith.minimumf %r, " + sixValue + " : f32");
    body.push_back("linalg.yield %r6 : f32");
  } else {
    body.push_back("linalg.yield %r : f32");
  }
  std::string id = w.map("id", shape.size());
  results.push_back(w.generic("y", {{x, id}}, w.empty("empty", shape), id,
                              shape.size(), false, {"%v", "%o"}, body,
                              six ? 2 : 1));
  return {std::string(six ? "ReLU6" : "ReLU") + " of a " + shapeText(shape) +
              " tensor",
          {{"shape", shape}}};
}

Description emitSoftmax(ProgramWriter &w, std::vector<Value> &results,
                        const Shape &shape) {
  size_t rank = shape.size();
  Shape rows(shape.begin(), shape.end() - 1);
  Value x = w.arg("x", shape);
  std::string ninf = w.constant("ninf", kNegInf);
  std::string zero = w.constant("zero", "0.0");
  std::string id = w.map("id", rank), row = w.map("rows", rank);
  Value rowsEmpty = w.empty("rows_empty", rows);
  Value maxInit = w.fill("max_init", ninf, rowsEmpty);
  Value max = w.generic(
      "max", {{x, id}}, maxInit, row, rank, true, {"%v", "%m"},
      {"%r = arith.maximumf %v, %m : f32", "linalg.yield %r : f32"}, 1);
  Value empty = w.empty("empty", shape);
  Value exp = w.generic("exp", {{x, id}, {max, row}}, empty, id, rank, false,
                        {"%v", "%m", "%o"},
                        {"%d = arith.subf %v, %m : f32",
                         "%e = math.exp %d : f32", "linalg.yield %e : f32"},
                        2);
  Value sumInit = w.fill("sum_init", zero, rowsEmpty);
  Value sum =
      w.generic("sum", {{exp, id}}, sumInit, row, rank, true, {"%e", "%s"},
                {"%r = arith.addf %e, %s : f32", "linalg.yield %r : f32"}, 1);
  results.push_back(w.generic(
      "y", {{exp, id}, {sum, row}}, empty, id, rank, false, {"%e", "%s", "%o"},
      {"%r = arith.divf %e, %s : f32", "linalg.yield %r : f32"}, 1));
  return {"softmax over the last dimension of a " + shapeText(shape) +
              " tensor (max, exp, sum, divide)",
          {{"shape", shape}}};
}

Description emitLayernorm(ProgramWriter &w, std::vector<Value> &results,
                          const Layer &l, int64_t batch) {
  int64_t seq = l.dims[0], hidden = l.dims[1];
  Shape shape{batch, seq, hidden}, rows{batch, seq};
  Value x = w.arg("x", shape), gamma = w.arg("gamma", {hidden}),
        beta = w.arg("beta", {hidden});
  std::string zero = w.constant("zero", "0.0");
  std::string n = w.constant("width", std::to_string(hidden) + ".0");
  // Hugging Face's layer_norm_eps: 1e-12 for BERT, 1e-5 for GPT-2.
  std::string eps = w.constant(
      "eps", l.network.rfind("bert", 0) == 0 ? "1.0e-12" : "1.0e-05");
  std::string id3 = w.map("id", 3), row3 = w.map("rows", 3),
              last3 = w.map("last", 3), id2 = w.map("id", 2);
  Value rowsEmpty = w.empty("rows_empty", rows);
  Value sumInit = w.fill("sum_init", zero, rowsEmpty);
  Value sum =
      w.generic("sum", {{x, id3}}, sumInit, row3, 3, true, {"%v", "%s"},
                {"%r = arith.addf %v, %s : f32", "linalg.yield %r : f32"}, 1);
  Value mean = w.generic(
      "mean", {{sum, id2}}, rowsEmpty, id2, 2, false, {"%s", "%o"},
      {"%r = arith.divf %s, " + n + " : f32", "linalg.yield %r : f32"}, 1);
  Value sqInit = w.fill("sq_init", zero, rowsEmpty);
  Value sq = w.generic(
      "sq", {{x, id3}, {mean, row3}}, sqInit, row3, 3, true, {"%v", "%m", "%s"},
      {"%d = arith.subf %v, %m : f32", "%d2 = arith.mulf %d, %d : f32",
       "%r = arith.addf %d2, %s : f32", "linalg.yield %r : f32"},
      3);
  Value rstd =
      w.generic("rstd", {{sq, id2}}, rowsEmpty, id2, 2, false, {"%s", "%o"},
                {"%var = arith.divf %s, " + n + " : f32",
                 "%ve = arith.addf %var, " + eps + " : f32",
                 "%r = math.rsqrt %ve : f32", "linalg.yield %r : f32"},
                3);
  results.push_back(w.generic(
      "y",
      {{x, id3}, {mean, row3}, {rstd, row3}, {gamma, last3}, {beta, last3}},
      w.empty("empty", shape), id3, 3, false,
      {"%v", "%m", "%r", "%g", "%b", "%o"},
      {"%d = arith.subf %v, %m : f32", "%nrm = arith.mulf %d, %r : f32",
       "%s = arith.mulf %nrm, %g : f32", "%res = arith.addf %s, %b : f32",
       "linalg.yield %res : f32"},
      4));
  return {"layer normalization over the last dimension of a " +
              shapeText(shape) + " tensor (mean, variance, normalize)",
          {{"shape", shape}}};
}

Description emitTranspose(ProgramWriter &w, std::vector<Value> &results,
                          const Layer &l, int64_t lead) {
  const std::string &v = l.variant;
  Shape inShape, outShape;
  std::vector<int64_t> perm;
  Value in;
  if (v == "heads") {
    int64_t seq = l.dims[0], heads = l.dims[1], d = l.dims[2];
    Value x = w.arg("x", {lead, seq, heads * d});
    inShape = {lead, seq, heads, d};
    w.line("%split = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape "
           "[" +
           joinShape(inShape, ", ") + "] : " + x.type() + " into " +
           tensorType(inShape));
    in = Value{"%split", inShape};
    perm = {0, 2, 1, 3};
  } else {
    if (v == "keys")
      inShape = {lead, l.dims[0], l.dims[1]};
    else
      inShape = concat({lead}, l.dims);
    in = w.arg("x", inShape);
    perm = v == "keys"           ? std::vector<int64_t>{0, 2, 1}
           : v == "nhwc_to_nchw" ? std::vector<int64_t>{0, 3, 1, 2}
                                 : std::vector<int64_t>{0, 2, 3, 1};
  }
  for (int64_t p : perm)
    outShape.push_back(in.shape[p]);
  results.push_back(w.named("y", "linalg.transpose", "", {in},
                            w.empty("empty", outShape),
                            "permutation = [" + joinShape(perm, ", ") + "]"));
  std::string what = v == "heads"  ? "split into heads"
                     : v == "keys" ? "keys transposed for the scores"
                                   : v;
  return {"transpose " + shapeText(in.shape) + " -> " + shapeText(outShape) +
              " (" + what + ")",
          {{"shape", in.shape}, {"permutation", perm}}};
}

Description emitChain(ProgramWriter &w, std::vector<Value> &results,
                      const Layer &l, const Shape &shape) {
  const std::string &v = l.variant;
  size_t rank = shape.size();
  Shape channels{shape.back()};
  std::string id = w.map("id", rank);
  Value x = w.arg("x", shape);
  Value empty;
  auto emptyOnce = [&] {
    if (empty.name.empty())
      empty = w.empty("empty", shape);
    return empty;
  };
  // One binary generic: out = lhs OP rhs, rhs mapped by `rhsMap`.
  auto binary = [&](const std::string &name, const Value &lhs, const Value &rhs,
                    const std::string &rhsMap, const std::string &op) {
    return w.generic(name, {{lhs, id}, {rhs, rhsMap}}, emptyOnce(), id, rank,
                     false, {"%a", "%b", "%o"},
                     {"%r = " + op + " %a, %b : f32", "linalg.yield %r : f32"},
                     1);
  };
  auto unary = [&](const std::string &name, const Value &in,
                   const std::vector<std::string> &body, int ops) {
    return w.generic(name, {{in, id}}, emptyOnce(), id, rank, false,
                     {"%a", "%o"}, body, ops);
  };
  std::string text;
  Value out;
  if (v == "bias_relu") {
    Value bias = w.arg("bias", channels);
    std::string zero = w.constant("zero", "0.0");
    Value biased = binary("biased", x, bias, w.map("last", rank), "arith.addf");
    out = unary(
        "y", biased,
        {"%r = arith.maximumf %a, " + zero + " : f32", "linalg.yield %r : f32"},
        1);
    text = "bias add -> ReLU";
  } else if (v == "bn_relu" || v == "bn_add_relu" || v == "bn_relu6") {
    Value scale = w.arg("scale", channels), shift = w.arg("shift", channels);
    std::string zero = w.constant("zero", "0.0");
    std::string last = w.map("last", rank);
    Value scaled = binary("scaled", x, scale, last, "arith.mulf");
    Value shifted = binary("shifted", scaled, shift, last, "arith.addf");
    text = "batch-norm scale -> shift";
    if (v == "bn_add_relu") {
      Value residual = w.arg("residual", shape);
      shifted = binary("summed", shifted, residual, id, "arith.addf");
      text += " -> residual add";
    }
    if (v == "bn_relu6") {
      std::string six = w.constant("six", "6.0");
      out = unary("y", shifted,
                  {"%r = arith.maximumf %a, " + zero + " : f32",
                   "%r6 = arith.minimumf %r, " + six + " : f32",
                   "linalg.yield %r6 : f32"},
                  2);
      text += " -> ReLU6";
    } else {
      out = unary("y", shifted,
                  {"%r = arith.maximumf %a, " + zero + " : f32",
                   "linalg.yield %r : f32"},
                  1);
      text += " -> ReLU";
    }
  } else if (v == "bias_gelu") {
    Value bias = w.arg("bias", channels);
    std::string c0 = w.constant("c0", "0.797884583"); // sqrt(2 / pi)
    std::string c1 = w.constant("c1", "4.471500e-02");
    std::string one = w.constant("one", "1.0");
    std::string half = w.constant("half", "0.5");
    Value h = binary("biased", x, bias, w.map("last", rank), "arith.addf");
    Value u = unary(
        "inner", h,
        {"%a2 = arith.mulf %a, %a : f32", "%a3 = arith.mulf %a2, %a : f32",
         "%t = arith.mulf %a3, " + c1 + " : f32",
         "%s = arith.addf %a, %t : f32", "%r = arith.mulf %s, " + c0 + " : f32",
         "linalg.yield %r : f32"},
        5);
    Value t = unary("tanh", u,
                    {"%r = math.tanh %a : f32", "linalg.yield %r : f32"}, 1);
    out = w.generic("y", {{h, id}, {t, id}}, emptyOnce(), id, rank, false,
                    {"%a", "%t", "%o"},
                    {"%p = arith.addf %t, " + one + " : f32",
                     "%q = arith.mulf %a, %p : f32",
                     "%r = arith.mulf %q, " + half + " : f32",
                     "linalg.yield %r : f32"},
                    3);
    text = "bias add -> GELU (tanh form: polynomial -> tanh -> gate)";
  } else {
    assert(v == "scale_mask" && "unknown chain");
    Shape maskShape(shape.begin() + 1, shape.end());
    Value mask = w.arg("mask", maskShape);
    std::string scale = w.constant("scale", "0.125"); // 1 / sqrt(64)
    Value scaled = unary(
        "scaled", x,
        {"%r = arith.mulf %a, " + scale + " : f32", "linalg.yield %r : f32"},
        1);
    out = binary("y", scaled, mask, w.map("tail", rank), "arith.addf");
    text = "attention scores scaled by 1/sqrt(64) -> mask added";
  }
  results.push_back(out);
  return {"elementwise chain on a " + shapeText(shape) + " tensor: " + text,
          {{"shape", shape}, {"chain", v}}};
}

} // namespace

Emitted emitProgram(const Layer &l, int64_t lead, const std::string &funcName,
                    const std::string &note) {
  ProgramWriter w;
  std::vector<Value> results;
  Shape act = concat({lead}, l.dims);
  Description d;
  const std::string &c = l.opClass;
  if (c == "matmul")
    d = emitMatmul(w, results, l, lead);
  else if (c == "batch_matmul")
    d = emitBatchMatmul(w, results, l, lead);
  else if (c == "matvec")
    d = emitMatvec(w, results, l);
  else if (c == "conv_2d")
    d = emitConv(w, results, l, lead);
  else if (c == "depthwise_conv_2d")
    d = emitDepthwise(w, results, l, lead);
  else if (c == "max_pool" || c == "avg_pool")
    d = emitPool(w, results, l, lead);
  else if (c == "add")
    d = emitAdd(w, results, act);
  else if (c == "relu")
    d = emitRelu(w, results, l, act);
  else if (c == "softmax")
    d = emitSoftmax(w, results, act);
  else if (c == "layernorm")
    d = emitLayernorm(w, results, l, lead);
  else if (c == "transpose")
    d = emitTranspose(w, results, l, lead);
  else if (c == "elementwise_chain")
    d = emitChain(w, results, l, act);
  else
    assert(false && "unknown op class");

  Emitted e;
  std::string header = "// " + l.network + "/" + l.layer + ": " + d.text +
                       ".\n// " + note + "\n";
  e.mlir = w.finish(header, funcName, results);
  e.flops = w.flops;
  nlohmann::json args = nlohmann::json::array(), outs = nlohmann::json::array();
  for (const Value &a : w.args) {
    args.push_back(a.shape);
    e.bytes += 4.0 * numElements(a.shape);
  }
  for (const Value &r : results) {
    outs.push_back(r.shape);
    e.bytes += 4.0 * numElements(r.shape);
  }
  e.shapes = d.sizes;
  e.shapes["args"] = args;
  e.shapes["results"] = outs;
  return e;
}

} // namespace rlopt::data::detail
