// An HLO module: named computations, one of them the entry.
#ifndef RLOPT_GRAPH_MODULE_H
#define RLOPT_GRAPH_MODULE_H

#include "rlopt/graph/Computation.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rlopt::graph {

/// How HLO text spells a module. XLA has two print styles and dumps use
/// both: `%x = f32[] add(f32[] %a, f32[] %b)` under computation signatures
/// `%c (a: f32[]) -> f32[] {`, and the short `x = f32[] add(a, b)` under
/// `c {`. The parser records the style it read so printing reproduces it.
struct TextStyle {
  bool percentNames = true;  // `%name`
  bool operandShapes = true; // `f32[2]{0} %x` operands, `/*index=N*/` marks
  bool signatures = true;    // `(p: f32[]) -> f32[]` after computation names

  bool operator==(const TextStyle &other) const {
    return percentNames == other.percentNames &&
           operandShapes == other.operandShapes &&
           signatures == other.signatures;
  }
};

/// Owns its computations, in written order (callees before callers in
/// XLA's output). Movable, not copyable: use clone().
class Module {
public:
  explicit Module(std::string name = "") : moduleName(std::move(name)) {}
  Module(Module &&) = default;
  Module &operator=(Module &&) = default;

  const std::string &name() const { return moduleName; }
  void setName(std::string name) { moduleName = std::move(name); }

  /// `HloModule name, key=value, ...`: the header's attributes as written
  /// (input_output_alias, entry_computation_layout, ...).
  const std::vector<Attribute> &headerAttributes() const { return header; }
  std::vector<Attribute> &headerAttributes() { return header; }

  const std::vector<std::unique_ptr<Computation>> &computations() const {
    return computationList;
  }
  Computation *addComputation(std::unique_ptr<Computation> computation);
  Computation *findComputation(std::string_view name) const;
  Computation *entry() const { return entryComputation; }
  void setEntry(Computation *entry) { entryComputation = entry; }

  /// Instructions over all computations.
  size_t instructionCount() const;

  const TextStyle &style() const { return textStyle; }
  void setStyle(TextStyle style) { textStyle = style; }

  /// A deep copy whose instructions and computations refer to each other.
  Module clone() const;

private:
  std::string moduleName;
  std::vector<Attribute> header;
  std::vector<std::unique_ptr<Computation>> computationList;
  Computation *entryComputation = nullptr;
  TextStyle textStyle;
};

} // namespace rlopt::graph

#endif
