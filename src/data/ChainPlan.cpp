#include "ChainPlan.h"

#include <functional>
#include <map>
#include <set>

namespace rlopt::data::detail {

namespace {

constexpr int64_t kHeadDim = 64;
constexpr int64_t kBertBatch = 8; // the table's BERT sequences per batch

bool isTransformer(const std::string &network) {
  return network.rfind("bert", 0) == 0 || network.rfind("gpt2", 0) == 0;
}

/// BERT rows name their sequence length in the network; parameters are
/// shared across them.
std::string family(const std::string &network) {
  return network.rfind("bert", 0) == 0 ? "bert_base" : network;
}

std::string sourceOf(const Layer &layer) {
  return layer.network + "/" + layer.layer;
}

/// The tensor between stages, as far as the grammar needs it.
struct ChainState {
  Domain domain = Domain::Image;
  int64_t last = 0;    ///< last dim; 0 = the sequence (Heads)
  int64_t spatial = 0; ///< H = W at full scale (Image)
  bool keysTransposed = false;
  std::string prev = "start";
};

ChainState startState(const ChainPlan &plan) {
  ChainState s;
  s.domain = plan.domain;
  s.last = plan.width;
  s.spatial = plan.fullRows;
  return s;
}

int64_t windowOutput(int64_t input, int64_t window, int64_t stride) {
  return (input - window) / stride + 1;
}

ChainState apply(ChainState s, const Stage &stage) {
  const std::string &k = stage.kind;
  if (k == "conv_2d") {
    s.spatial = windowOutput(s.spatial, stage.kernel, stage.stride);
    s.last = stage.outputs;
  } else if (k == "depthwise_conv_2d" || k == "max_pool") {
    s.spatial = windowOutput(s.spatial, stage.kernel, stage.stride);
  } else if (k == "avg_pool") {
    s.domain = Domain::Tokens;
  } else if (k == "matmul") {
    s.last = stage.outputs;
  } else if (k == "batch_matmul") {
    s.last = stage.rhs || s.last == kHeadDim ? 0 : kHeadDim;
    s.keysTransposed = false;
  } else if (k == "transpose" && s.domain == Domain::Heads) {
    s.keysTransposed = true;
  }
  s.prev = k;
  return s;
}

/// The stage kinds each kind may directly follow ("start": opens a chain).
bool mayFollow(const std::string &kind, const std::string &prev) {
  static const std::map<std::string, std::set<std::string>> after = {
      {"conv_2d",
       {"start", "relu", "relu6", "max_pool", "add", "batch_norm",
        "transpose"}},
      {"depthwise_conv_2d", {"start", "relu", "relu6"}},
      {"max_pool", {"start", "relu"}},
      {"avg_pool", {"start", "relu", "relu6", "add"}},
      {"matmul", {"start", "relu", "gelu", "layernorm", "avg_pool"}},
      {"bias_add", {"conv_2d", "matmul"}},
      {"batch_norm", {"conv_2d", "depthwise_conv_2d"}},
      {"relu", {"bias_add", "batch_norm", "add"}},
      {"relu6", {"bias_add", "batch_norm", "add"}},
      {"gelu", {"bias_add"}},
      {"add", {"bias_add", "batch_norm"}},
      {"layernorm", {"start", "add"}},
      {"softmax",
       {"start", "matmul", "bias_add", "scale_mask", "batch_matmul"}},
      {"scale_mask", {"start", "batch_matmul"}},
      {"batch_matmul", {"start", "softmax", "transpose"}},
  };
  auto it = after.find(kind);
  return it != after.end() && it->second.count(prev);
}

/// Rows of `opClass` (and `variant`, if given) that `fits`, from `network`
/// if it has any, else from every network.
std::vector<const Layer *>
rowsFor(const std::string &opClass, const std::string &variant,
        const std::string &network,
        const std::function<bool(const Layer &)> &fits) {
  std::vector<const Layer *> same, any;
  for (const Layer &l : layerTable()) {
    if (l.opClass != opClass || (!variant.empty() && l.variant != variant) ||
        !fits(l))
      continue;
    any.push_back(&l);
    if (family(l.network) == family(network))
      same.push_back(&l);
  }
  return same.empty() ? any : same;
}

/// Every stage that may come next, one entry per (kind, parameter row);
/// kinds are drawn first, so a kind's many rows do not crowd out the rest.
std::map<std::string, std::vector<Stage>> candidates(const ChainPlan &plan,
                                                     const ChainState &s) {
  std::map<std::string, std::vector<Stage>> next;
  auto offer = [&](const std::string &kind, Stage stage) {
    if (!mayFollow(kind, s.prev))
      return;
    stage.kind = kind;
    next[kind].push_back(stage);
  };
  const std::string &net = plan.network;
  if (s.domain == Domain::Image) {
    for (const Layer *l :
         rowsFor("conv_2d", "nhwc_hwcf", net, [&](const Layer &l) {
           return l.dims[0] == s.last && l.dims[3] <= s.spatial;
         }))
      offer("conv_2d",
            {"", l->dims[1], l->dims[3], l->dims[4], false, sourceOf(*l)});
    for (const Layer *l :
         rowsFor("depthwise_conv_2d", "", net, [&](const Layer &l) {
           return l.dims[0] == s.last && l.dims[2] <= s.spatial;
         }))
      offer("depthwise_conv_2d",
            {"", 0, l->dims[2], l->dims[3], false, sourceOf(*l)});
    for (const Layer *l : rowsFor("max_pool", "", net, [&](const Layer &l) {
           return l.dims[2] <= s.spatial;
         }))
      offer("max_pool", {"", 0, l->dims[2], l->dims[3], false, sourceOf(*l)});
    if (!plan.endsInNchw) // its transpose needs an image
      offer("avg_pool", {});
    offer("bias_add", {});
    offer("batch_norm", {});
    offer(family(net) == "mobilenet_v2" ? "relu6" : "relu", {});
    offer("add", {});
  } else if (s.domain == Domain::Tokens) {
    for (const Layer *l : rowsFor("matmul", "", net, [&](const Layer &l) {
           return l.dims[0] == s.last &&
                  isTransformer(l.network) == plan.transformer;
         }))
      offer("matmul", {"", l->dims[1], 0, 1, false, sourceOf(*l)});
    offer("bias_add", {});
    if (plan.transformer) {
      offer("gelu", {});
      offer("add", {});
      offer("layernorm", {});
    } else {
      offer("relu", {});
      if (s.last == 1000) // the classifier's logits
        offer("softmax", {});
    }
  } else if (s.keysTransposed) {
    offer("batch_matmul", {"", 0, 0, 1, /*rhs=*/true, plan.source});
  } else if (s.last == 0) { // scores or probabilities; context ends a chain
    offer("batch_matmul", {"", 0, 0, 1, false, plan.source});
    offer("scale_mask", {});
    offer("softmax", {});
  }
  return next;
}

template <typename T> const T &pick(const std::vector<T> &items, Rng &rng) {
  return items[rng.below(items.size())];
}

/// The seed for one layer of the table; nullopt for layers no chain starts
/// from (matvec, splitting heads, and vocabulary-sized softmax).
std::optional<ChainPlan> seedOf(const Layer &l) {
  ChainPlan plan;
  plan.network = l.network;
  plan.source = sourceOf(l);
  plan.transformer = isTransformer(l.network);
  plan.fullLead = l.lead;
  Stage first;
  first.kind = l.opClass;
  first.source = plan.source;
  const std::string &c = l.opClass;
  const auto &d = l.dims;
  auto image = [&](int64_t spatial, int64_t channels) {
    plan.domain = Domain::Image;
    plan.fullRows = spatial;
    plan.width = channels;
  };
  auto tokens = [&](int64_t seq, int64_t width) {
    plan.domain = Domain::Tokens;
    plan.fullRows = seq;
    plan.width = width;
    if (plan.transformer && l.leadName == "tokens") {
      plan.fullLead = l.network == "gpt2" ? 1 : kBertBatch;
      plan.fullRows = l.lead / plan.fullLead;
    }
  };
  auto heads = [&](int64_t seq, int64_t width) {
    plan.domain = Domain::Heads;
    plan.fullRows = seq;
    plan.width = width;
  };
  if (c == "conv_2d") {
    if (l.variant != "nhwc_hwcf")
      return std::nullopt;
    image((d[2] - 1) * d[4] + d[3], d[0]);
    first = {c, d[1], d[3], d[4], false, plan.source};
  } else if (c == "depthwise_conv_2d" || c == "max_pool") {
    image((d[1] - 1) * d[3] + d[2], d[0]);
    first = {c, 0, d[2], d[3], false, plan.source};
  } else if (c == "avg_pool") {
    image(d[2], d[0]);
  } else if (c == "matmul") {
    tokens(1, d[0]);
    first.outputs = d[1];
  } else if (c == "batch_matmul") {
    heads(d[0], d[1] == kHeadDim ? kHeadDim : 0);
  } else if (c == "add" || c == "relu" || c == "elementwise_chain" ||
             c == "layernorm" || c == "softmax") {
    if (c == "relu")
      first.kind = l.variant;
    if (c == "elementwise_chain") {
      if (l.variant == "scale_mask")
        first.kind = "scale_mask";
      else if (l.variant.rfind("bn", 0) == 0)
        first.kind = "batch_norm";
      else
        first.kind = "bias_add";
    }
    if (first.kind == "scale_mask" || (c == "softmax" && d.size() == 2))
      heads(d[0], 0);
    else if (d.size() == 3)
      image(d[0], d[2]);
    else if (d.size() == 2)
      tokens(d[0], d[1]);
    else if (d[0] <= 4096)
      tokens(1, d[0]);
    else
      return std::nullopt;
  } else if (c == "transpose") {
    if (l.variant == "keys") {
      heads(d[0], kHeadDim);
    } else if (l.variant == "nchw_to_nhwc") {
      image(d[1], d[0]);
      plan.nchwInput = true;
    } else if (l.variant == "nhwc_to_nchw") {
      image(d[0], d[2]);
      plan.endsInNchw = true;
      return plan;
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  plan.stages.push_back(first);
  return plan;
}

} // namespace

std::vector<ChainPlan> chainSeeds() {
  std::vector<ChainPlan> seeds;
  for (const Layer &l : layerTable())
    if (std::optional<ChainPlan> seed = seedOf(l))
      seeds.push_back(std::move(*seed));
  return seeds;
}

std::optional<ChainPlan> growChain(const ChainPlan &seed, size_t length,
                                   Rng &rng) {
  ChainPlan plan = seed;
  ChainState state = startState(plan);
  for (const Stage &stage : plan.stages)
    state = apply(state, stage);
  size_t open = length - (plan.endsInNchw ? 1 : 0);
  while (plan.stages.size() < open) {
    std::map<std::string, std::vector<Stage>> next = candidates(plan, state);
    if (next.empty())
      break;
    // Global pooling ends a network's feature extractor once; weighting it
    // like the other kinds would make most image chains end in a
    // classifier.
    std::vector<std::string> kinds;
    for (const auto &entry : next)
      for (int i = entry.first == "avg_pool" ? 1 : 3; i > 0; --i)
        kinds.push_back(entry.first);
    const Stage &stage = pick(next[pick(kinds, rng)], rng);
    plan.stages.push_back(stage);
    state = apply(state, stage);
  }
  if (plan.endsInNchw && !plan.stages.empty())
    plan.stages.push_back({"transpose", 0, 0, 1, false, plan.source});
  if (plan.stages.size() < 2)
    return std::nullopt;
  return plan;
}

} // namespace rlopt::data::detail
