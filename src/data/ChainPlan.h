// Plans of producer -> consumer chains: a start tensor taken from a layer of
// the table and a sequence of stages, each consuming the previous stage's
// result. Which stage may follow which is a small grammar of the layer
// sequences real networks have (convolution -> bias or batch norm ->
// activation or residual add -> next convolution or pooling; matmul ->
// bias -> GELU -> matmul; scores -> scale and mask -> softmax -> context);
// stage parameters (filters, kernels, strides, widths) come from layers of
// the table.
#ifndef RLOPT_SRC_DATA_CHAINPLAN_H
#define RLOPT_SRC_DATA_CHAINPLAN_H

#include "OpSuiteInternal.h"
#include "Rng.h"

#include <optional>

namespace rlopt::data::detail {

/// What the tensor between two stages is.
enum class Domain {
  Image,  ///< [batch, H, W, C]
  Tokens, ///< [batch * seq, width]; seq is 1 for a CNN's classifier
  Heads,  ///< [batch * heads, seq, 64 or seq]
};

struct Stage {
  std::string kind;    ///< one of chainOpKinds()
  int64_t outputs = 0; ///< conv filters, matmul columns
  int64_t kernel = 0, stride = 1;
  /// batch_matmul: the chain's tensor is the right operand (transposed
  /// keys), not the left.
  bool rhs = false;
  std::string source; ///< network/layer the parameters come from
};

struct ChainPlan {
  Domain domain = Domain::Image; ///< of the start tensor
  bool transformer = false;      ///< BERT or GPT-2 (else a CNN)
  bool nchwInput = false; ///< the start tensor is NCHW (first stage transposes)
  /// The chain hands its result on in NCHW: the last stage transposes.
  bool endsInNchw = false;
  std::string network; ///< the seed layer's network
  std::string source;  ///< the seed layer, network/layer
  /// The start tensor's last dim (Image: C; Tokens: width; Heads: 64), or 0
  /// for a Heads tensor whose last dim is the sequence.
  int64_t width = 0;
  int64_t fullLead = 1; ///< batch (or batch * heads) at full scale
  int64_t fullRows = 1; ///< H (Image) or seq (Tokens, Heads) at full scale
  std::vector<Stage> stages;
};

/// One seed plan per usable layer of the table, holding the layer's own op
/// as its first stage (or, for a layout change out of NHWC, as its last).
std::vector<ChainPlan> chainSeeds();

/// Extends `seed` to `length` stages (2-6), drawing each next stage among
/// those the grammar allows; nullopt if it stops before two stages.
std::optional<ChainPlan> growChain(const ChainPlan &seed, size_t length,
                                   Rng &rng);

} // namespace rlopt::data::detail

#endif
