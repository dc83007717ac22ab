#include "rlopt/eval/TorchBaseline.h"

#include <torch/torch.h>
#include <torch/version.h>

#include <dlfcn.h>
#include <filesystem>

namespace rlopt::eval {

namespace {

using linalg::RawTensor;
using Kernel = std::function<void()>;

torch::Tensor wrap(const RawTensor &t) {
  return torch::from_blob(t.data, t.shape,
                          t.isF64 ? torch::kFloat64 : torch::kFloat32);
}

/// An NHWC buffer seen as the NCHW tensor PyTorch expects (channels last).
torch::Tensor nchwView(const RawTensor &t) {
  return wrap(t).permute({0, 3, 1, 2});
}

/// The library behind libblas.so.3, which LibTorch's matmuls call.
std::string systemBlas() {
  std::error_code ec;
  std::string blas =
      std::filesystem::canonical("/usr/lib/x86_64-linux-gnu/libblas.so.3", ec)
          .string();
  return blas.empty() ? "not found" : blas;
}

int64_t get(const nlohmann::json &shapes, const char *key, int64_t fallback) {
  return shapes.contains(key) ? shapes[key].get<int64_t>() : fallback;
}

Result<Kernel> convolution(const nlohmann::json &shapes,
                           const std::vector<RawTensor> &in,
                           const std::vector<RawTensor> &out, bool depthwise) {
  std::string layout = shapes.value("layout", "");
  int64_t stride = get(shapes, "stride", 1);
  torch::Tensor input, weight, output;
  if (layout == "nhwc_hwcf") {
    input = nchwView(in[0]);
    weight = wrap(in[1]).permute({3, 2, 0, 1}).contiguous();
    output = nchwView(out[0]);
  } else if (layout == "nchw_fchw") {
    input = wrap(in[0]);
    weight = wrap(in[1]).contiguous();
    output = wrap(out[0]);
  } else if (layout == "nhwc_hwc" && depthwise) {
    input = nchwView(in[0]);
    weight = wrap(in[1]).permute({2, 0, 1}).unsqueeze(1).contiguous();
    output = nchwView(out[0]);
  } else {
    return makeError("LibTorch baseline: unknown convolution layout '" +
                     layout + "'");
  }
  int64_t groups = depthwise ? input.size(1) : 1;
  if (layout != "nchw_fchw")
    weight = weight.contiguous(torch::MemoryFormat::ChannelsLast);
  return Kernel([=]() mutable {
    std::vector<int64_t> strides = {stride, stride}, padding = {0, 0},
                         dilation = {1, 1};
    output.copy_(at::conv2d(
        input, weight, torch::Tensor(), torch::IntArrayRef(strides),
        torch::IntArrayRef(padding), torch::IntArrayRef(dilation), groups));
  });
}

Result<Kernel> pooling(const nlohmann::json &shapes,
                       const std::vector<RawTensor> &in,
                       const std::vector<RawTensor> &out, bool average) {
  if (shapes.value("layout", "") != "nhwc")
    return makeError("LibTorch baseline: pooling layout must be nhwc");
  torch::Tensor input = nchwView(in[0]), output = nchwView(out[0]);
  int64_t kh = get(shapes, "KH", 1), kw = get(shapes, "KW", 1);
  int64_t stride = get(shapes, "stride", 1);
  return Kernel([=]() mutable {
    output.copy_(average ? torch::avg_pool2d(input, {kh, kw}, stride)
                         : torch::max_pool2d(input, {kh, kw}, stride));
  });
}

} // namespace

Result<linalg::ExternalBaseline> torchBaseline(const std::string &opClass,
                                               const nlohmann::json &shapes,
                                               int threads) {
  static const std::vector<std::string> covered = {
      "matmul",    "batch_matmul", "matvec", "conv_2d", "depthwise_conv_2d",
      "max_pool",  "avg_pool",     "add",    "relu",    "softmax",
      "layernorm", "transpose"};
  if (std::find(covered.begin(), covered.end(), opClass) == covered.end())
    return makeError("LibTorch baseline does not cover op class '" + opClass +
                     "'");
  linalg::ExternalBaseline baseline;
  baseline.name = "torch";
  baseline.version =
      std::string("LibTorch ") + TORCH_VERSION + ", BLAS " + systemBlas();
  baseline.prepare = [opClass, shapes, threads](
                         const std::vector<RawTensor> &in,
                         const std::vector<RawTensor> &out) -> Result<Kernel> {
    torch::set_num_threads(threads);
    // LibTorch calls the system BLAS; OpenBLAS keeps its own thread pool.
    using SetThreads = void (*)(int);
    if (auto set = reinterpret_cast<SetThreads>(
            dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
      set(threads);
    torch::NoGradGuard noGrad;
    torch::Tensor result = wrap(out[0]);
    // A third input is the accumulator the program writes into
    // (destination-passing style): C + A B.
    bool accumulates = in.size() == 3;
    if (accumulates && opClass == "matmul")
      return Kernel([a = wrap(in[0]), b = wrap(in[1]), c = wrap(in[2]),
                     result]() mutable { torch::addmm_out(result, c, a, b); });
    if (accumulates && opClass == "batch_matmul")
      return Kernel(
          [a = wrap(in[0]), b = wrap(in[1]), c = wrap(in[2]),
           result]() mutable { torch::baddbmm_out(result, c, a, b); });
    if (opClass == "matmul")
      return Kernel([a = wrap(in[0]), b = wrap(in[1]), result]() mutable {
        torch::matmul_out(result, a, b);
      });
    if (opClass == "batch_matmul")
      return Kernel([a = wrap(in[0]), b = wrap(in[1]), result]() mutable {
        torch::bmm_out(result, a, b);
      });
    if (opClass == "matvec")
      return Kernel([a = wrap(in[0]), x = wrap(in[1]), result]() mutable {
        torch::mv_out(result, a, x);
      });
    if (opClass == "conv_2d")
      return convolution(shapes, in, out, false);
    if (opClass == "depthwise_conv_2d")
      return convolution(shapes, in, out, true);
    if (opClass == "max_pool" || opClass == "avg_pool")
      return pooling(shapes, in, out, opClass == "avg_pool");
    if (opClass == "add")
      return Kernel([a = wrap(in[0]), b = wrap(in[1]), result]() mutable {
        torch::add_out(result, a, b);
      });
    if (opClass == "relu") {
      if (shapes.value("variant", "relu") != "relu")
        return makeError("LibTorch baseline: relu variant '" +
                         shapes.value("variant", "") + "' not covered");
      return Kernel([x = wrap(in[0]), result]() mutable {
        torch::clamp_min_out(result, x, 0);
      });
    }
    if (opClass == "softmax")
      return Kernel([x = wrap(in[0]), result]() mutable {
        result.copy_(torch::softmax(x, -1));
      });
    if (opClass == "layernorm") {
      if (in.size() != 3)
        return makeError("LibTorch baseline: layernorm takes x, gamma, beta");
      int64_t width = in[0].shape.back();
      return Kernel([x = wrap(in[0]), g = wrap(in[1]), b = wrap(in[2]), width,
                     result]() mutable {
        result.copy_(torch::layer_norm(x, {width}, g, b, 1e-12));
      });
    }
    // transpose: the input viewed with "shape", then permuted.
    std::vector<int64_t> view = shapes.value("shape", std::vector<int64_t>());
    std::vector<int64_t> perm =
        shapes.value("permutation", std::vector<int64_t>());
    if (view.empty() || perm.size() != view.size())
      return makeError("LibTorch baseline: transpose needs shape and "
                       "permutation in the manifest");
    return Kernel([x = wrap(in[0]).view(view).permute(perm), result]() mutable {
      result.copy_(x);
    });
  };
  return baseline;
}

std::string torchConfiguration() {
  return at::show_config() + "  - libblas.so.3: " + systemBlas() + "\n";
}

} // namespace rlopt::eval
