// The chain suite: draws chain plans (ChainPlan.cpp), writes each as one
// Linalg function at the requested scale, and draws the splits over the
// start shapes.
#include "rlopt/data/ChainSuite.h"

#include "ChainPlan.h"
#include "Layers.h"
#include "NaiveTime.h"
#include "Splits.h"

#include <algorithm>
#include <map>
#include <set>

namespace rlopt::data {

using namespace detail;

namespace {

// Separate streams for the chains and the splits, as in the op suite.
constexpr uint64_t kChainStream = 0x3c8a5f1d00000001ull;
constexpr uint64_t kSplitStream = 0x3c8a5f1d00000002ull;

/// Small scale: shrink the start tensor (spatial size or sequence) while
/// the batch-1 estimate is above kCropAboveMs, then double the batch until
/// the estimate reaches kTargetMs. A chain still above kRejectAboveMs at
/// its smallest (two wide convolutions on a 7x7 map, say) is drawn again.
/// Attention keeps at least kMinSeq tokens; the batch stays at most
/// kMaxLead, as large as real training batches get.
constexpr double kTargetMs = 25;
constexpr double kCropAboveMs = 120;
constexpr double kRejectAboveMs = 250;
constexpr int64_t kMinSeq = 16;
constexpr int64_t kMaxLead = 256;
constexpr int kMaxAttemptsPerChain = 50;

const char *abbreviation(const std::string &kind) {
  static const std::map<std::string, const char *> names = {
      {"conv_2d", "conv"},
      {"depthwise_conv_2d", "dwconv"},
      {"max_pool", "maxpool"},
      {"avg_pool", "avgpool"},
      {"matmul", "matmul"},
      {"batch_matmul", "bmm"},
      {"bias_add", "bias"},
      {"batch_norm", "bn"},
      {"relu", "relu"},
      {"relu6", "relu6"},
      {"gelu", "gelu"},
      {"add", "add"},
      {"softmax", "softmax"},
      {"layernorm", "layernorm"},
      {"scale_mask", "scalemask"},
      {"transpose", "transpose"},
  };
  return names.at(kind);
}

struct ChainProgram {
  std::string mlir;
  double flops = 0, bytes = 0, estimatedMs = 0;
  Shape input;
  nlohmann::json shapes;
};

/// The chain at `lead` and `rows`; nullopt when a convolution or pooling
/// window no longer fits its input.
std::optional<ChainProgram> writeChain(const ChainPlan &plan, int64_t lead,
                                       int64_t rows,
                                       const std::string &funcName,
                                       const std::string &header) {
  ProgramWriter w;
  LayerWriter l(w);
  Shape input;
  switch (plan.domain) {
  case Domain::Image:
    input = plan.nchwInput ? Shape{lead, plan.width, rows, rows}
                           : Shape{lead, rows, rows, plan.width};
    break;
  case Domain::Tokens:
    input = {lead * rows, plan.width};
    break;
  case Domain::Heads:
    input = {lead, rows, plan.width ? plan.width : rows};
    break;
  }
  Value x = l.arg("input", input);
  bool lastIsSeq = plan.domain == Domain::Heads && plan.width == 0;
  std::string eps = plan.network == "gpt2" ? "1.0e-05" : "1.0e-12";
  nlohmann::json stages = nlohmann::json::array();
  for (size_t i = 0; i < plan.stages.size(); ++i) {
    const Stage &s = plan.stages[i];
    std::string name = "s" + std::to_string(i + 1) + "_" + abbreviation(s.kind);
    const Shape shape = x.shape;
    int64_t last = shape.back();
    if (s.kind == "conv_2d" || s.kind == "depthwise_conv_2d" ||
        s.kind == "max_pool") {
      if (shape[1] < s.kernel)
        return std::nullopt;
      if (s.kind == "conv_2d")
        x = l.conv(name, x,
                   l.arg(name + "_w", {s.kernel, s.kernel, last, s.outputs}),
                   s.stride);
      else if (s.kind == "depthwise_conv_2d")
        x = l.depthwise(name, x, l.arg(name + "_w", {s.kernel, s.kernel, last}),
                        s.stride);
      else
        x = l.maxPool(name, x, s.kernel, s.stride);
    } else if (s.kind == "avg_pool") {
      x = l.globalAvgPool(name, x);
    } else if (s.kind == "matmul") {
      x = l.matmul(name, x, l.arg(name + "_w", {last, s.outputs}));
    } else if (s.kind == "batch_matmul") {
      int64_t batch = shape[0], seq = s.rhs ? shape[2] : shape[1];
      if (s.rhs)
        x = l.batchMatmul(name, l.arg(name + "_q", {batch, seq, 64}), x);
      else if (lastIsSeq)
        x = l.batchMatmul(name, x, l.arg(name + "_v", {batch, seq, 64}));
      else
        x = l.batchMatmul(name, x, l.arg(name + "_kt", {batch, 64, seq}));
      lastIsSeq = s.rhs || !lastIsSeq;
    } else if (s.kind == "bias_add") {
      x = l.biasAdd(name, x, l.arg(name + "_b", {last}));
    } else if (s.kind == "batch_norm") {
      Value scale = l.arg(name + "_scale", {last});
      x = l.scaleShift(name, x, scale, l.arg(name + "_shift", {last}));
    } else if (s.kind == "relu") {
      x = l.relu(name, x);
    } else if (s.kind == "relu6") {
      x = l.relu6(name, x);
    } else if (s.kind == "gelu") {
      x = l.gelu(name, x);
    } else if (s.kind == "add") {
      x = l.add(name, x, l.arg(name + "_residual", shape));
    } else if (s.kind == "softmax") {
      x = l.softmax(name, x);
    } else if (s.kind == "layernorm") {
      Value gamma = l.arg(name + "_gamma", {last});
      x = l.layernorm(name, x, gamma, l.arg(name + "_beta", {last}), eps);
    } else if (s.kind == "scale_mask") {
      Shape mask(shape.end() - 2, shape.end());
      x = l.scaleMask(name, x, "0.125", l.arg(name + "_mask", mask));
    } else if (s.kind == "transpose") {
      std::vector<int64_t> perm = plan.domain == Domain::Heads
                                      ? std::vector<int64_t>{0, 2, 1}
                                  : i == 0 ? std::vector<int64_t>{0, 2, 3, 1}
                                           : std::vector<int64_t>{0, 3, 1, 2};
      x = l.transpose(name, x, perm);
    }
    nlohmann::json stage = {{"kind", s.kind}, {"result", x.shape}};
    if (!s.source.empty())
      stage["source"] = s.source;
    stages.push_back(stage);
  }

  ChainProgram p;
  p.mlir = w.finish(header, funcName, {x});
  p.flops = w.flops;
  p.input = input;
  nlohmann::json args = nlohmann::json::array();
  for (const Value &a : w.args) {
    args.push_back(a.shape);
    p.bytes += 4.0 * numElements(a.shape);
  }
  p.bytes += 4.0 * numElements(x.shape);
  p.estimatedMs = estimateNaiveMs(w.ops());
  nlohmann::json kinds = nlohmann::json::array();
  for (const Stage &s : plan.stages)
    kinds.push_back(s.kind);
  p.shapes = {
      {"ops", kinds},          {"stages", stages},
      {"input", input},        {"linalg_ops", w.ops().size()},
      {"edges", w.numEdges()}, {"op_counts", w.opCounts()},
      {"args", args},          {"results", nlohmann::json::array({x.shape})}};
  return p;
}

/// What the start tensor's leading dimension and rows are called.
std::pair<std::string, std::string> sizeNames(const ChainPlan &plan) {
  switch (plan.domain) {
  case Domain::Image:
    return {"batch", "spatial"};
  case Domain::Tokens:
    return {"batch", "seq"};
  case Domain::Heads:
    return {"batch*heads", "seq"};
  }
  return {"batch", "rows"};
}

/// Linear layers cost K x N per token whatever the sequence, so token
/// chains may shrink to a single token.
bool mayShrink(const ChainPlan &plan, int64_t rows) {
  if (plan.domain == Domain::Heads)
    return rows / 2 >= kMinSeq;
  return rows > 1;
}

struct Sized {
  int64_t lead = 1, rows = 1;
};

/// The small-scale sizes; nullopt if the chain is too slow even there.
std::optional<Sized> smallSizes(const ChainPlan &plan) {
  Sized sized{1, plan.fullRows};
  auto estimate = [&](int64_t lead, int64_t rows) -> std::optional<double> {
    std::optional<ChainProgram> p = writeChain(plan, lead, rows, "f", "");
    if (!p)
      return std::nullopt;
    return p->estimatedMs;
  };
  while (mayShrink(plan, sized.rows) &&
         *estimate(1, sized.rows) > kCropAboveMs) {
    int64_t half = (sized.rows + 1) / 2;
    if (!estimate(1, half))
      break;
    sized.rows = half;
  }
  if (*estimate(1, sized.rows) > kRejectAboveMs)
    return std::nullopt;
  while (sized.lead < kMaxLead && *estimate(sized.lead, sized.rows) < kTargetMs)
    sized.lead *= 2;
  return sized;
}

std::string joinKinds(const ChainPlan &plan, const char *sep) {
  std::string text;
  for (size_t i = 0; i < plan.stages.size(); ++i)
    text += (i ? sep : "") + plan.stages[i].kind;
  return text;
}

/// The start tensor at full scale without its leading dimension (and, for
/// tokens, with the sequence split from the batch), so that a chain has
/// the same key, and split, at both scales.
std::string shapeKey(const ChainPlan &plan) {
  Shape rest;
  const char *domain = "image";
  switch (plan.domain) {
  case Domain::Image:
    rest = plan.nchwInput ? Shape{plan.width, plan.fullRows, plan.fullRows}
                          : Shape{plan.fullRows, plan.fullRows, plan.width};
    break;
  case Domain::Tokens:
    domain = "tokens";
    rest = {plan.fullRows, plan.width};
    break;
  case Domain::Heads:
    domain = "heads";
    rest = {plan.fullRows, plan.width ? plan.width : plan.fullRows};
    break;
  }
  return std::string("chain:") + domain + ":" + joinShape(rest, "x");
}

struct Drawn {
  BenchmarkSpec spec;
  size_t classIndex = 0;
};

/// The chain as a benchmark; nullopt if it is too slow at small scale
/// (at either scale, so that both scales hold the same chains).
std::optional<Drawn> makeChain(const ChainPlan &plan, Scale scale,
                               const std::string &name) {
  std::optional<Sized> small = smallSizes(plan);
  if (!small)
    return std::nullopt;
  Sized sized =
      scale == Scale::Small ? *small : Sized{plan.fullLead, plan.fullRows};
  auto [leadName, rowsName] = sizeNames(plan);
  std::string note = std::string(scale == Scale::Small ? "Small" : "Full") +
                     " scale: " + leadName + " " + std::to_string(sized.lead) +
                     ", " + rowsName + " " + std::to_string(sized.rows);
  if (scale == Scale::Small)
    note += " (full scale: " + std::to_string(plan.fullLead) + ", " +
            std::to_string(plan.fullRows) + ")";
  std::string header = "// " + name + ": " + joinKinds(plan, " -> ") +
                       ", from " + plan.source + ".\n// " + note +
                       ". Generated by `rlopt gen chains`.\n";
  // Symbol names take no '-'.
  std::string funcName = name;
  std::replace(funcName.begin(), funcName.end(), '-', '_');
  ChainProgram p = *writeChain(plan, sized.lead, sized.rows, funcName, header);

  Drawn d;
  const std::vector<std::string> &kinds = chainOpKinds();
  d.classIndex =
      std::find(kinds.begin(), kinds.end(), plan.stages.front().kind) -
      kinds.begin();
  BenchmarkSpec &spec = d.spec;
  spec.name = name;
  spec.opClass = "chain";
  spec.source = plan.source;
  spec.shapeKey = shapeKey(plan);
  spec.mlir = std::move(p.mlir);
  spec.flops = p.flops;
  spec.bytes = p.bytes;
  spec.estimatedMs = p.estimatedMs;
  spec.shapes = std::move(p.shapes);
  spec.shapes["scaling"] = {{leadName, sized.lead},
                            {rowsName, sized.rows},
                            {"full_" + leadName, plan.fullLead},
                            {"full_" + rowsName, plan.fullRows}};
  return d;
}

/// A plan's identity: its stages with their parameters and its start.
std::string signature(const ChainPlan &plan) {
  std::string text = plan.source + (plan.endsInNchw ? " nchw-out" : "");
  for (const Stage &s : plan.stages)
    text += " " + s.kind + ":" + std::to_string(s.outputs) + "," +
            std::to_string(s.kernel) + "," + std::to_string(s.stride) + "," +
            s.source;
  return text;
}

/// The seed's group: the first stage's kind (transpose for chains that
/// end in one).
std::string groupOf(const ChainPlan &seed) {
  return seed.stages.empty() ? "transpose" : seed.stages.front().kind;
}

} // namespace

const std::vector<std::string> &chainOpKinds() {
  static const std::vector<std::string> kinds = {
      "conv_2d",    "depthwise_conv_2d",
      "max_pool",   "avg_pool",
      "matmul",     "batch_matmul",
      "bias_add",   "batch_norm",
      "relu",       "relu6",
      "gelu",       "add",
      "softmax",    "layernorm",
      "scale_mask", "transpose"};
  return kinds;
}

std::vector<BenchmarkSpec>
generateChainSuite(const ChainSuiteOptions &options) {
  std::map<std::string, std::vector<ChainPlan>> byGroup;
  for (ChainPlan &seed : chainSeeds())
    byGroup[groupOf(seed)].push_back(std::move(seed));
  std::vector<std::string> groups;
  for (const std::string &kind : chainOpKinds())
    if (byGroup.count(kind))
      groups.push_back(kind);

  Rng rng(options.seed ^ kChainStream);
  size_t count = size_t(std::max(options.count, 0));
  int digits = std::max<int>(2, std::to_string(count ? count - 1 : 0).size());
  std::vector<Drawn> drawn;
  std::set<std::string> seen;
  std::vector<std::string> order;
  for (size_t i = 0; drawn.size() < count; ++i) {
    if (i % groups.size() == 0) {
      order = groups;
      rng.shuffle(order);
    }
    const std::vector<ChainPlan> &seeds = byGroup[order[i % order.size()]];
    for (int attempt = 0; attempt < kMaxAttemptsPerChain; ++attempt) {
      const ChainPlan &seed = seeds[rng.below(seeds.size())];
      std::optional<ChainPlan> plan = growChain(seed, 2 + rng.below(5), rng);
      if (!plan || !seen.insert(signature(*plan)).second)
        continue;
      std::string index = std::to_string(drawn.size());
      std::string name =
          "chain" + std::string(digits - index.size(), '0') + index;
      for (size_t k = 0; k < plan->stages.size(); ++k)
        name +=
            (k ? "-" : "_") + std::string(abbreviation(plan->stages[k].kind));
      if (std::optional<Drawn> chain = makeChain(*plan, options.scale, name)) {
        drawn.push_back(std::move(*chain));
        break;
      }
    }
    if (i > count * 100)
      break; // the grammar has run out of distinct chains
  }

  std::vector<KeyedItem> items;
  for (const Drawn &d : drawn)
    items.push_back({d.classIndex, d.spec.shapeKey});
  Rng splitRng(options.seed ^ kSplitStream);
  std::map<std::string, std::string> splitOf =
      drawSplits(items, chainOpKinds().size(), splitRng);
  std::vector<BenchmarkSpec> suite;
  for (Drawn &d : drawn) {
    d.spec.split = splitOf.at(d.spec.shapeKey);
    suite.push_back(std::move(d.spec));
  }
  return suite;
}

nlohmann::json chainSuiteInfo(const ChainSuiteOptions &options) {
  return {{"suite", "chains"},
          {"generator", "rlopt gen chains"},
          {"seed", options.seed},
          {"scale", scaleName(options.scale)},
          {"op_kinds", chainOpKinds()}};
}

} // namespace rlopt::data
