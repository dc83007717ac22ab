// Writes one MLIR function on static f32 tensors, line by line, in the form
// `rlopt inspect` accepts, and keeps the books the manifests need: FLOPs as
// the ops are written (one per arithmetic op per point; a multiply-add is
// two, exp or rsqrt one), and the Linalg ops with their producer ->
// consumer edges, counted the way the environment's analysis counts them.
#ifndef RLOPT_SRC_DATA_PROGRAMWRITER_H
#define RLOPT_SRC_DATA_PROGRAMWRITER_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rlopt::data::detail {

using Shape = std::vector<int64_t>;

int64_t numElements(const Shape &shape);
std::string joinShape(const Shape &shape, const std::string &sep);
std::string tensorType(const Shape &shape);

/// A value and its tensor shape.
struct Value {
  std::string name; ///< with the leading %
  Shape shape;
  /// The Linalg op (in program order) that defines the value; -1 for
  /// arguments and reshapes, which the analysis does not see through.
  int producer = -1;
  std::string type() const { return tensorType(shape); }
};

/// A linalg.generic in full: loops, maps and body. Block-argument and body
/// names live in the op's region, which is not isolated from above: they
/// must differ from the function's names (fresh() keeps clear of them).
struct GenericSpec {
  std::vector<std::pair<Value, std::string>> ins; ///< value, map alias
  Value out;
  std::string outMap;
  std::vector<int64_t> loops;
  std::vector<bool> reduction; ///< per loop
  std::vector<std::string> blockArgs;
  std::vector<std::string> body;
  int opsPerPoint = 0; ///< arithmetic per point of the iteration space
};

class ProgramWriter {
public:
  Value arg(const std::string &name, Shape shape);

  /// `%name = arith.constant literal : f32`, once per name.
  std::string constant(const std::string &name, const std::string &literal);

  Value empty(const std::string &name, const Shape &shape);
  Value fill(const std::string &name, const std::string &scalar,
             const Value &init);

  /// A named structured op `opName` with `attrs` (may be empty). Add its
  /// FLOPs to `flops` before writing it, so that its record holds them.
  Value named(const std::string &name, const std::string &opName,
              const std::string &attrs, const std::vector<Value> &ins,
              const Value &out, const std::string &trailing = "");

  /// The affine map alias `kind` for `rank` loops: id (every loop), rows
  /// (all but the last), last (only the last), tail (all but the first).
  std::string map(const std::string &kind, size_t rank);
  /// An alias for `(d0, ..) -> (results)` over `rank` loops, once per map.
  std::string customMap(size_t rank, const std::vector<std::string> &results);

  /// A linalg.generic over the loops of `out` (plus one trailing reduction
  /// loop when `reduceLast`), its block arguments `blockArgs` (one per
  /// input, then the output).
  Value generic(const std::string &name,
                const std::vector<std::pair<Value, std::string>> &ins,
                const Value &out, const std::string &outMap, size_t loops,
                bool reduceLast, const std::vector<std::string> &blockArgs,
                const std::vector<std::string> &body, int opsPerPoint);
  Value generic(const std::string &name, const GenericSpec &spec);

  /// tensor.expand_shape or tensor.collapse_shape of `in` to `shape`.
  Value expand(const std::string &name, const Value &in,
               const std::vector<std::vector<int>> &groups, const Shape &shape);
  Value collapse(const std::string &name, const Value &in,
                 const std::vector<std::vector<int>> &groups);

  /// tensor.pad of `in` by `amount` on both sides of each dimension,
  /// filled with the f32 value `border`.
  Value pad(const std::string &name, const Value &in,
            const std::vector<int64_t> &amount, const std::string &border);

  void line(const std::string &text) { lines.push_back("  " + text); }

  /// `base`, or `base_N` if the function already holds a value by that name
  /// (or a region could); registers the name.
  std::string fresh(const std::string &base);

  std::string finish(const std::string &header, const std::string &funcName,
                     const std::vector<Value> &results);

  std::vector<Value> args;
  double flops = 0;

  /// The Linalg ops written so far: operation name, producer ops, and the
  /// FLOPs and output elements the naive-time estimate needs.
  struct OpRecord {
    std::string kind;
    std::vector<int> producers;
    double flops = 0;
    double outputElements = 0;
  };
  const std::vector<OpRecord> &ops() const { return opRecords; }
  size_t numEdges() const;
  /// Ops per operation name, e.g. {"linalg.matmul": 3, ...}.
  std::map<std::string, int> opCounts() const;

private:
  /// Registers a Linalg op reading `operands` (the last one its output);
  /// its FLOPs are those counted since the previous op. Returns its index.
  int record(const std::string &kind, const std::vector<Value> &operands);
  void use(const std::string &name);

  std::vector<std::string> constants, mapAliases, mapDefs, lines;
  std::map<std::string, int> used;
  std::vector<OpRecord> opRecords;
  double flopsRecorded = 0;
};

} // namespace rlopt::data::detail

#endif
