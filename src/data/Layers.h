// Network layers as Linalg on tensors, for programs of many ops (chains and
// whole networks): each call writes the layer's ops into a ProgramWriter
// and returns its result. Activations are NHWC, convolution filters HWCF;
// every layer reads its input directly, so the analysis sees an edge from
// the producing op, except where noted.
#ifndef RLOPT_SRC_DATA_LAYERS_H
#define RLOPT_SRC_DATA_LAYERS_H

#include "ProgramWriter.h"

namespace rlopt::data::detail {

class LayerWriter {
public:
  explicit LayerWriter(ProgramWriter &writer) : w(writer) {}

  /// A function argument (input or weight) named `name` or a fresh
  /// variant of it.
  Value arg(const std::string &name, const Shape &shape);

  /// A linear layer: x [M, K] times a new weight argument NAME_w [K,
  /// outputs], with a new bias argument NAME_b (fanInScaledBias).
  Value linear(const std::string &name, const Value &x, int64_t outputs);
  /// x [M, K] times w [K, N]: fill, linalg.matmul.
  Value matmul(const std::string &name, const Value &x, const Value &weight);
  /// a [B, M, K] times b [B, K, N]: fill, linalg.batch_matmul.
  Value batchMatmul(const std::string &name, const Value &a, const Value &b);
  /// Unpadded convolution of x [N, H, W, C] with a [K, K, C, F] filter:
  /// fill, linalg.conv_2d_nhwc_hwcf.
  Value conv(const std::string &name, const Value &x, const Value &filter,
             int64_t stride);
  /// Unpadded depthwise convolution with a [K, K, C] filter: fill,
  /// linalg.depthwise_conv_2d_nhwc_hwc.
  Value depthwise(const std::string &name, const Value &x, const Value &filter,
                  int64_t stride);
  /// Unpadded max pooling: fill with -inf, linalg.pooling_nhwc_max.
  Value maxPool(const std::string &name, const Value &x, int64_t window,
                int64_t stride);
  /// Zero (or -inf, for max pooling) border of `amount` pixels around the
  /// spatial dims of x [N, H, W, C]: a tensor.pad, as networks are written.
  /// The analysis sees no edge through it.
  Value pad(const std::string &name, const Value &x, int64_t amount,
            bool negInf = false);
  /// Mean over H and W: x [N, H, W, C] -> [N, C]; fill, sum, divide.
  Value globalAvgPool(const std::string &name, const Value &x);

  /// Elementwise generics; `bias`, `scale` and `shift` run along the last
  /// dimension.
  Value biasAdd(const std::string &name, const Value &x, const Value &bias);
  /// x / sqrt(fanIn) + bias: the epilogue of the networks' linear layers
  /// and convolutions. Benchmark weights are arguments the measurement
  /// fills with uniform [-1, 1] values; the constant factor makes them act
  /// as PyTorch's default initialization (uniform within 1/sqrt(fan-in)),
  /// which real weights would absorb, so that deep networks stay well
  /// conditioned for the output check instead of amplifying rounding.
  Value fanInScaledBias(const std::string &name, const Value &x, int64_t fanIn,
                        const Value &bias);
  /// Inference batch norm: x * scale + shift.
  Value scaleShift(const std::string &name, const Value &x, const Value &scale,
                   const Value &shift);
  Value relu(const std::string &name, const Value &x);
  Value relu6(const std::string &name, const Value &x);
  /// GELU, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))),
  /// written as x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3))).
  Value gelu(const std::string &name, const Value &x);
  /// Attention scores times `scale` plus an additive mask over the last two
  /// dimensions (the same for every leading index).
  Value scaleMask(const std::string &name, const Value &x,
                  const std::string &scale, const Value &mask);
  /// linalg.add of two tensors of one shape.
  Value add(const std::string &name, const Value &x, const Value &y);

  /// Softmax over the last dimension: max, exp, sum, divide (two fills).
  Value softmax(const std::string &name, const Value &x);
  /// Layer normalization over the last dimension with `eps` (an f32
  /// literal): sum, mean, squared deviations, rstd, normalize (two fills).
  Value layernorm(const std::string &name, const Value &x, const Value &gamma,
                  const Value &beta, const std::string &eps);
  /// linalg.transpose.
  Value transpose(const std::string &name, const Value &x,
                  const std::vector<int64_t> &permutation);

  Value expand(const std::string &name, const Value &x,
               const std::vector<std::vector<int>> &groups,
               const Shape &shape) {
    return w.expand(w.fresh(name), x, groups, shape);
  }
  Value collapse(const std::string &name, const Value &x,
                 const std::vector<std::vector<int>> &groups) {
    return w.collapse(w.fresh(name), x, groups);
  }

  ProgramWriter &writer() { return w; }

private:
  Value zeroed(const std::string &name, const Shape &shape);
  /// One generic over x's points with x and `extras` (value, map) as inputs.
  Value pointwise(const std::string &name, const Value &x,
                  const std::vector<std::pair<Value, std::string>> &extras,
                  const std::vector<std::string> &body, int opsPerPoint);

  ProgramWriter &w;
};

} // namespace rlopt::data::detail

#endif
