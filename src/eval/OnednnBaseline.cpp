#include "rlopt/eval/OnednnBaseline.h"

#include <dnnl.hpp>

#include <algorithm>
#include <unordered_map>

// Debian's libdnnl2 (2.6) uses the OpenMP runtime and links GNU libgomp
// (ldd), but rlopt links LLVM's libomp ahead of it, and libomp also defines
// libgomp's entry points: oneDNN's omp_* and GOMP_parallel calls bind to
// libomp (LD_DEBUG=bindings), the runtime the JIT-compiled candidates use, so
// omp_set_num_threads here sets the number of threads oneDNN runs on (1 or 2
// OS threads after a matmul with 1 or 2).
extern "C" int omp_get_max_threads(void);
extern "C" void omp_set_num_threads(int);

namespace rlopt::eval {

namespace {

using dnnl::memory;
using linalg::RawTensor;
using Kernel = std::function<void()>;
using Shape = std::vector<int64_t>;
using Tag = memory::format_tag;

const char *const kCovered[] = {"matmul",   "batch_matmul",
                                "conv_2d",  "depthwise_conv_2d",
                                "max_pool", "avg_pool"};

/// One of the program's tensors as oneDNN sees it: logical dims in oneDNN's
/// order (N, C, H, W; O, I, H, W) over the program's own layout, and the
/// primitive argument it is.
struct PlannedTensor {
  Shape programShape;
  memory::desc desc;
  int argument;
};

/// A benchmark as one oneDNN primitive over the program's tensors.
struct Plan {
  dnnl::primitive_desc primitive;
  std::vector<PlannedTensor> inputs, outputs;
};

memory::desc f32(const Shape &dims, Tag tag) {
  return memory::desc(dims, memory::data_type::f32, tag);
}

std::string text(const Shape &shape) {
  std::string out;
  for (int64_t d : shape)
    out += (out.empty() ? "" : "x") + std::to_string(d);
  return out;
}

/// The manifest's sizes, remembering the first required one that is missing.
class Sizes {
public:
  explicit Sizes(const nlohmann::json &shapes) : shapes(shapes) {}

  int64_t operator()(const char *key) {
    if (has(key))
      return shapes[key].get<int64_t>();
    if (missing.empty())
      missing = key;
    return 1;
  }
  int64_t get(const char *key, int64_t fallback) const {
    return has(key) ? shapes[key].get<int64_t>() : fallback;
  }
  std::string string(const char *key) const {
    return shapes.is_object() && shapes.contains(key) && shapes[key].is_string()
               ? shapes[key].get<std::string>()
               : "";
  }
  Status check(const std::string &opClass) const {
    if (missing.empty())
      return Status::success();
    return makeError("oneDNN baseline: the " + opClass +
                     " manifest shapes lack '" + missing + "'");
  }

private:
  bool has(const char *key) const {
    return shapes.is_object() && shapes.contains(key) &&
           shapes[key].is_number_integer();
  }
  const nlohmann::json &shapes;
  std::string missing;
};

Result<Plan> planMatmul(const nlohmann::json &shapes, bool batched,
                        const dnnl::engine &engine) {
  Sizes size(shapes);
  int64_t m = size("M"), k = size("K"), n = size("N");
  Shape a = {m, k}, b = {k, n}, c = {m, n};
  if (batched)
    for (Shape *dims : {&a, &b, &c})
      dims->insert(dims->begin(), size("B"));
  if (Status s = size.check(batched ? "batch_matmul" : "matmul"); !s)
    return s.error();
  // Both operands as the program stores them (row-major): in attention
  // both are activations, so neither may be packed ahead of time.
  Tag plain = batched ? Tag::abc : Tag::ab;
  Plan plan;
  plan.inputs = {{a, f32(a, plain), DNNL_ARG_SRC},
                 {b, f32(b, plain), DNNL_ARG_WEIGHTS}};
  plan.outputs = {{c, f32(c, plain), DNNL_ARG_DST}};
  plan.primitive = dnnl::matmul::primitive_desc(
      dnnl::matmul::desc(plan.inputs[0].desc, plan.inputs[1].desc,
                         plan.outputs[0].desc),
      engine);
  return plan;
}

/// A square window's geometry. oneDNN counts dilation from 0 (no gaps),
/// rlopt and MLIR from 1.
struct Window {
  int64_t n, c, h, w, kh, kw, oh, ow;
  memory::dims strides, dilation, padding;
};

/// The window sizes of `opClass`, checked against the output size the
/// manifest states, so an unknown convention is an error and not a guess.
Result<Window> windowOf(const nlohmann::json &shapes,
                        const std::string &opClass) {
  Sizes size(shapes);
  Window w{size("N"),  size("C"),  size("H"), size("W"), size("KH"), size("KW"),
           size("OH"), size("OW"), {},        {},        {}};
  if (Status s = size.check(opClass); !s)
    return s.error();
  int64_t stride = size.get("stride", 1), padding = size.get("padding", 0),
          dilation = size.get("dilation", 1);
  if (stride < 1 || dilation < 1 || padding < 0)
    return makeError("oneDNN baseline: " + opClass + " stride " +
                     std::to_string(stride) + ", dilation " +
                     std::to_string(dilation) + ", padding " +
                     std::to_string(padding) + " are not valid");
  auto extent = [&](int64_t input, int64_t window) {
    return (input + 2 * padding - (window - 1) * dilation - 1) / stride + 1;
  };
  if (extent(w.h, w.kh) != w.oh || extent(w.w, w.kw) != w.ow)
    return makeError(
        "oneDNN baseline: " + opClass + " output " + std::to_string(w.oh) +
        "x" + std::to_string(w.ow) + " does not follow from input " +
        std::to_string(w.h) + "x" + std::to_string(w.w) + ", window " +
        std::to_string(w.kh) + "x" + std::to_string(w.kw) + ", stride " +
        std::to_string(stride) + ", padding " + std::to_string(padding) +
        ", dilation " + std::to_string(dilation));
  w.strides = {stride, stride};
  w.dilation = {dilation - 1, dilation - 1};
  w.padding = {padding, padding};
  return w;
}

Result<Plan> planConvolution(const nlohmann::json &shapes, bool depthwise,
                             const dnnl::engine &engine) {
  std::string opClass = depthwise ? "depthwise_conv_2d" : "conv_2d";
  Sizes size(shapes);
  auto window = windowOf(shapes, opClass);
  if (!window)
    return window.error();
  const Window &w = *window;
  int64_t f = depthwise ? w.c : size("F");
  if (Status s = size.check(opClass); !s)
    return s.error();
  std::string layout = size.string("layout");
  Shape src = {w.n, w.c, w.h, w.w}, dst = {w.n, f, w.oh, w.ow};
  // Depthwise weights are C groups of one 1x1-channel filter each.
  Shape weights =
      depthwise ? Shape{w.c, 1, 1, w.kh, w.kw} : Shape{f, w.c, w.kh, w.kw};
  Plan plan;
  if (!depthwise && layout == "nhwc_hwcf") {
    plan.inputs = {
        {{w.n, w.h, w.w, w.c}, f32(src, Tag::nhwc), DNNL_ARG_SRC},
        {{w.kh, w.kw, w.c, f}, f32(weights, Tag::hwio), DNNL_ARG_WEIGHTS}};
    plan.outputs = {{{w.n, w.oh, w.ow, f}, f32(dst, Tag::nhwc), DNNL_ARG_DST}};
  } else if (!depthwise && layout == "nchw_fchw") {
    plan.inputs = {{src, f32(src, Tag::nchw), DNNL_ARG_SRC},
                   {weights, f32(weights, Tag::oihw), DNNL_ARG_WEIGHTS}};
    plan.outputs = {{dst, f32(dst, Tag::nchw), DNNL_ARG_DST}};
  } else if (depthwise && layout == "nhwc_hwc") {
    plan.inputs = {
        {{w.n, w.h, w.w, w.c}, f32(src, Tag::nhwc), DNNL_ARG_SRC},
        {{w.kh, w.kw, w.c}, f32(weights, Tag::hwigo), DNNL_ARG_WEIGHTS}};
    plan.outputs = {
        {{w.n, w.oh, w.ow, w.c}, f32(dst, Tag::nhwc), DNNL_ARG_DST}};
  } else {
    return makeError("oneDNN baseline: " + opClass + " layout '" + layout +
                     "' not covered");
  }
  // Weights in the layout oneDNN's fastest kernel wants (reordered once when
  // the kernel is prepared); direct convolution, not Winograd, keeps the
  // program's arithmetic, so outputs compare at the usual tolerance.
  dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
      plan.inputs[0].desc, f32(weights, Tag::any), plan.outputs[0].desc,
      w.strides, w.dilation, w.padding, w.padding);
  plan.primitive = dnnl::convolution_forward::primitive_desc(desc, engine);
  return plan;
}

Result<Plan> planPooling(const nlohmann::json &shapes, bool average,
                         const dnnl::engine &engine) {
  std::string opClass = average ? "avg_pool" : "max_pool";
  if (Sizes(shapes).string("layout") != "nhwc")
    return makeError("oneDNN baseline: " + opClass + " layout must be nhwc");
  auto window = windowOf(shapes, opClass);
  if (!window)
    return window.error();
  const Window &w = *window;
  Shape src = {w.n, w.c, w.h, w.w}, dst = {w.n, w.c, w.oh, w.ow};
  Plan plan;
  plan.inputs = {{{w.n, w.h, w.w, w.c}, f32(src, Tag::nhwc), DNNL_ARG_SRC}};
  plan.outputs = {{{w.n, w.oh, w.ow, w.c}, f32(dst, Tag::nhwc), DNNL_ARG_DST}};
  // The program divides every window's sum by KH*KW, padded or not.
  dnnl::algorithm algorithm = average
                                  ? dnnl::algorithm::pooling_avg_include_padding
                                  : dnnl::algorithm::pooling_max;
  dnnl::pooling_v2_forward::desc desc(
      dnnl::prop_kind::forward_inference, algorithm, plan.inputs[0].desc,
      plan.outputs[0].desc, w.strides, {w.kh, w.kw}, w.dilation, w.padding,
      w.padding);
  plan.primitive = dnnl::pooling_v2_forward::primitive_desc(desc, engine);
  return plan;
}

/// The primitive for `opClass`; oneDNN reports failures as exceptions, which
/// end here.
Result<Plan> plan(const std::string &opClass, const nlohmann::json &shapes,
                  const dnnl::engine &engine) {
  try {
    if (opClass == "matmul" || opClass == "batch_matmul")
      return planMatmul(shapes, opClass == "batch_matmul", engine);
    if (opClass == "conv_2d" || opClass == "depthwise_conv_2d")
      return planConvolution(shapes, opClass == "depthwise_conv_2d", engine);
    return planPooling(shapes, opClass == "avg_pool", engine);
  } catch (const dnnl::error &e) {
    return makeError("oneDNN baseline: no " + opClass +
                     " primitive for these shapes: " + e.what());
  }
}

/// Runs `body` with OpenMP, and so oneDNN, on `threads` threads, then
/// restores the caller's count.
template <typename Body> auto withThreads(int threads, Body body) {
  int previous = omp_get_max_threads();
  omp_set_num_threads(threads);
  auto result = body();
  omp_set_num_threads(previous);
  return result;
}

/// The program's tensor `raw` as the memory `planned` describes, checked.
Result<memory> wrap(const PlannedTensor &planned, const RawTensor &raw,
                    const std::string &role, const dnnl::engine &engine) {
  if (raw.isF64)
    return makeError("oneDNN baseline covers f32 tensors only, " + role +
                     " is f64");
  if (raw.shape != planned.programShape)
    return makeError("oneDNN baseline: " + role + " is " + text(raw.shape) +
                     " but the manifest shapes give " +
                     text(planned.programShape));
  return memory(planned.desc, engine, raw.data);
}

/// Binds the plan to the worker's tensors: the returned kernel runs the
/// primitive on them with no copy; weights oneDNN wants in another layout
/// are reordered here, once.
Result<Kernel> bindTensors(const Plan &plan, const std::string &plannedImpl,
                           const std::vector<RawTensor> &in,
                           const std::vector<RawTensor> &out,
                           const dnnl::engine &engine) {
  std::string impl = plan.primitive.impl_info_str();
  if (impl != plannedImpl)
    return makeError("oneDNN baseline: the worker got implementation '" + impl +
                     "', planned '" + plannedImpl + "'");
  if (in.size() != plan.inputs.size() || out.size() != plan.outputs.size())
    return makeError("oneDNN baseline: the program has " +
                     std::to_string(in.size()) + " inputs and " +
                     std::to_string(out.size()) + " outputs, the op " +
                     std::to_string(plan.inputs.size()) + " and " +
                     std::to_string(plan.outputs.size()));
  dnnl::stream stream(engine);
  std::unordered_map<int, memory> args;
  for (size_t i = 0; i < in.size(); ++i) {
    const PlannedTensor &planned = plan.inputs[i];
    auto user = wrap(planned, in[i], "input " + std::to_string(i), engine);
    if (!user)
      return user.error();
    memory::desc wanted =
        plan.primitive.query_md(dnnl::query::exec_arg_md, planned.argument);
    if (wanted == planned.desc) {
      args[planned.argument] = *user;
      continue;
    }
    if (planned.argument != DNNL_ARG_WEIGHTS)
      return makeError("oneDNN baseline: input " + std::to_string(i) +
                       " would need a copy on every call");
    memory packed(wanted, engine);
    dnnl::reorder(*user, packed).execute(stream, *user, packed);
    args[planned.argument] = packed;
  }
  for (size_t i = 0; i < out.size(); ++i) {
    const PlannedTensor &planned = plan.outputs[i];
    auto user = wrap(planned, out[i], "output " + std::to_string(i), engine);
    if (!user)
      return user.error();
    if (plan.primitive.query_md(dnnl::query::exec_arg_md, planned.argument) !=
        planned.desc)
      return makeError("oneDNN baseline: output " + std::to_string(i) +
                       " would need a copy on every call");
    args[planned.argument] = *user;
  }
  dnnl::primitive primitive(plan.primitive);
  // One run here, where an exception can still become an error.
  primitive.execute(stream, args);
  stream.wait();
  return Kernel([primitive, stream, args]() mutable {
    primitive.execute(stream, args);
    stream.wait();
  });
}

} // namespace

Result<linalg::ExternalBaseline> onednnBaseline(const std::string &opClass,
                                                const nlohmann::json &shapes,
                                                int threads) {
  if (std::find(std::begin(kCovered), std::end(kCovered), opClass) ==
      std::end(kCovered))
    return makeError("oneDNN baseline does not cover op class '" + opClass +
                     "'");
  // Planned here as well as in the worker: a bad manifest fails before any
  // worker starts, and the implementation is known even when the timing
  // comes from the cache. oneDNN picks it by shape, machine and threads.
  auto impl = withThreads(threads, [&]() -> Result<std::string> {
    try {
      auto planned =
          plan(opClass, shapes, dnnl::engine(dnnl::engine::kind::cpu, 0));
      if (!planned)
        return planned.error();
      return std::string(planned->primitive.impl_info_str());
    } catch (const dnnl::error &e) {
      return makeError(std::string("oneDNN baseline: ") + e.what());
    }
  });
  if (!impl)
    return impl.error();
  linalg::ExternalBaseline baseline;
  baseline.name = "onednn";
  baseline.info = *impl;
  baseline.version = onednnConfiguration();
  baseline.prepare = [opClass, shapes, threads, plannedImpl = *impl](
                         const std::vector<RawTensor> &in,
                         const std::vector<RawTensor> &out) -> Result<Kernel> {
    omp_set_num_threads(threads);
    try {
      dnnl::engine engine(dnnl::engine::kind::cpu, 0);
      auto planned = plan(opClass, shapes, engine);
      if (!planned)
        return planned.error();
      return bindTensors(*planned, plannedImpl, in, out, engine);
    } catch (const dnnl::error &e) {
      return makeError("oneDNN baseline: " + opClass + ": " + e.what());
    }
  };
  return baseline;
}

std::string onednnConfiguration() {
  const dnnl_version_t *v = dnnl::version();
  std::string runtime = v->cpu_runtime == DNNL_RUNTIME_OMP   ? "OpenMP"
                        : v->cpu_runtime == DNNL_RUNTIME_TBB ? "TBB"
                        : v->cpu_runtime == DNNL_RUNTIME_SEQ ? "sequential"
                                                             : "threadpool";
  return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) +
         "." + std::to_string(v->patch) + " (" + runtime + ")";
}

} // namespace rlopt::eval
