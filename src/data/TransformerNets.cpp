// One BERT-base encoder layer (Hugging Face's BertLayer, post-norm) and one
// GPT-2 small block (GPT2Block, pre-norm). Tokens are [batch * seq, 768];
// heads are split with expand_shape, linalg.transpose and collapse_shape,
// so that the scores and the context are linalg.batch_matmul over batch *
// heads, as framework lowerings write them. GELU is the tanh form (GPT-2's
// own; BERT's erf form differs by under 1e-3). GPT-2's fused c_attn
// projection is written as its three 768 x 768 slices.
#include "Networks.h"

namespace rlopt::data::detail {

namespace {

constexpr int64_t kHidden = 768, kHeads = 12, kHeadDim = 64, kFfn = 3072;

/// [batch * seq, 768] -> [batch * 12, seq, 64], or [batch * 12, 64, seq]
/// for the keys of the scores.
Value splitHeads(LayerWriter &l, const std::string &name, const Value &x,
                 const NetSizes &s, bool keys) {
  Value split = l.expand(name + "_split", x, {{0, 1}, {2, 3}},
                         {s.batch, s.seq, kHeads, kHeadDim});
  Value heads = l.transpose(name + "_heads", split,
                            keys ? std::vector<int64_t>{0, 2, 3, 1}
                                 : std::vector<int64_t>{0, 2, 1, 3});
  return l.collapse(name + "_batched", heads, {{0, 1}, {2}, {3}});
}

/// [batch * 12, seq, 64] -> [batch * seq, 768].
Value mergeHeads(LayerWriter &l, const std::string &name, const Value &x,
                 const NetSizes &s) {
  Value heads = l.expand(name + "_unbatched", x, {{0, 1}, {2}, {3}},
                         {s.batch, kHeads, s.seq, kHeadDim});
  Value tokens = l.transpose(name + "_tokens", heads, {0, 2, 1, 3});
  return l.collapse(name + "_merged", tokens, {{0, 1}, {2, 3}});
}

/// Multi-head self-attention up to (not including) the output projection:
/// softmax(q k^T / 8 + mask) v with the heads merged again.
Value attention(LayerWriter &l, const std::string &name, const Value &x,
                const Value &mask, const NetSizes &s, const std::string &query,
                const std::string &key, const std::string &value) {
  Value q = splitHeads(l, query, l.linear(query, x, kHidden), s, false);
  Value k = splitHeads(l, key, l.linear(key, x, kHidden), s, true);
  Value v = splitHeads(l, value, l.linear(value, x, kHidden), s, false);
  Value scores = l.batchMatmul(name + "_scores", q, k);
  scores = l.scaleMask(name + "_masked", scores, "0.125", mask); // 1/sqrt(64)
  Value probs = l.softmax(name + "_probs", scores);
  return mergeHeads(l, name + "_context",
                    l.batchMatmul(name + "_context", probs, v), s);
}

Value layernorm(LayerWriter &l, const std::string &name, const Value &x,
                const std::string &eps) {
  Value gamma = l.arg(name + "_gamma", {kHidden});
  Value beta = l.arg(name + "_beta", {kHidden});
  return l.layernorm(name, x, gamma, beta, eps);
}

std::string sizeText(const NetSizes &s) {
  return "batch " + std::to_string(s.batch) + ", " + std::to_string(s.seq) +
         " tokens";
}

} // namespace

NetBody buildBertLayer(LayerWriter &l, const NetSizes &s) {
  const std::string eps = "1.0e-12"; // layer_norm_eps of bert-base-uncased
  Value x = l.arg("hidden_states", {s.batch * s.seq, kHidden});
  // The additive mask (0 or a large negative number), the same for every
  // sequence and head.
  Value mask = l.arg("attention_mask", {s.seq, s.seq});
  Value context =
      attention(l, "attention_self", x, mask, s, "attention_self_query",
                "attention_self_key", "attention_self_value");
  Value attended = l.linear("attention_output_dense", context, kHidden);
  Value h = layernorm(l, "attention_output_layernorm",
                      l.add("attention_output_residual", attended, x), eps);
  Value inner =
      l.gelu("intermediate_gelu", l.linear("intermediate_dense", h, kFfn));
  Value out = l.linear("output_dense", inner, kHidden);
  out = layernorm(l, "output_layernorm", l.add("output_residual", out, h), eps);
  return {{out},
          "BERT-base encoder layer (12 heads, hidden 768, FFN 3072, "
          "post-norm), " +
              sizeText(s),
          2};
}

NetBody buildGpt2Block(LayerWriter &l, const NetSizes &s) {
  const std::string eps = "1.0e-05"; // layer_norm_epsilon of gpt2
  Value x = l.arg("hidden_states", {s.batch * s.seq, kHidden});
  // 0 on and below the diagonal, a large negative number above it.
  Value mask = l.arg("causal_mask", {s.seq, s.seq});
  Value a = layernorm(l, "ln_1", x, eps);
  Value context = attention(l, "attn", a, mask, s, "attn_c_attn_q",
                            "attn_c_attn_k", "attn_c_attn_v");
  Value h =
      l.add("attn_residual", x, l.linear("attn_c_proj", context, kHidden));
  Value m = layernorm(l, "ln_2", h, eps);
  Value inner = l.gelu("mlp_act", l.linear("mlp_c_fc", m, kFfn));
  Value out = l.add("mlp_residual", h, l.linear("mlp_c_proj", inner, kHidden));
  return {{out},
          "GPT-2 small block (12 heads, hidden 768, MLP 3072, "
          "pre-norm, causal mask as an additive argument), " +
              sizeText(s),
          2};
}

} // namespace rlopt::data::detail
