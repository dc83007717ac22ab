// An HLO computation: instructions in order, one of them the root.
#ifndef RLOPT_GRAPH_COMPUTATION_H
#define RLOPT_GRAPH_COMPUTATION_H

#include "rlopt/graph/Instruction.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rlopt::graph {

/// Owns its instructions; their addresses stay valid while it lives.
class Computation {
public:
  explicit Computation(std::string name) : computationName(std::move(name)) {}
  Computation(const Computation &) = delete;
  Computation &operator=(const Computation &) = delete;

  const std::string &name() const { return computationName; }
  void setName(std::string name) { computationName = std::move(name); }
  const std::vector<std::unique_ptr<Instruction>> &instructions() const {
    return instructionList;
  }
  size_t instructionCount() const { return instructionList.size(); }
  /// Appends `instruction`; the computation takes ownership.
  Instruction *addInstruction(std::unique_ptr<Instruction> instruction);
  /// The instruction named `name`, or null (linear search).
  Instruction *findInstruction(std::string_view name) const;

  /// The ROOT instruction, or null if none is set.
  Instruction *root() const { return rootInstruction; }
  void setRoot(Instruction *root) { rootInstruction = root; }

  /// Parameter instructions ordered by parameter number.
  std::vector<Instruction *> parameters() const;

private:
  std::string computationName;
  std::vector<std::unique_ptr<Instruction>> instructionList;
  Instruction *rootInstruction = nullptr;
};

} // namespace rlopt::graph

#endif
