// The largest exportable piece of an entry computation, as a module of its
// own (the choice is described in the header).
#include "rlopt/graph/TosaExport.h"

#include "rlopt/graph/GraphEdit.h"
#include "rlopt/graph/Verifier.h"

#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace rlopt::graph {

namespace {

class Components {
public:
  explicit Components(size_t size) : parent(size) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  size_t find(size_t node) {
    while (parent[node] != node)
      node = parent[node] = parent[parent[node]];
    return node;
  }
  void join(size_t a, size_t b) { parent[find(a)] = find(b); }

private:
  std::vector<size_t> parent;
};

// The instructions of the winning component in topological order,
// parameters excluded.
std::vector<const Instruction *>
largestComponent(const std::vector<Instruction *> &order) {
  std::unordered_map<const Instruction *, size_t> index;
  std::vector<bool> member(order.size(), false);
  for (size_t i = 0; i < order.size(); ++i) {
    index[order[i]] = i;
    member[i] = order[i]->opcode() == Opcode::Parameter ||
                checkTosaSupport(*order[i]).ok();
  }
  Components components(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    if (!member[i] || order[i]->opcode() == Opcode::Parameter)
      continue;
    for (const Instruction *operand : order[i]->operands())
      if (member[index.at(operand)])
        components.join(i, index.at(operand));
  }

  std::unordered_map<size_t, size_t> sizes;
  for (size_t i = 0; i < order.size(); ++i)
    if (member[i] && order[i]->opcode() != Opcode::Parameter)
      ++sizes[components.find(i)];
  // Scanning in topological order makes the earliest component win ties.
  std::optional<size_t> best;
  for (size_t i = 0; i < order.size(); ++i) {
    if (!member[i] || order[i]->opcode() == Opcode::Parameter)
      continue;
    size_t component = components.find(i);
    if (!best || sizes[component] > sizes[*best])
      best = component;
  }

  std::vector<const Instruction *> chosen;
  for (size_t i = 0; best && i < order.size(); ++i)
    if (member[i] && order[i]->opcode() != Opcode::Parameter &&
        components.find(i) == *best)
      chosen.push_back(order[i]);
  return chosen;
}

// TOSA tensors have no layout; dropping it lets rlopt's layout-sensitive
// passes see the graph MLIR sees.
Shape withoutLayout(Shape shape) {
  shape.setLayout("");
  return shape;
}

std::unique_ptr<Computation> copyReducer(const Computation &reducer) {
  auto copy = std::make_unique<Computation>(reducer.name());
  std::unordered_map<const Instruction *, Instruction *> copies;
  for (const auto &instruction : reducer.instructions()) {
    std::vector<Instruction *> operands;
    for (const Instruction *operand : instruction->operands())
      operands.push_back(copies.at(operand));
    auto copied = copyInstruction(*instruction, instruction->name(), operands);
    copied->setShape(withoutLayout(instruction->shape()));
    copies[instruction.get()] = copy->addInstruction(std::move(copied));
  }
  copy->setRoot(copies.at(reducer.root()));
  return copy;
}

std::string freshName(const Computation &computation, const std::string &base) {
  std::string name = base;
  for (int suffix = 1; computation.findInstruction(name); ++suffix)
    name = base + "." + std::to_string(suffix);
  return name;
}

} // namespace

Result<Module> extractTosaSubgraph(const Module &module) {
  const Computation *entry = module.entry();
  if (!entry)
    return makeError("module '" + module.name() + "' has no entry");
  std::vector<Instruction *> order = topologicalOrder(*entry);
  std::vector<const Instruction *> chosen = largestComponent(order);
  if (chosen.empty())
    return makeError("module '" + module.name() +
                     "': no instruction of the entry has a TOSA form");
  std::unordered_set<const Instruction *> inPiece(chosen.begin(), chosen.end());

  Module piece(module.name());
  piece.setStyle(module.style());
  auto body = std::make_unique<Computation>(entry->name());
  std::unordered_map<const Instruction *, Instruction *> copies;
  std::unordered_map<const Computation *, Computation *> reducers;
  int64_t parameterCount = 0;

  for (const Instruction *instruction : chosen) {
    std::vector<Instruction *> operands;
    for (const Instruction *operand : instruction->operands()) {
      if (!copies.count(operand)) {
        // An input: a parameter of the piece, named as its source.
        auto parameter =
            std::make_unique<Instruction>(operand->name(), Opcode::Parameter,
                                          withoutLayout(operand->shape()));
        parameter->setParameterNumber(parameterCount++);
        copies[operand] = body->addInstruction(std::move(parameter));
      }
      operands.push_back(copies.at(operand));
    }
    auto copy = copyInstruction(*instruction, instruction->name(), operands);
    copy->setShape(withoutLayout(instruction->shape()));
    if (const Computation *reducer =
            instruction->calledComputation("to_apply")) {
      if (!reducers.count(reducer))
        reducers[reducer] = piece.addComputation(copyReducer(*reducer));
      copy->setCalledComputations("to_apply", {reducers.at(reducer)});
    }
    copies[instruction] = body->addInstruction(std::move(copy));
  }

  // Outputs: members used outside the piece or by the root.
  std::unordered_set<const Instruction *> usedOutside;
  for (const Instruction *instruction : order) {
    if (inPiece.count(instruction))
      continue;
    for (const Instruction *operand : instruction->operands())
      usedOutside.insert(operand);
  }
  usedOutside.insert(entry->root());
  std::vector<Instruction *> outputs;
  for (const Instruction *instruction : chosen)
    if (usedOutside.count(instruction))
      outputs.push_back(copies.at(instruction));

  if (outputs.size() == 1) {
    body->setRoot(outputs[0]);
  } else {
    std::vector<Shape> shapes;
    for (const Instruction *output : outputs)
      shapes.push_back(output->shape());
    auto tuple = std::make_unique<Instruction>(
        freshName(*body, "tuple"), Opcode::Tuple, Shape::tuple(shapes));
    tuple->setOperands(outputs);
    body->setRoot(body->addInstruction(std::move(tuple)));
  }
  piece.setEntry(piece.addComputation(std::move(body)));
  if (auto ok = verifyModule(piece); !ok)
    return makeError("subgraph of module '" + module.name() +
                     "': " + ok.error().message);
  return piece;
}

Result<TosaFunction> exportTosaSubgraph(const Module &module) {
  auto piece = extractTosaSubgraph(module);
  if (!piece)
    return piece.error();
  return exportTosa(*piece);
}

} // namespace rlopt::graph
