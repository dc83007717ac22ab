// Mutation helpers for HLO modules: users, fresh names, new instructions,
// replacement and removal, topological order, computation cloning.
//
// Computations own their instructions in an append-only list, so edits are
// collected by a ModuleEditor and applied by commit(): replacements are
// resolved, instructions left dead by them are removed, and the module is
// rebuilt with every computation in topological order (operands before
// users, callees before callers).
#ifndef RLOPT_GRAPH_GRAPHEDIT_H
#define RLOPT_GRAPH_GRAPHEDIT_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Module.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace rlopt::graph {

/// True if removing, duplicating, merging or moving the instruction could
/// change what the program does: rng, infeed/outfeed, send/recv,
/// custom-calls, collectives and async ops, add-dependency, and calls of
/// computations that contain any of these.
bool hasSideEffect(const Instruction &instruction);

/// An array shape with XLA's default layout (`{rank-1,...,0}`), so new
/// instructions print like the dump's.
Shape arrayShape(ElementType type, std::vector<int64_t> dims);

/// The users of each instruction of one computation, in instruction order,
/// one entry per using instruction.
class UseMap {
public:
  explicit UseMap(const Computation &computation);
  const std::vector<Instruction *> &users(const Instruction *instruction) const;
  /// Uses, counting the root as one use.
  size_t useCount(const Instruction *instruction) const;

private:
  std::unordered_map<const Instruction *, std::vector<Instruction *>> map;
  const Instruction *root = nullptr;
};

/// The computations reachable from the entry, callees before callers.
std::vector<Computation *> reachableComputations(const Module &module);

using CallerMap =
    std::unordered_map<const Computation *, std::vector<Instruction *>>;

/// For each computation, the instructions of the module that call it.
CallerMap callersOf(const Module &module);

/// A while loop whose body and condition are two computations that no other
/// instruction calls, so that editing them changes this loop alone.
bool ownsItsComputations(const Instruction &loop, const CallerMap &callers);

/// The instructions of `computation` in topological order: operands before
/// users, otherwise in written order.
std::vector<Instruction *> topologicalOrder(const Computation &computation);

/// Instruction and computation names not yet used in a module.
class NameTable {
public:
  explicit NameTable(const Module &module);
  /// `base.N` for the next free N (module-wide, deterministic).
  std::string fresh(std::string_view base);
  std::string freshComputation(std::string_view base);
  void reserve(const std::string &name) { instructionNames.insert(name); }

private:
  std::unordered_set<std::string> instructionNames, computationNames;
  int64_t next = 1;
};

/// A copy of `instruction` (attributes, literal, parameter number, called
/// computations) under `name`, with the given operands, owned by nothing yet.
std::unique_ptr<Instruction>
copyInstruction(const Instruction &instruction, std::string name,
                std::vector<Instruction *> operands);

/// Collects one pass's edits of a module; see the file comment.
class ModuleEditor {
public:
  explicit ModuleEditor(Module &module);

  Module &module() { return target; }
  NameTable &names() { return nameTable; }

  /// Appends a new instruction named after its opcode. Attributes are set by
  /// the caller; commit() puts it in order.
  Instruction *add(Computation &computation, Opcode opcode, Shape shape,
                   std::vector<Instruction *> operands = {});
  /// add() plus `key=value` attributes, which must be well formed.
  Instruction *
  add(Computation &computation, Opcode opcode, Shape shape,
      std::vector<Instruction *> operands,
      const std::vector<std::pair<std::string, std::string>> &attributes);
  /// A scalar or array constant with the given literal text.
  Instruction *addConstant(Computation &computation, const Shape &shape,
                           const std::string &literalText);
  /// Adds `copy` (from copyInstruction) to `computation`.
  Instruction *adopt(Computation &computation,
                     std::unique_ptr<Instruction> copy);
  Computation *addComputation(std::unique_ptr<Computation> computation);

  /// Every use of `from` (the root included) becomes a use of `to`; `from`
  /// and the operands only it used are removed at commit() if nothing else
  /// uses them. `from` goes even if it has side effects: the caller vouches
  /// they are kept elsewhere (an inlined call) or void.
  void replace(Instruction *from, Instruction *to);
  /// What `instruction` stands for after the replacements so far.
  Instruction *resolve(Instruction *instruction) const;
  /// Points the operands of `instruction` at their replacements.
  void resolveOperands(Instruction &instruction) const;
  /// Removes `instruction` at commit() if it is unused then (and the
  /// operands only it used).
  void removeIfDead(Instruction *instruction);
  /// Drops `computation` at commit(); nothing may call it by then.
  void removeComputation(Computation *computation);
  /// Records an in-place change (attributes, operands).
  void markChanged() { changedInPlace = true; }
  bool changed() const;

  /// Applies the edits and rebuilds the module; returns changed().
  /// Dropping unreachable computations is optional (HloDCE's part).
  bool commit(bool dropUnreachableComputations = false);

private:
  Module &target;
  NameTable nameTable;
  std::unordered_map<Instruction *, Instruction *> replacements;
  std::vector<Instruction *> candidates;
  std::unordered_set<const Computation *> droppedComputations;
  bool changedInPlace = false;
  std::unordered_set<const Instruction *> added;
};

/// One step of a local rewrite: returns the instruction that replaces
/// `instruction`, or null to keep it.
using RewriteRule = std::function<Instruction *(Instruction &instruction,
                                                ModuleEditor &editor)>;

/// Applies `rule` once to every instruction of every computation in
/// topological order, operands resolved through earlier replacements;
/// instructions the rule adds are visited after the existing ones. Commits
/// and returns whether anything changed.
bool rewriteEachInstruction(Module &module, const RewriteRule &rule);

/// Clones `computation` into the module under a fresh name; the
/// instructions keep their names (names are per computation).
Computation *cloneComputation(ModuleEditor &editor,
                              const Computation &computation);

/// Copies the instructions of `callee` into `caller` in front of its users,
/// parameters bound to `arguments`; returns the copy of the callee's root.
/// Names that clash in `caller` are replaced by fresh ones. Fails, changing
/// nothing, when an elided constant would have to be renamed (its value is
/// tied to its name).
Result<Instruction *>
inlineComputation(ModuleEditor &editor, Computation &caller,
                  const Computation &callee,
                  const std::vector<Instruction *> &arguments);
/// As above, with the names in use in `caller` kept in `callerNames` from
/// one call to the next: inlining many sites into one computation then
/// costs the size of what is inlined, not the caller's size per site.
Result<Instruction *>
inlineComputation(ModuleEditor &editor, Computation &caller,
                  const Computation &callee,
                  const std::vector<Instruction *> &arguments,
                  std::unordered_set<std::string> &callerNames);

} // namespace rlopt::graph

#endif
