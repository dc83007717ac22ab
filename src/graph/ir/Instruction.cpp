#include "rlopt/graph/Instruction.h"

#include <charconv>

namespace rlopt::graph {

namespace {

Result<int64_t> parseCount(std::string_view key, std::string_view value,
                           int64_t min) {
  int64_t number = 0;
  auto [end, error] =
      std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size() ||
      number < min)
    return makeError(std::string(key) +
                     " must be an integer >= " + std::to_string(min) +
                     ", got '" + std::string(value) + "'");
  return number;
}

template <typename T> Status assign(Result<T> parsed, T &field) {
  if (!parsed)
    return parsed.error();
  field = parsed.takeValue();
  return Status::success();
}

} // namespace

Status Instruction::interpret(std::string_view key, std::string_view value,
                              TypedAttributes &into) {
  if (key == "dimensions")
    return assign(parseIntList(value), into.dimensions);
  if (key == "slice")
    return assign(parseSlice(value), into.slice);
  if (key == "lhs_batch_dims")
    return assign(parseIntList(value), into.dotDims.lhsBatch);
  if (key == "rhs_batch_dims")
    return assign(parseIntList(value), into.dotDims.rhsBatch);
  if (key == "lhs_contracting_dims")
    return assign(parseIntList(value), into.dotDims.lhsContracting);
  if (key == "rhs_contracting_dims")
    return assign(parseIntList(value), into.dotDims.rhsContracting);
  if (key == "window")
    return assign(parseWindow(value), into.window);
  if (key == "dim_labels") {
    auto dims = parseConvDims(value);
    if (!dims)
      return dims.error();
    into.convDims = dims.takeValue();
    return Status::success();
  }
  if (key == "feature_group_count")
    return assign(parseCount(key, value, 1), into.featureGroupCount);
  if (key == "batch_group_count")
    return assign(parseCount(key, value, 1), into.batchGroupCount);
  if (key == "direction") {
    auto direction = parseComparisonDirection(value);
    if (!direction)
      return direction.error();
    into.direction = *direction;
    return Status::success();
  }
  if (key == "index")
    return assign(parseCount(key, value, 0), into.tupleIndex);
  if (key == "iota_dimension")
    return assign(parseCount(key, value, 0), into.iotaDimension);
  if (key == "padding")
    return assign(parsePadding(value), into.padding);
  if (key == "fft_length")
    return assign(parseIntList(value), into.fftLength);
  return Status::success();
}

const Attribute *Instruction::findAttribute(std::string_view key) const {
  for (const Attribute &attribute : attributeList)
    if (attribute.key == key)
      return &attribute;
  return nullptr;
}

Status Instruction::setAttribute(std::string key, std::string value) {
  if (isComputationAttribute(key))
    return makeError(key + " names computations: use setCalledComputations");
  // interpret() assigns only what parsed, so a failure changes nothing.
  if (auto ok = interpret(key, value, typed); !ok)
    return makeError(key + ": " + ok.error().message);
  for (Attribute &attribute : attributeList) {
    if (attribute.key == key) {
      attribute.value = std::move(value);
      attribute.computations.clear();
      return Status::success();
    }
  }
  attributeList.push_back(
      Attribute{std::move(key), std::move(value), {}, false});
  return Status::success();
}

void Instruction::setCalledComputations(std::string key,
                                        std::vector<Computation *> computations,
                                        bool braced) {
  for (Attribute &attribute : attributeList) {
    if (attribute.key == key) {
      attribute.value.clear();
      attribute.computations = std::move(computations);
      attribute.braced = braced;
      return;
    }
  }
  attributeList.push_back(
      Attribute{std::move(key), "", std::move(computations), braced});
}

bool Instruction::removeAttribute(std::string_view key) {
  for (auto it = attributeList.begin(); it != attributeList.end(); ++it) {
    if (it->key != key)
      continue;
    attributeList.erase(it);
    // Rebuild the typed view; the remaining values interpreted before.
    typed = TypedAttributes();
    for (const Attribute &attribute : attributeList)
      (void)interpret(attribute.key, attribute.value, typed);
    return true;
  }
  return false;
}

std::vector<Computation *> Instruction::calledComputations() const {
  std::vector<Computation *> called;
  for (const Attribute &attribute : attributeList)
    called.insert(called.end(), attribute.computations.begin(),
                  attribute.computations.end());
  return called;
}

Computation *Instruction::calledComputation(std::string_view key) const {
  const Attribute *attribute = findAttribute(key);
  return attribute && !attribute->computations.empty()
             ? attribute->computations.front()
             : nullptr;
}

} // namespace rlopt::graph
