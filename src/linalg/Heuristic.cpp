#include "rlopt/linalg/Heuristic.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <algorithm>
#include <optional>

namespace rlopt::linalg {

/// The largest divisor of `range` that is at most `target` (at least 1).
static int64_t divisorAtMost(int64_t range, int64_t target) {
  for (int64_t d = std::min(range, target); d > 1; --d)
    if (range % d == 0)
      return d;
  return 1;
}

/// The vector width for a loop of `range`: the largest divisor up to
/// `target` that is a whole number of vectors of `lanes`, else the largest
/// power of two up to `lanes` that divides it. Other widths (25, 40) lower
/// to shuffles and scalar code, several times slower than a narrower
/// power of two.
static int64_t vectorDivisor(int64_t range, int64_t target, int64_t lanes) {
  for (int64_t d = std::min(range, target) / lanes * lanes; d >= lanes;
       d -= lanes)
    if (range % d == 0)
      return d;
  int64_t width = 1;
  while (width * 2 <= std::min(lanes, target) && range % (width * 2) == 0)
    width *= 2;
  return width;
}

/// The largest multiple of `unit` that divides `range` and is at most
/// `target` (at least `unit`, which divides `range`).
static int64_t multipleAtMost(int64_t range, int64_t unit, int64_t target) {
  for (int64_t d = std::max(unit, std::min(range, target) / unit * unit);
       d > unit; d -= unit)
    if (range % d == 0)
      return d;
  return unit;
}

/// The opt-in transformations the heuristic may use.
struct Extras {
  explicit Extras(const std::vector<std::string> &names)
      : flatten(llvm::is_contained(names, "flatten")),
        splitReduction(llvm::is_contained(names, "split_reduction")),
        peel(llvm::is_contained(names, "peel")),
        pack(llvm::is_contained(names, "pack")),
        unroll(llvm::is_contained(names, "unroll")),
        pad(llvm::is_contained(names, "pad")),
        promote(llvm::is_contained(names, "promote")) {}
  bool flatten, splitReduction, peel, pack, unroll, pad, promote;
};

/// Positions of the parallel loops, outermost first.
static std::vector<unsigned> parallelLoops(const OpState &op) {
  std::vector<unsigned> loops;
  for (unsigned l = 0; l < op.numLoops(); ++l)
    if (!op.isReduction[l])
      loops.push_back(l);
  return loops;
}

/// Appends `step` to `steps` if it passes the checks on `state`.
static bool tryStep(ScheduleState &state, unsigned index,
                    const TransformStep &step,
                    std::vector<TransformStep> &steps) {
  const Transformation *t = findTransformation(step.name);
  if (!t || checkStep(state, index, *t, step.params))
    return false;
  if (!applyStep(state, index, step))
    return false;
  steps.push_back(step);
  return true;
}

/// The target's L2 per core; when the host does not say, 1 MiB, the middle
/// of what recent x86 cores have (256 KiB to 2 MiB).
static long l2BytesOf(const measure::CpuTarget &target) {
  return target.l2Bytes > 0 ? target.l2Bytes : 1L << 20;
}

/// The target's L1 data cache per core; 32 KiB when the host does not say.
static long l1BytesOf(const measure::CpuTarget &target) {
  return target.l1dBytes > 0 ? target.l1dBytes : 32L << 10;
}

/// Rows of a contraction's register tile: its accumulators, rows x two
/// vectors, take half the vector registers.
static int64_t registerRowsOf(const measure::CpuTarget &target) {
  return std::max(1, target.vectorRegisters / 4);
}

/// Steps of a reduction the register tile's accumulators take at least
/// before they go back to memory: the unrolled loop's, a cache tile's least.
constexpr int64_t kReductionStep = 8;

/// Unrolls the register tile's innermost reduction loop (one step of k per
/// iteration) by kReductionStep: eight steps of FMAs per iteration. Measured
/// 6-12 % faster on a 256^3 matmul and 8-26 % on 512^3 (bench/RESULTS.md), the
/// median of alternating rounds, in each order of the two.
static void unrollReduction(ScheduleState &state, unsigned index,
                            std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  std::vector<int64_t> factors(op.numLoops(), 0);
  for (unsigned l = op.numLoops(); l-- > 0;) {
    const ForLoop *tiled = op.forLoop(l);
    if (!op.isReduction[l] || op.ranges[l] != 1 || !tiled)
      continue;
    if (tiled->trips >= kReductionStep)
      factors[l] = kReductionStep;
    break;
  }
  tryStep(state, index, {"unroll", factors}, steps);
}

/// Packs the register tile `reg` (every reduction loop by 1), then tiles the
/// packed op's outer loops by the cache tile `cache` in units of `reg`, and
/// the register tile out of it.
static bool schedulePacked(ScheduleState &state, unsigned index,
                           const std::vector<int64_t> &cache,
                           const std::vector<int64_t> &reg, bool canUnroll,
                           std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  unsigned n = op.numLoops();
  std::vector<int64_t> pack(n, 0), outerCache(2 * n, 0), outerReg(2 * n, 0);
  unsigned packed = 0;
  for (unsigned l = 0; l < n; ++l)
    if (op.isReduction[l] || reg[l] > 1) {
      pack[l] = op.isReduction[l] ? 1 : reg[l];
      ++packed;
    }
  for (unsigned l = 0; l < n; ++l) {
    outerCache[l] = pack[l] ? std::max<int64_t>(1, cache[l] / pack[l]) : 1;
    outerReg[l] = 1;
  }
  outerCache.resize(n + packed);
  outerReg.resize(n + packed);
  if (!tryStep(state, index, {"pack", pack}, steps))
    return false;
  tryStep(state, index, {"tile", outerCache}, steps);
  tryStep(state, index, {"tile", outerReg}, steps);
  if (canUnroll)
    unrollReduction(state, index, steps);
  tryStep(state, index, {"vectorize", {}}, steps);
  return true;
}

/// Whether the op still runs the loops the analysis read its accesses and
/// ranges over; an op rewritten into other loops (img2col's matmul) does not.
static bool keepsAnalyzedLoops(const OpState &op) {
  return op.numLoops() == op.info->numLoops();
}

/// The range of `loop` before the threads cut it: the length in memory of
/// the rows of an operand it indexes last. An op rewritten into other loops
/// has only its current ranges.
static int64_t untiledRange(const OpState &op, unsigned loop) {
  return keepsAnalyzedLoops(op) ? op.info->loopRanges[loop] : op.ranges[loop];
}

/// BLIS's loops around the register tile `reg` of an op (batch..., i, j, k):
/// a block of B, kc rows of nc columns, is copied once into a contiguous
/// buffer (`promote`) that stays in the L2 while every block of mc rows of
/// A passes over it, and each register tile streams a kc x cols panel of
/// the copy from the L1. kc is the deepest divisor of k whose panel takes at
/// most three quarters of the L1, nc the widest block of whole register
/// tiles within a quarter of the L2, mc eight register tiles. Only B is
/// copied: k steps across its rows, a row stride apart, but along A's.
/// A needs at least 16 register tiles of rows to reuse each copy.
/// Measured side by side against the packed and unpacked schedules on f32
/// matmuls: 1.37x on 1024^3 (81-84 % of peak), 1.35x on 1024 x 1024 x 512,
/// 1.08-1.27x on six other shapes; 512^3, one block wide on a 2 MiB L2,
/// measured 0.93x promoted anyway.
static bool schedulePromoted(ScheduleState &state, unsigned index,
                             const measure::CpuTarget &target,
                             const std::vector<int64_t> &reg, bool canUnroll,
                             std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  unsigned n = op.numLoops();
  std::vector<unsigned> parallel = parallelLoops(op);
  if (n < 3 || parallel.size() != n - 1 || !op.isReduction[n - 1])
    return false;
  unsigned i = parallel[parallel.size() - 2], j = parallel.back(), k = n - 1;
  // The copy of a block pays only when many register tiles of A's rows
  // read it: measured 0.74x with 8 rows and 0.87x with 64 (GPT-2's linear
  // layers at 64 tokens), 1.18x with 128 and 1.11x with 384.
  constexpr int64_t minRowTiles = 16;
  if (op.ranges[i] < minRowTiles * reg[i])
    return false;
  int64_t bytes = elementBytes(op);
  int64_t kc = divisorAtMost(
      op.ranges[k],
      std::max<int64_t>(1, l1BytesOf(target) * 3 / 4 / (reg[j] * bytes)));
  int64_t nc = multipleAtMost(op.ranges[j], reg[j],
                              l2BytesOf(target) / 4 / (kc * bytes));
  // A block of whole rows of B is one stream already. Rows cut by the
  // threads are not: B's rows still lie its whole width apart.
  if (nc >= untiledRange(op, j))
    return false;
  std::vector<int64_t> block(n, 0), rows(n, 0);
  for (unsigned l : parallel)
    block[l] = l == j ? (nc < op.ranges[j] ? nc : 0) : (l == i ? 0 : 1);
  block[k] = kc;
  rows[i] = multipleAtMost(op.ranges[i], reg[i], 8 * reg[i]);
  // Tried on a copy: the tiling must not stay if the copy is refused.
  ScheduleState trial = state;
  std::vector<TransformStep> trialSteps;
  if (!tryStep(trial, index, {"tile", block}, trialSteps) ||
      !tryStep(trial, index, {"promote", {}}, trialSteps))
    return false;
  if (rows[i] < op.ranges[i])
    tryStep(trial, index, {"tile", rows}, trialSteps);
  tryStep(trial, index, {"tile", reg}, trialSteps);
  if (canUnroll)
    unrollReduction(trial, index, trialSteps);
  tryStep(trial, index, {"vectorize", {}}, trialSteps);
  state = trial;
  steps.insert(steps.end(), trialSteps.begin(), trialSteps.end());
  return true;
}

/// The extent in memory of an operand's dimension: the untiled range of the
/// loop it reads.
static int64_t extentOf(const OpState &op, const std::vector<int64_t> &dim) {
  int64_t extent = 1;
  for (unsigned l = 0; l < op.numLoops(); ++l)
    if (dim[l] != 0)
      extent = std::max(extent, untiledRange(op, l));
  return extent;
}

/// The number of products that each output of the op accumulates.
static int64_t productsPerOutput(const OpState &op) {
  int64_t products = 1;
  for (unsigned l = 0; l < op.numLoops(); ++l)
    if (op.isReduction[l])
      products *= op.ranges[l];
  return products;
}

/// The distance in bytes between consecutive indices of each dimension of
/// an operand read through `load`, stored row-major at its untiled extents.
static std::vector<int64_t> byteStrides(const OpState &op,
                                        const AccessMatrix &load) {
  std::vector<int64_t> strides(load.size());
  int64_t stride = elementBytes(op);
  for (size_t row = load.size(); row-- > 0;) {
    strides[row] = stride;
    stride *= extentOf(op, load[row]);
  }
  return strides;
}

/// The distance in bytes between the rows of the input a register tile
/// broadcasts (A of a matmul: the input that does not read the columns
/// `inner`), along `rowLoop`. img2col's matmul broadcasts the filter, whose
/// rows hold every step of the reduction.
static int64_t broadcastRowStride(const OpState &op, unsigned rowLoop,
                                  unsigned inner) {
  if (!keepsAnalyzedLoops(op))
    return elementBytes(op) * productsPerOutput(op);
  for (const AccessMatrix &load : op.info->loads) {
    if (llvm::any_of(load, [&](const std::vector<int64_t> &dim) {
          return dim[inner] != 0;
        }))
      continue;
    std::vector<int64_t> strides = byteStrides(op, load);
    for (size_t row = load.size(); row-- > 0;)
      if (load[row][rowLoop] != 0)
        return strides[row];
  }
  return elementBytes(op);
}

/// Whether `rows` rows `stride` bytes apart crowd a set of the L1 cache:
/// more of them fall into one set than three quarters of its ways, which
/// must also hold the other operands' lines. Rows a multiple of 4 KiB apart
/// all share one set of an x86 L1 (64 sets of 64-byte lines).
static bool rowsCrowdL1Set(int64_t rows, int64_t stride,
                           const measure::CpuTarget &target) {
  const int64_t line = 64;
  // When the host does not say, ways of 4 KiB, as x86 L1s have.
  int64_t ways = target.l1dWays > 0
                     ? target.l1dWays
                     : std::max<int64_t>(1, l1BytesOf(target) / 4096);
  int64_t sets = std::max<int64_t>(1, l1BytesOf(target) / ways / line);
  std::vector<int64_t> rowsInSet(sets, 0);
  for (int64_t r = 0; r < rows; ++r)
    if (4 * ++rowsInSet[(r * stride / line) % sets] > 3 * ways)
      return true;
  return false;
}

/// Rows of a register tile `width` columns wide: as many as keep the
/// accumulators of `rows` x two vectors. Tiles one vector wide (columns no
/// two vectors divide, 784 pixels) take twice the rows: with half the
/// accumulators, each FMA waited on the one before it. A 1 x 1 layer of
/// 256 -> 64 channels over 28 x 28 pixels measured 0.148-0.157 ms in tiles
/// of 16 x 16 against 0.178-0.186 ms in tiles of 8 x 16. Not where the
/// rows broadcast would crowd a set of the L1: a 512 x 1024 by 1024 x 16
/// product took 0.15-0.22 ms in 16 rows, 0.10-0.11 in 8 (0.10-0.11 both
/// at a depth of 1,040).
static int64_t rowsOfTile(int64_t rows, int64_t width, int64_t lanes,
                          int64_t rowStride, const measure::CpuTarget &target) {
  if (width >= 2 * lanes || rowsCrowdL1Set(2 * rows, rowStride, target))
    return rows;
  return 2 * rows;
}

/// The elements of the inputs that do not read `loop`: threads that split
/// it each read all of them.
static int64_t elementsEachThreadReads(const OpState &op, unsigned loop) {
  int64_t total = 0;
  for (const AccessMatrix &load : op.info->loads) {
    int64_t elements = 1;
    bool readsLoop = false;
    for (const std::vector<int64_t> &dim : load) {
      readsLoop |= dim[loop] != 0;
      elements *= extentOf(op, dim);
    }
    if (!readsLoop)
      total += elements;
  }
  return total;
}

/// Each thread's part of a loop of `range`: the widest divisor of it that
/// is at most an even share.
static int64_t threadPart(int64_t range, int threads) {
  return divisorAtMost(range, (range + threads - 1) / threads);
}

/// The parallel loop the threads split: the outermost with at least two
/// iterations per thread. A contraction whose threads would each read more
/// than their L2 whole there (all of B, split by A's rows) splits instead
/// the loop that leaves them least to read (B's columns when A has fewer
/// rows), in whole register tiles. An input that fits the L2 is read from
/// memory once per thread either way: splitting the columns then only
/// shares the output's rows between cores (0.79x on GPT-2's attention
/// scores, B 256 KiB).
static std::optional<unsigned> threadedLoop(const OpState &op, int threads,
                                            const measure::CpuTarget &target) {
  std::vector<unsigned> parallel = parallelLoops(op);
  auto splittable = [&](unsigned l) { return op.ranges[l] >= 2 * threads; };
  std::optional<unsigned> chosen;
  for (unsigned l : parallel)
    if (splittable(l)) {
      chosen = l;
      break;
    }
  if (!chosen || op.opClass != OpClass::Matmul || !keepsAnalyzedLoops(op))
    return chosen;
  int64_t fewest = elementsEachThreadReads(op, *chosen);
  if (fewest * elementBytes(op) <= l2BytesOf(target))
    return chosen;
  // Split by rows into parts of fewer rows than a register tile, each
  // thread streams B row block by row block (scheduleContraction); with all
  // the rows, it would run the cache tiles instead, which measured 0.59x on
  // an 8-row linear layer split by columns.
  int64_t tileRows = registerRowsOf(target);
  if (parallel.size() >= 2 && *chosen == parallel[parallel.size() - 2] &&
      op.ranges[*chosen] >= tileRows &&
      threadPart(op.ranges[*chosen], threads) < tileRows)
    return chosen;
  int64_t lanes = lanesOf(op, target);
  for (unsigned l : parallel) {
    bool wholeTiles = l != parallel.back() ||
                      threadPart(op.ranges[l], threads) % (2 * lanes) == 0;
    if (!splittable(l) || !wholeTiles)
      continue;
    int64_t elements = elementsEachThreadReads(op, l);
    if (elements < fewest) {
      chosen = l;
      fewest = elements;
    }
  }
  return chosen;
}

/// Whether an input reads `loop` along a dimension other than its last:
/// vectors along that loop would gather elements a row apart.
static bool readsStrided(const OpState &op, unsigned loop) {
  for (const AccessMatrix &load : op.info->loads)
    for (size_t row = 0; row + 1 < load.size(); ++row)
      if (load[row][loop] != 0)
        return true;
  return false;
}

/// Whether an input reads `loop` contiguously (its last dimension) and a
/// reduction loop along a dimension whose rows lie a page or more apart (B
/// of a matmul with 1024 or more f32 columns), `depth` rows of it per
/// cache tile. Each step of the reduction then reads a new page, which
/// hardware prefetchers do not cross and which takes a TLB entry of its
/// own; packed panels read it contiguously. Measured on f32 matmuls with
/// 1024 columns: packing is 1.3-1.9x faster at a depth of 512 (1,024^3:
/// 57 -> 107 GFLOP/s), even at 256, 1.8x slower at 128 and 2.4x at 64,
/// where the panel's pages fit the TLB; 10 % slower at 768 columns (rows
/// 3 KiB apart) and 512.
static bool readsAcrossPages(const OpState &op, unsigned loop, int64_t depth,
                             const measure::CpuTarget &target) {
  if (depth < 512)
    return false;
  for (const AccessMatrix &load : op.info->loads) {
    if (load.empty() || load.back()[loop] == 0)
      continue;
    std::vector<int64_t> strides = byteStrides(op, load);
    for (size_t row = 0; row + 1 < load.size(); ++row) {
      bool reduces = false;
      for (unsigned l = 0; l < op.numLoops(); ++l)
        reduces |= load[row][l] != 0 && op.isReduction[l];
      if (reduces && strides[row] >= target.pageBytes)
        return true;
    }
  }
  return false;
}

/// How many steps of the reduction a cache tile of mc x nc outputs takes:
/// its panels of A and B, mc + nc rows of that length, and the outputs fill
/// half the L2.
static int64_t cacheTileDepth(const OpState &op,
                              const measure::CpuTarget &target, int64_t mc,
                              int64_t nc, int64_t cols) {
  int64_t budget = l2BytesOf(target) / 2 / elementBytes(op);
  return std::clamp<int64_t>((budget - mc * nc) / (mc + nc), cols, 512);
}

/// Peels the op's one reduction loop at a multiple of kReductionStep when
/// nothing from there up to `depth` divides it (929 or 1361 steps, primes):
/// tiled by its largest divisor, 1, the accumulators went to memory and
/// back at every step. The bulk then tiles by a multiple of the step, and a
/// rest of fewer steps adds itself to the bulk's result. A 360 x 929 by
/// 929 x 104 product measured 0.71 ms so against 2.21 ms.
static void peelReduction(const OpState &op, int64_t depth,
                          std::vector<int64_t> &peel) {
  auto reductions =
      llvm::make_filter_range(llvm::seq<unsigned>(0, op.numLoops()),
                              [&](unsigned l) { return op.isReduction[l]; });
  if (llvm::range_size(reductions) != 1)
    return;
  unsigned l = *reductions.begin();
  int64_t range = op.ranges[l];
  if (range > kReductionStep && range % kReductionStep != 0 &&
      divisorAtMost(range, std::max(depth, kReductionStep)) < kReductionStep)
    peel[l] = kReductionStep;
}

/// Whether every one of `producers` is a fill (true for none).
static bool onlyFills(const ScheduleState &state,
                      const std::vector<unsigned> &producers) {
  return llvm::all_of(producers, [&](unsigned p) {
    return state.ops[p].opClass == OpClass::Fill;
  });
}

/// Whether the op is untransformed and its only fusable producer is the fill
/// of its accumulator, which `fuse` can then move into its loops.
static bool fillFusable(const ScheduleState &state, unsigned index) {
  if (!state.ops[index].history.empty())
    return false;
  std::vector<unsigned> producers = fusableProducers(state, index);
  return !producers.empty() && onlyFills(state, producers);
}

/// At most this many products per output, a contraction or convolution is
/// bound by its output's traffic: its fill is fused into its register tiles.
constexpr int64_t kShortReduction = 256;

/// `sizes` with every reduction loop left whole (0): the tiles a fill is
/// fused into, outside the reduction.
static std::vector<int64_t> overParallelLoops(const OpState &op,
                                              std::vector<int64_t> sizes) {
  for (unsigned l = 0; l < op.numLoops(); ++l)
    if (op.isReduction[l])
      sizes[l] = 0;
  return sizes;
}

/// Matmul-like ops: (batch..., i, j, k). The register tile holds rows x two
/// vectors of accumulators, half the vector registers (the others hold the
/// row of B and A's broadcasts): 8 x 32 on AVX-512, 4 x 16 on AVX2; its
/// contraction lowers to outer-product FMAs. The cache tile is 8 register
/// tiles high and 4 wide, and as deep along k as lets the blocks of A, B
/// and C fill half the L2 cache.
///
/// Two shapes read their big operand once and are bound by memory instead:
/// a matrix-vector product (i, k), vectorized along the contiguous k, and a
/// matmul with fewer rows of A than a register tile, which streams B row
/// block by row block (k 8 deep, j whole).
///
/// When an input reads j along a strided dimension (B stored n x k, as a
/// linear layer's weight is), or reads consecutive k a page or more apart,
/// the operands are packed first: B into k x 32 panels, A into k x 8 ones;
/// the packed op's outer loops take the cache tile in units of register
/// tiles and its inner loops are the register tile.
static void scheduleContraction(ScheduleState &state, unsigned index,
                                const measure::CpuTarget &target,
                                const Extras &can,
                                std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  int64_t lanes = lanesOf(op, target);
  int64_t rows = registerRowsOf(target), cols = 2 * lanes;
  std::vector<unsigned> parallel = parallelLoops(op);
  unsigned n = op.numLoops();
  std::vector<int64_t> cache(n, 0), reg(n, 1);
  // A short reduction (at most 256 products per output) is bound by its
  // output's traffic, which a separate pass of its fill over the output
  // doubles. Its fill is fused into the loop over register tiles instead, so
  // each tile of accumulators starts from zeros in registers; the cache
  // tile, which only reuses the short panels of A and B, is dropped. On a
  // 16-channel 1 x 1 layer over 112 x 112 pixels (a matmul of 96 x 16 by
  // 16 x 12544) that measured 0.49-0.54 ms against 0.70-1.06 ms with the
  // fill fused into cache tiles of 48 x 128.
  bool fillsRegisters =
      productsPerOutput(op) <= kShortReduction && fillFusable(state, index);
  auto finish = [&] {
    if (!fillsRegisters ||
        !tryStep(state, index, {"fuse", overParallelLoops(op, reg)}, steps))
      tryStep(state, index, {"tile", cache}, steps);
    tryStep(state, index, {"tile", reg}, steps);
    if (can.unroll)
      unrollReduction(state, index, steps);
    tryStep(state, index, {"vectorize", {}}, steps);
  };
  if (parallel.size() == 1 && n == 2 && op.isReduction[1]) {
    reg = {divisorAtMost(op.ranges[0], rows),
           vectorDivisor(op.ranges[1], cols, lanes)};
    cache = {reg[0], multipleAtMost(op.ranges[1], reg[1], 16 * cols)};
    return finish();
  }
  unsigned inner = parallel.empty() ? 0 : parallel.back();
  // Columns that no two-vector tile divides: peel the remainder off, so
  // the bulk keeps the full register tile. Where the columns are one such
  // tile and a rest of more than a vector (49 pixels = 32 + 17), that rest
  // is a third of the columns and runs in a masked tile: one-vector tiles
  // then leave a rest under a vector instead (48 + 1). With two tiles or more
  // before the rest (81, 121 pixels) that measured 0.82-1.16x, so they keep
  // theirs.
  // A rest across the lanes that is neither whole vectors nor a power of
  // two runs masked, and MLIR keeps a masked accumulator in memory across
  // the reduction. Where one-vector tiles leave a power of two of at least
  // 4 lanes instead (120 = 112 + 8, 1976 = 1968 + 8), they are faster even
  // though the bulk's register tile is then one vector wide: 0.54-0.58 ms
  // against 0.98-1.04 ms for 536 x 440 by 440 x 120, and 0.76-0.81 against
  // 0.99 ms for 353 x 48 by 48 x 1976. Not where fewer rows than a register
  // tile's stream B: with few accumulators, narrower tiles measured
  // 0.62-2.85x, mostly by the width of B's row blocks.
  // A fill fused into the register tiles keeps one-vector tiles instead
  // where a vector divides the columns: `fuse` must come first.
  bool keepsFill = fillsRegisters && !parallel.empty() &&
                   vectorDivisor(op.ranges[inner], cols, lanes) >= lanes;
  // The cache tile is at most this many rows by columns.
  const int64_t cacheRows = 8 * rows, cacheCols = 4 * cols;
  std::optional<unsigned> rowLoop;
  if (parallel.size() >= 2)
    rowLoop = parallel[parallel.size() - 2];
  // Fewer rows than a register tile's: the cache tile streams B's row
  // blocks instead.
  bool streamsB = rowLoop && op.ranges[*rowLoop] < rows;
  // B stored n x k: vectors along j would read across its rows.
  bool transposedB = readsStrided(op, inner);
  if (can.peel && !keepsFill && !parallel.empty()) {
    std::vector<int64_t> peel(n, 0);
    if (op.ranges[inner] > cols &&
        vectorDivisor(op.ranges[inner], cols, lanes) < cols) {
      int64_t rest = op.ranges[inner] % cols, laneRest = rest % lanes;
      bool unmaskedLaneRest = !streamsB && laneRest >= 4 &&
                              llvm::isPowerOf2_64(laneRest) && rest > lanes;
      peel[inner] =
          (rest > lanes && op.ranges[inner] < 2 * cols) || unmaskedLaneRest
              ? lanes
              : cols;
    }
    // Rows whose largest divisor up to the register tile's is under half
    // of it (353 or 199 rows: one; 346: two) are peeled too, so the bulk
    // keeps full register tiles: accumulators of one row by two vectors
    // reuse each row of B once. A 353 x 48 by 48 x 1976 product measured
    // 0.87 ms peeled at 8 rows against 1.94 ms in one-row tiles.
    if (rowLoop && op.ranges[*rowLoop] > rows &&
        2 * divisorAtMost(op.ranges[*rowLoop], rows) < rows)
      peel[*rowLoop] = rows;
    // A transposed B is packed, which a peeled op is not. The largest cache
    // tile is the shallowest, so a divisor up to its depth serves any.
    if (!transposedB && (streamsB || !fillsRegisters))
      peelReduction(
          op,
          streamsB ? kReductionStep
                   : cacheTileDepth(op, target, cacheRows, cacheCols, cols),
          peel);
    if (llvm::any_of(peel, [](int64_t p) { return p > 0; }))
      tryStep(state, index, {"peel", peel}, steps);
  }
  int64_t mc = 1, nc = 1;
  if (!parallel.empty()) {
    reg[inner] = vectorDivisor(op.ranges[inner], cols, lanes);
    cache[inner] = nc = multipleAtMost(op.ranges[inner], reg[inner], cacheCols);
  }
  for (unsigned l = 0; l < n; ++l) {
    if (op.isReduction[l] || l == inner)
      continue;
    if (rowLoop && l == *rowLoop) {
      reg[l] = divisorAtMost(
          op.ranges[l], rowsOfTile(rows, reg[inner], lanes,
                                   broadcastRowStride(op, l, inner), target));
      cache[l] = mc = multipleAtMost(op.ranges[l], reg[l], cacheRows);
    } else {
      cache[l] = 1; // batch loops
    }
  }
  if (streamsB) {
    fillsRegisters = false; // the cache tile streams B's row blocks
    cache[inner] = multipleAtMost(op.ranges[inner], reg[inner], 1024);
    for (unsigned l = 0; l < n; ++l)
      if (op.isReduction[l])
        cache[l] = reg[l] = divisorAtMost(op.ranges[l], kReductionStep);
    return finish();
  }
  int64_t depth = cacheTileDepth(op, target, mc, nc, cols);
  int64_t rowsPerTile = 1;
  for (unsigned l = 0; l < n; ++l)
    if (op.isReduction[l]) {
      cache[l] = divisorAtMost(op.ranges[l], depth);
      rowsPerTile *= cache[l];
    }
  if (can.promote && !op.peeled && !transposedB &&
      schedulePromoted(state, index, target, reg, can.unroll, steps))
    return;
  if (can.pack && reg[inner] % lanes == 0 &&
      (transposedB || readsAcrossPages(op, inner, rowsPerTile, target)) &&
      !op.peeled && schedulePacked(state, index, cache, reg, can.unroll, steps))
    return;
  finish();
}

/// The op reduces along its innermost loop only, and every operand that
/// loop reads, it reads contiguously (as its last dimension): a row
/// reduction such as a matrix-vector product, a row sum or maximum.
/// At most one operand reads the reduction loop together with a parallel
/// one (the matrix of a matrix-vector product; two would be a matmul with
/// B transposed, which the contraction tiles serve).
static bool isRowReduction(const OpState &op) {
  unsigned n = op.numLoops();
  if (n == 0 || op.img2col || !op.isReduction[n - 1] ||
      std::count(op.isReduction.begin(), op.isReduction.end(), true) != 1 ||
      !mlir::cast<mlir::linalg::LinalgOp>(op.info->op)
           .hasOnlyProjectedPermutations())
    return false;
  unsigned matrices = 0;
  for (const AccessMatrix &load : op.info->loads) {
    bool readsReduction = false, readsParallel = false;
    for (size_t row = 0; row < load.size(); ++row) {
      bool last = row + 1 == load.size();
      int64_t coefficient = load[row][n - 1];
      if (coefficient != 0 && !(last && coefficient == 1))
        return false;
      readsReduction |= coefficient != 0;
      for (unsigned l = 0; l + 1 < n; ++l)
        readsParallel |= load[row][l] != 0;
    }
    matrices += readsReduction && readsParallel;
  }
  return matrices <= 1;
}

/// Long row reductions keep two vectors of partial sums per row, or the
/// largest power of two below that divides the row (split_reduction), so the
/// loop adds whole vectors and reduces across lanes once per row at the end; a
/// few rows at a time (a quarter of the registers) read the rows side by side.
static bool scheduleRowReduction(ScheduleState &state, unsigned index,
                                 const measure::CpuTarget &target,
                                 std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  unsigned n = op.numLoops();
  int64_t range = op.ranges[n - 1], factor = 2 * lanesOf(op, target);
  // A row of 1000 still gains from 8 partials: halve the factor until it
  // divides the row, down to 4.
  while (factor > 4 && range % factor != 0)
    factor /= 2;
  if (range % factor != 0 || range < 4 * factor)
    return false;
  std::vector<int64_t> split(n, 0);
  split[n - 1] = factor;
  if (!tryStep(state, index, {"split_reduction", split}, steps))
    return false;
  // Loops now (parallel..., reduction / factor, factor).
  const OpState &after = state.ops[index];
  std::vector<int64_t> tile(after.numLoops(), 1);
  tile[n] = 0;
  if (n >= 2)
    tile[n - 2] = divisorAtMost(after.ranges[n - 2],
                                std::max(1, target.vectorRegisters / 8));
  tryStep(state, index, {"tile", tile}, steps);
  tryStep(state, index, {"vectorize", {}}, steps);
  return true;
}

/// A convolution's output columns with no divisor of at least half a
/// register tile (13, 27, 73) are tiled by 8 anyway, with the reduction
/// loops whole, and the last tile is padded; the reduction loops are then
/// tiled as `sizes` says. Every result tile is then copied in and out once,
/// which pays only against a long enough reduction: at least 256 products
/// per result where the columns would otherwise go one at a time, 1024
/// where two or three divide them. Measured side by side: 13 x 13 and
/// 17 x 17 layers of AlexNet, SqueezeNet and Inception (576-3456 products)
/// ran 1.9-3.9x faster; 1 x 1 convolutions over 40-96 channels, and 441-648
/// products in columns of two or three, ran 1.4-4x slower. Depthwise
/// convolutions and poolings read each input once or a few times: copying
/// their inputs measured 9-13x slower.
static bool padOutputColumns(ScheduleState &state, unsigned index,
                             const std::vector<int64_t> &sizes,
                             std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  constexpr unsigned columns = 2; // (n, oh, ow, ...) in every NHWC kind
  constexpr int64_t width = 8;
  int64_t minReduction = sizes[columns] == 1 ? 256 : 1024;
  if (op.kind.rfind("linalg.conv_2d_nhwc", 0) != 0 ||
      productsPerOutput(op) < minReduction || op.ranges[columns] <= width ||
      sizes[columns] * 2 >= width)
    return false;
  std::vector<int64_t> outer = sizes, inner(op.numLoops(), 0);
  outer[columns] = width;
  for (unsigned l = 0; l < op.numLoops(); ++l)
    if (op.isReduction[l])
      std::swap(outer[l], inner[l]);
  if (!tryStep(state, index, {"tile", outer}, steps) ||
      !tryStep(state, index, {"pad", {}}, steps))
    return false;
  if (llvm::any_of(inner, [](int64_t s) { return s > 0; }))
    tryStep(state, index, {"tile", inner}, steps);
  tryStep(state, index, {"vectorize", {}}, steps);
  return true;
}

/// Whether an NHWC convolution's filter (its loops (n, oh, ow, f, kh, kw,
/// c)) is larger than the L2 cache, so that it cannot stay there from one
/// tile of output pixels to the next.
static bool filterOutgrowsL2(const OpState &op,
                             const measure::CpuTarget &target) {
  return op.ranges[3] * op.ranges[4] * op.ranges[5] * op.ranges[6] *
             elementBytes(op) >
         l2BytesOf(target);
}

/// A convolution whose filter outgrows the L2 cache reads it again from
/// farther away for every tile of output pixels. Tiled over its output
/// channels first, each channel tile's slice of the filter is copied once
/// into a contiguous buffer (`promote`), which every pixel's tile then
/// streams from L2. The copy costs about what reading the filter a few
/// times does, so it pays only where many tiles of pixels read each slice.
/// Measured side by side on 3 x 3 layers of 256 and 512 channels with 28 to
/// 112 tiles of pixels: 1.19-1.23x faster. Where the filter fits the L2
/// (3 x 3 over 64 and 128 channels) the copy bought nothing (0.95-0.97x),
/// nor with 7 and 8 tiles of pixels (0.98-1.06x), nor on 1 x 1
/// convolutions (0.78-1.0x), whose pixels would re-read the input instead.
static bool promoteFilter(ScheduleState &state, unsigned index,
                          const std::vector<int64_t> &sizes,
                          const measure::CpuTarget &target,
                          std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  // (n, oh, ow, f, kh, kw, c)
  constexpr unsigned channels = 3, kh = 4, kw = 5;
  constexpr int64_t minPixelTiles = 16;
  int64_t pixelTiles = 1;
  for (unsigned l = 0; l < channels; ++l)
    pixelTiles *= op.ranges[l] / sizes[l];
  if (op.kind != "linalg.conv_2d_nhwc_hwcf" ||
      op.ranges[kh] * op.ranges[kw] < 2 || !filterOutgrowsL2(op, target) ||
      pixelTiles < minPixelTiles || sizes[channels] >= op.ranges[channels])
    return false;
  std::vector<int64_t> outer(op.numLoops(), 0), inner = sizes;
  outer[channels] = sizes[channels];
  inner[channels] = 0;
  if (!tryStep(state, index, {"tile", outer}, steps))
    return false;
  tryStep(state, index, {"promote", {}}, steps);
  tryStep(state, index, {"tile", inner}, steps);
  tryStep(state, index, {"vectorize", {}}, steps);
  return true;
}

/// A 1 x 1 NCHW convolution (loops (n, f, oh, ow, c, kh, kw)) with few
/// input channels and output rows of whole vectors, computed as it is: each
/// step loads a vector of a row of the image and multiplies it by a few
/// filters' scalars. Its fill is fused into the loop over output rows, so
/// each row is zeroed just before it is accumulated, in cache. With few
/// products per output such a convolution is bound by its output's
/// traffic, which a separate fill doubles; img2col adds a scalar copy of
/// the image, packing three copies of the output. Measured side by side
/// against both on layers of 21-272 channels with rows of 16 to 112
/// pixels: 1.1-3.2x. With a 3 x 3 window it lost to img2col where the
/// image has 2 channels (0.53x: each of 18 steps reloads the
/// accumulators), so windows keep img2col. Programs are read with such
/// convolutions as matmuls (Normalize.h) unless read as written. False, with
/// `state` as it was, where this does not hold or a stride or dilation moves
/// the rows.
static bool scheduleDirectNchwConv(ScheduleState &state, unsigned index,
                                   const measure::CpuTarget &target,
                                   std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  // (n, f, oh, ow, c, kh, kw)
  constexpr unsigned filters = 1, columns = 3;
  constexpr int64_t kMostProducts = 256;
  if (op.kind != "linalg.conv_2d_nchw_fchw" || op.numLoops() != 7)
    return false;
  // Rows of whole vectors, or long rows of half vectors (56 pixels with 16
  // lanes): at half the width per FMA the saved traffic still paid on rows
  // of 40-184 pixels (1.0-3.9x), not on rows of 8 or 24 (0.67-1.9x).
  int64_t lanes = lanesOf(op, target);
  if (op.ranges[columns] % lanes != 0 && op.ranges[columns] >= 2 * lanes)
    lanes /= 2;
  int64_t products = op.ranges[4] * op.ranges[5] * op.ranges[6];
  if (op.ranges[5] != 1 || op.ranges[6] != 1 || lanes < 4 ||
      op.ranges[columns] % lanes != 0 || products > kMostProducts)
    return false;
  for (const std::vector<WindowLoop> &window : analyzedWindows(*op.info))
    for (const WindowLoop &loop : window)
      if (loop.coefficient != 1)
        return false;
  int64_t block = divisorAtMost(op.ranges[filters], 8);
  ScheduleState trial = state;
  std::vector<TransformStep> trialSteps;
  if (!tryStep(trial, index, {"fuse", {1, block, 1, 0, 0, 0, 0}}, trialSteps) ||
      !tryStep(trial, index, {"tile", {1, block, 1, lanes, 1, 1, 1}},
               trialSteps) ||
      !tryStep(trial, index, {"vectorize", {}}, trialSteps))
    return false;
  state = trial;
  steps.insert(steps.end(), trialSteps.begin(), trialSteps.end());
  return true;
}

/// Whether img2col beats packing an NCHW convolution's filters (loops (n,
/// f, oh, ow, c, kh, kw)) on what each copies per call. img2col copies the
/// image once per product (N x OH x OW x C x KH x KW), packing copies the
/// filter (F x C x KH x KW): with at least as many filters as output
/// pixels, the image's copy is the smaller one. img2col then wins where its
/// matmul, vectorized along the pixels of an image, runs whole vectors with
/// no rest to peel: 8 x 8 and 12 x 12 outputs of 150-600 filters measured
/// 0.32-0.71x packed. With a rest (7 x 7: 48 + 1 pixels) packing still won
/// more often than not, up to 2x.
static bool img2colCopiesLess(const OpState &op, int64_t lanes) {
  int64_t imagePixels = op.ranges[2] * op.ranges[3];
  return imagePixels % lanes == 0 && op.ranges[1] >= op.ranges[0] * imagePixels;
}

/// An NCHW convolution (loops (n, f, oh, ow, c, kh, kw)) with its filters
/// packed in blocks of two vectors (one, the last padded, when two do not
/// divide them): the filter is copied once into [f / 2v][c][kh][kw][2v] and
/// the output is computed in [n][f / 2v][oh][ow][2v], so that each step of
/// the reduction reads one contiguous row of filters and a row of output
/// pixels, as NHWC does. The register tile is a row of up to `rows` output
/// pixels by the block, 8 channels deep; the window's loops and the output
/// row are tiled to 1, so the tile folds into a contraction that lowers to
/// FMAs. img2col instead copies each input element once per window tap,
/// computing its source with divisions. Packing costs a copy of the filter
/// and three of the output (packed, computed, unpacked), which pay only
/// with many products per output: measured side by side against img2col on
/// 53 ResNet, VGG and MobileNet layers and 212 of random shapes, packing
/// stays within at most as many filters as products per output (C x KH x
/// KW; 1.2-3.5x on the 3 x 3 layers, 0.13-0.68x on 1 x 1 layers with more
/// filters) and rows of at least five-eighths of a register tile (rows of 4
/// pixels measured 0.13-0.58x), and not where img2col copies less. False,
/// with `state` as it was, where these do not hold, with fewer filters than a
/// vector, or where a stride or dilation along the output row keeps the tile
/// from folding.
static bool schedulePackedConv(ScheduleState &state, unsigned index,
                               const HeuristicOptions &options,
                               std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  const measure::CpuTarget &target = options.target;
  // (n, f, oh, ow, c, kh, kw)
  constexpr unsigned filters = 1, columns = 3, channels = 4;
  if (op.kind != "linalg.conv_2d_nchw_fchw" || op.numLoops() != 7)
    return false;
  int64_t lanes = lanesOf(op, target), rows = registerRowsOf(target);
  int64_t block = 2 * lanes;
  int64_t width = divisorAtMost(op.ranges[columns], rows);
  int64_t products = op.ranges[channels] * op.ranges[5] * op.ranges[6];
  if (width * 8 < rows * 5 || op.ranges[filters] < lanes ||
      op.ranges[filters] > products || img2colCopiesLess(op, lanes))
    return false;
  ScheduleState trial = state;
  std::vector<TransformStep> trialSteps;
  if (options.threads > 1)
    if (std::optional<unsigned> l = threadedLoop(op, options.threads, target)) {
      std::vector<int64_t> sizes(op.numLoops(), 0);
      sizes[*l] = threadPart(op.ranges[*l], options.threads);
      tryStep(trial, index, {"parallelize", sizes}, trialSteps);
    }
  // Filters that no block of two vectors divides are packed by one vector,
  // the last block padded with zeros (72 filters: 80 computed).
  if (trial.ops[index].ranges[filters] % block != 0)
    block = lanes;
  std::vector<int64_t> pack(op.numLoops(), 0);
  pack[filters] = block;
  // Packed: (n, f / block, oh, ow, c, kh, kw, block); the block's loop
  // comes before the reduction loops, so the accumulators stay in
  // registers across them.
  std::vector<int64_t> tile = {
      1, 1, 1, width, 0, divisorAtMost(op.ranges[channels], 8), 1, 1};
  if (!tryStep(trial, index, {"pack", pack}, trialSteps) ||
      !tryStep(trial, index, {"interchange", {0, 1, 2, 3, 7, 4, 5, 6}},
               trialSteps) ||
      !tryStep(trial, index, {"tile", tile}, trialSteps) ||
      !tryStep(trial, index, {"vectorize", {}}, trialSteps))
    return false;
  state = trial;
  steps.insert(steps.end(), trialSteps.begin(), trialSteps.end());
  return true;
}

/// Windowed ops (conv, depthwise, pooling): tile output row and window row
/// to 1 so they decompose to 1-D, keep vectors along width and channels.
/// Channels that no whole vector divides (1089, 536) are peeled, so that the
/// main part runs whole vectors and a rest of less than one vector stays:
/// the convolution vectorizer cannot mask a partial tile, and the narrower
/// vectors that divide such channels measured 1.1-5x slower.
static void scheduleWindowed(ScheduleState &state, unsigned index,
                             const measure::CpuTarget &target, int threads,
                             const Extras &can,
                             std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  int64_t lanes = lanesOf(op, target);
  const std::string &kind = op.kind;
  bool pooling =
      kind == "linalg.pooling_nhwc_max" || kind == "linalg.pooling_nhwc_sum";
  std::vector<int64_t> sizes(op.numLoops(), 1);
  std::vector<int64_t> peeled(op.numLoops(), 0);
  auto set = [&](unsigned l, int64_t target) {
    sizes[l] = divisorAtMost(op.ranges[l], target);
  };
  auto setVector = [&](unsigned l, int64_t target) {
    int64_t range = op.ranges[l];
    sizes[l] = vectorDivisor(range, target, lanes);
    // A power of two of vectors: three (48 channels) measured 3.4x slower
    // than one on a max pooling.
    while (sizes[l] > lanes && !llvm::isPowerOf2_64(sizes[l] / lanes))
      sizes[l] = vectorDivisor(range, sizes[l] - lanes, lanes);
    if (!can.peel || sizes[l] >= lanes || range <= lanes)
      return;
    // The widest such tile whose main part holds every whole vector of the
    // loop, so the rest is under one vector.
    int64_t width = lanes;
    while (width * 2 <= std::min(target, range) &&
           range % (width * 2) == range % lanes)
      width *= 2;
    sizes[l] = peeled[l] = width;
  };
  if (kind == "linalg.conv_2d_nhwc_hwcf" ||
      kind == "linalg.conv_2d_nhwc_fhwc") {
    // (n, oh, ow, f, kh, kw, c): output columns x two vectors of filters.
    set(2, 8), setVector(3, 2 * lanes), set(6, 8);
  } else if (kind == "linalg.depthwise_conv_2d_nhwc_hwc") {
    // (n, oh, ow, c, kh, kw): one vector of channels per output column,
    // the window row whole, so its taps stay in registers.
    set(2, 8), setVector(3, lanes), sizes[5] = 0;
  } else if (pooling) {
    // (n, oh, ow, c, kh, kw): 4 output columns x 4 vectors of channels,
    // the window row whole. Where fewer columns divide the row (a global
    // pooling's one, a row of 7), the tile takes as many more channels, so
    // that each window tap reads a longer run of its input row.
    set(2, 4), setVector(3, 4 * lanes * (4 / sizes[2])), sizes[5] = 0;
  } else {
    return;
  }
  // Padding covers channels that no whole vector divides as well.
  if (can.pad && padOutputColumns(state, index, sizes, steps))
    return;
  bool peels = llvm::any_of(peeled, [](int64_t p) { return p > 0; });
  if (can.promote && !peels &&
      promoteFilter(state, index, sizes, target, steps))
    return;
  // A filter that stays beyond the L2 streams from there for every tile of
  // pixels: four vectors of output channels per column keep twice as many
  // of its rows in flight. Measured side by side on 7 x 7 layers with 4 and
  // 9.4 MB filters: 1.29-1.33x faster; with filters in the L2, or promoted,
  // 0.95-1.03x. The accumulators leave four registers free (a broadcast;
  // the filter's vectors also come straight from memory into the FMAs).
  if (op.kind == "linalg.conv_2d_nhwc_hwcf" && !peels &&
      filterOutgrowsL2(op, target) &&
      sizes[2] * 4 <= target.vectorRegisters - 4 &&
      vectorDivisor(op.ranges[3], 4 * lanes, lanes) == 4 * lanes)
    sizes[3] = 4 * lanes;
  // A pooling streams its input once: its fill is fused into the loop over
  // output rows, so each row is initialized while it is in cache instead of
  // in a pass of its own over the output. Only a fill: an elementwise
  // producer read through the window would be recomputed for each
  // overlapping row and left unvectorized. Not after `parallelize`, which
  // fuse must precede.
  if (pooling && !peels) {
    std::vector<unsigned> producers = fusableProducers(state, index);
    if (!producers.empty() && onlyFills(state, producers))
      tryStep(state, index, {"fuse", {1, 1, 0, 0, 0, 0}}, steps);
  }
  // A convolution's fill is fused into its register tiles where the
  // reduction is short (as a contraction's), and with threads, whose loop
  // the fuse's tiles then are: the fill is not a parallel pass of its own
  // over the output. Measured side by side at 2 threads on four NHWC layers
  // of 7 x 7 to 112 x 112 pixels and 16 to 1,152 products per output:
  // 1.14-1.38x against splitting the rows with the fill apart; at 1 thread
  // 1.34x on the 16-product layer, 0.96-1.0x on the longer ones.
  bool convolution =
      kind == "linalg.conv_2d_nhwc_hwcf" || kind == "linalg.conv_2d_nhwc_fhwc";
  if (convolution && !peels && fillFusable(state, index) &&
      (threads > 1 || productsPerOutput(op) <= kShortReduction))
    tryStep(state, index, {"fuse", overParallelLoops(op, sizes)}, steps);
  if (peels && !tryStep(state, index, {"peel", peeled}, steps))
    for (unsigned l = 0; l < op.numLoops(); ++l)
      if (peeled[l] > 0)
        sizes[l] = vectorDivisor(op.ranges[l], sizes[l], lanes);
  tryStep(state, index, {"tile", sizes}, steps);
  tryStep(state, index, {"vectorize", {}}, steps);
}

/// Whether the op streams its operands as an elementwise op or a row
/// reduction does, rather than being a window or a named contraction with
/// a schedule of its own.
static bool streams(const OpState &op) {
  if (op.info->reusesOperands)
    return false;
  switch (op.opClass) {
  case OpClass::Fill:
  case OpClass::Elementwise:
  case OpClass::Reduction:
    return true;
  case OpClass::Matmul: // a generic reduction of two operands that reads
                        // each about once (a sum of squared deviations)
    return op.kind == "linalg.generic";
  default:
    return false;
  }
}

/// The vectors of one row a fused elementwise chain computes at a time.
constexpr int64_t kChainBlockVectors = 4;

/// The width of a one-row tile of `row` elements: whole vectors where they
/// divide the row, else the widest multiple of the widest power of two (up
/// to a vector) that divides it, up to `kChainBlockVectors` vectors.
static int64_t oneRowWidth(int64_t row, int64_t lanes) {
  return multipleAtMost(row, vectorDivisor(row, lanes, lanes),
                        kChainBlockVectors * lanes);
}

/// A streaming op whose producers stream too, over tensors too big to stay
/// in half the L2 cache from one op to the next, is tiled with one loop over
/// blocks, and its producers are fused into that loop: each block computes
/// the chain's slices back to back while they are in cache instead of
/// writing and reading every intermediate tensor whole. With threads, this
/// loop is also the parallel one.
///
/// When a fused producer reduces (a row's sum needs all of it), a block is
/// up to 8 whole rows in half the L1 cache. Otherwise a block is one row of
/// up to four vectors (`kChainBlockVectors`), which each op of the chain
/// vectorizes whole: the values stay in registers from op to op. Blocks of
/// 7 rows of 512 channels, each op tiling them again by 64, measured 2.5x
/// slower on a batch-norm-ReLU chain, and one bias-GELU took 2.4x as long.
/// Rows that no whole vector divides take blocks of the widest multiple of
/// the widest power of two dividing them that divides them too (40 of
/// 3,240 channels: 1.9x; 49 of 245: 3.3x); under half a vector, whole rows
/// again, as where the op itself reduces along its rows.
static bool scheduleFusedChain(ScheduleState &state, unsigned index,
                               const measure::CpuTarget &target,
                               std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  if (!op.history.empty() ||
      (op.opClass != OpClass::Elementwise &&
       op.opClass != OpClass::Reduction) ||
      !streams(op))
    return false;
  std::vector<unsigned> producers = fusableProducers(state, index);
  bool reduces = false;
  int64_t largest = op.info->largestOperandBytes;
  for (unsigned p : producers) {
    const OpState &producer = state.ops[p];
    if (!streams(producer))
      return false;
    reduces |= llvm::is_contained(producer.isReduction, true);
    largest = std::max(largest, producer.info->largestOperandBytes);
  }
  long l2 = l2BytesOf(target);
  if (onlyFills(state, producers) || largest <= l2 / 2)
    return false;
  unsigned n = op.numLoops();
  if (n == 0)
    return false;
  std::vector<int64_t> sizes(n, 0);
  for (unsigned l = 0; l + 2 < n; ++l)
    sizes[l] = op.isReduction[l] ? 0 : 1;
  int64_t lanes = lanesOf(op, target);
  int64_t row = op.ranges[n - 1];
  if (!reduces && !op.isReduction[n - 1]) {
    int64_t chunk = oneRowWidth(row, lanes);
    if (2 * chunk >= lanes) {
      if (n >= 2)
        sizes[n - 2] = op.isReduction[n - 2] ? 0 : 1;
      sizes[n - 1] = chunk < row ? chunk : 0;
      return tryStep(state, index, {"fuse", sizes}, steps);
    }
  }
  // Whole rows, as many, up to 8, as fit in half the L1.
  long l1 = l1BytesOf(target);
  int64_t bytes = elementBytes(op);
  if (n >= 2 && !op.isReduction[n - 2])
    sizes[n - 2] = divisorAtMost(
        op.ranges[n - 2], std::clamp<int64_t>(l1 / 2 / (row * bytes), 1, 8));
  return tryStep(state, index, {"fuse", sizes}, steps);
}

/// Whether an input holds one value per row of the two innermost loops (a
/// softmax's row sums, a layernorm's means): it follows the rows but not the
/// columns, so a block of several rows spreads it across each vector with a
/// broadcast and a transpose.
static bool readsPerRow(const OpState &op) {
  unsigned n = op.numLoops();
  if (n < 2)
    return false;
  for (const AccessMatrix &load : op.info->loads) {
    bool rows = false, columns = false;
    for (const std::vector<int64_t> &dim : load) {
      rows |= dim[n - 2] != 0;
      columns |= dim[n - 1] != 0;
    }
    if (rows && !columns)
      return true;
  }
  return false;
}

/// Tiles op `index` to `sizes` and vectorizes it, or leaves it as it is when
/// the vectorizer cannot take it (a strided read, `d * 2` in a map): tiles
/// alone only add loops around the same scalar code. Without the tile, the
/// copy of a ResNet-18 downsampling layer's pixels made the layer 1.20x
/// faster at one thread and 1.19x at two.
static bool tileAndVectorize(ScheduleState &state, unsigned index,
                             const std::vector<int64_t> &sizes,
                             std::vector<TransformStep> &steps) {
  ScheduleState trial = state;
  std::vector<TransformStep> tried;
  tryStep(trial, index, {"tile", sizes}, tried);
  if (!tryStep(trial, index, {"vectorize", {}}, tried))
    return false;
  state = std::move(trial);
  steps.insert(steps.end(), tried.begin(), tried.end());
  return true;
}

/// The loop along which an input is contiguous when that input reads the
/// innermost loop along another dimension: a transposed input (NHWC to
/// NCHW, a matrix's transpose). None when every input that reads the
/// innermost loop reads it contiguously.
static std::optional<unsigned> transposedLoop(const OpState &op) {
  unsigned n = op.numLoops();
  if (n < 2 || op.isReduction[n - 1])
    return std::nullopt;
  for (const AccessMatrix &load : op.info->loads) {
    if (load.empty() || load.back()[n - 1] != 0)
      continue;
    std::optional<unsigned> contiguous;
    int loops = 0;
    for (unsigned l = 0; l < n; ++l)
      if (load.back()[l] != 0) {
        contiguous = l;
        ++loops;
      }
    bool readsInner = false;
    for (const std::vector<int64_t> &dim : load)
      readsInner |= dim[n - 1] != 0;
    if (readsInner && loops == 1 && !op.isReduction[*contiguous])
      return contiguous;
  }
  return std::nullopt;
}

/// A transposed input: vectors along the output's innermost loop alone
/// would gather every element a row apart (slower than the naive loops on
/// an NHWC to NCHW transpose). Both loops are tiled by a vector instead:
/// each block reads whole vectors along the input's rows, transposes them in
/// registers and writes whole vectors along the output's (5x over naive on
/// that transpose). False when either loop has no divisor of at least
/// four lanes, or the op does not vectorize.
static bool scheduleTransposed(ScheduleState &state, unsigned index,
                               const measure::CpuTarget &target,
                               std::vector<TransformStep> &steps) {
  const OpState &op = state.ops[index];
  std::optional<unsigned> across = transposedLoop(op);
  if (!across)
    return false;
  unsigned n = op.numLoops();
  int64_t lanes = lanesOf(op, target);
  std::vector<int64_t> sizes(n, 1);
  sizes[*across] = vectorDivisor(op.ranges[*across], lanes, lanes);
  sizes[n - 1] = vectorDivisor(op.ranges[n - 1], lanes, lanes);
  if (sizes[*across] < 4 || sizes[n - 1] < 4)
    return false;
  return tileAndVectorize(state, index, sizes, steps);
}

/// Whether the op runs in a fused loop's blocks: fused into a consumer, or
/// the consumer.
static bool inChainBlock(const OpState &op) {
  return op.fusedInto >= 0 ||
         llvm::any_of(op.history, [](const TransformStep &step) {
           return step.name == "fuse";
         });
}

/// Everything else: tile the two innermost loops to a block of 8 rows of
/// four vectors, or one row when an input holds a value per row. A row that
/// only 1 or 2 divides (a prime number of channels, a vocabulary) would get
/// vectors of 1 or 2 elements, gathered across rows: it is vectorized whole
/// instead, in fewer rows, when it fits the block, and else in masked tiles of
/// four vectors, one row at a time (peeling such rows measured up to 15x slower
/// on 4-D ops). Narrower vectors of 4 or 8 elements measured faster than whole
/// rows.
static void scheduleGeneric(ScheduleState &state, unsigned index,
                            const measure::CpuTarget &target,
                            std::vector<TransformStep> &steps) {
  if (scheduleTransposed(state, index, target, steps))
    return;
  const OpState &op = state.ops[index];
  std::vector<int64_t> sizes(op.numLoops(), 1);
  unsigned n = op.numLoops();
  int64_t lanes = lanesOf(op, target);
  if (n >= 1)
    sizes[n - 1] = vectorDivisor(op.ranges[n - 1], 4 * lanes, lanes);
  if (n >= 2)
    sizes[n - 2] = readsPerRow(op) ? 1 : divisorAtMost(op.ranges[n - 2], 8);
  int64_t row = n >= 1 ? op.ranges[n - 1] : 0, block = 8 * 4 * lanes;
  // A tile of one row that no whole vector divides: as wide a multiple of
  // its power-of-two width as divides it (40 of a softmax's 1,000 columns:
  // 1.31x over 8).
  if (n >= 2 && sizes[n - 2] == 1 && sizes[n - 1] >= 4)
    sizes[n - 1] = oneRowWidth(row, lanes);
  if (n >= 1 && sizes[n - 1] < 4 && row > lanes) {
    sizes[n - 1] = row <= block ? row : 4 * lanes;
    if (n >= 2)
      sizes[n - 2] =
          row <= block ? divisorAtMost(op.ranges[n - 2], block / row) : 1;
  }
  // A fused chain's block of one row of a few vectors is vectorized whole,
  // whatever its width.
  if (n >= 1 && inChainBlock(op) && row <= kChainBlockVectors * lanes &&
      std::all_of(op.ranges.begin(), op.ranges.end() - 1,
                  [](int64_t range) { return range == 1; }))
    sizes = op.ranges;
  // A fill fused into a register tile (at most its rows x two vectors) is
  // vectorized whole: its zeros are then the accumulators' first values.
  if (op.opClass == OpClass::Fill && op.fusedInto >= 0 &&
      op.iterationCount() <= registerRowsOf(target) * 2 * lanes)
    sizes = op.ranges;
  tileAndVectorize(state, index, sizes, steps);
}

/// The steps of op `index`, applied to `state`. With `split` false, no
/// loop is split among the threads first: only a `fuse` the schedule
/// begins with runs on them.
static std::vector<TransformStep> scheduleOp(ScheduleState &state,
                                             unsigned index,
                                             const HeuristicOptions &options,
                                             bool split) {
  Extras can(options.extraTransformations);
  std::vector<TransformStep> steps;
  const OpState &op = state.ops[index];
  HeuristicOptions splitting = options;
  if (!split)
    splitting.threads = 1;
  if (scheduleDirectNchwConv(state, index, options.target, steps) ||
      (can.pack && schedulePackedConv(state, index, splitting, steps)))
    return steps;
  bool fused = scheduleFusedChain(state, index, options.target, steps);
  // An elementwise op over same-shaped operands streams its elements in
  // one loop, vectors running across row ends.
  if (!fused && op.opClass == OpClass::Elementwise && can.flatten)
    tryStep(state, index, {"flatten", {}}, steps);
  // Before the threads: img2col applies only to the untransformed op.
  if (op.kind == "linalg.conv_2d_nchw_fchw")
    tryStep(state, index, {"img2col", {}}, steps);
  if (split && options.threads > 1 && !fused) {
    if (std::optional<unsigned> l =
            threadedLoop(op, options.threads, options.target)) {
      std::vector<int64_t> sizes(op.numLoops(), 0);
      sizes[*l] = threadPart(op.ranges[*l], options.threads);
      tryStep(state, index, {"parallelize", sizes}, steps);
    }
  }
  if (can.splitReduction && isRowReduction(op) &&
      scheduleRowReduction(state, index, options.target, steps))
    return steps;
  switch (state.ops[index].opClass) {
  case OpClass::Matmul:
    scheduleContraction(state, index, options.target, can, steps);
    break;
  case OpClass::Conv2d:
  case OpClass::Pooling:
    scheduleWindowed(state, index, options.target, options.threads, can, steps);
    break;
  default:
    scheduleGeneric(state, index, options.target, steps);
    break;
  }
  return steps;
}

/// Whether `steps` begin with a fuse whose loop has at least four tiles per
/// thread, so that static shares of them are within a fifth of even.
static bool fuseSpreadsOver(const OpState &op,
                            const std::vector<TransformStep> &steps,
                            int threads) {
  if (steps.empty() || steps.front().name != "fuse")
    return false;
  int64_t tiles = 1;
  for (unsigned l = 0; l < op.numLoops(); ++l)
    if (int64_t size = steps.front().params[l]; size > 0)
      tiles *= (op.ranges[l] + size - 1) / size;
  return tiles >= 4 * threads;
}

Schedule heuristicSchedule(const Program &program,
                           const HeuristicOptions &options) {
  ScheduleState state(program.ops, options.limits);
  Schedule schedule;
  for (unsigned index = program.ops.size(); index-- > 0;) {
    // `fuse` tiles with scf.forall, whose tiles the threads share: a
    // schedule that begins with it (a fill fused into a contraction's or a
    // convolution's register tiles, or a pooling's rows) runs on the
    // threads as it is, where splitting the op first would keep its fill a
    // pass of its own. Measured on a 96 x 16 by 16 x 12544 product at 2
    // threads: 0.20 ms against 0.32 ms split by filters with the fill apart.
    std::vector<TransformStep> steps;
    if (options.threads > 1) {
      ScheduleState trial = state;
      steps = scheduleOp(trial, index, options, /*split=*/false);
      if (fuseSpreadsOver(state.ops[index], steps, options.threads))
        state = std::move(trial);
      else
        steps.clear();
    }
    if (steps.empty())
      steps = scheduleOp(state, index, options, /*split=*/true);
    if (!steps.empty())
      schedule.ops.push_back({program.ops[index].id, steps});
  }
  return schedule;
}

} // namespace rlopt::linalg
