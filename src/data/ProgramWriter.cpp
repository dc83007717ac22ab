#include "ProgramWriter.h"

#include <algorithm>
#include <cassert>
#include <sstream>

namespace rlopt::data::detail {

int64_t numElements(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string joinShape(const Shape &shape, const std::string &sep) {
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? sep : "") + std::to_string(shape[i]);
  return text;
}

std::string tensorType(const Shape &shape) {
  return "tensor<" + joinShape(shape, "x") + "xf32>";
}

namespace {

std::string parenList(const std::vector<std::string> &names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += (i ? ", " : "") + names[i];
  return "(" + text + ")";
}

std::vector<std::string> loopNames(size_t rank) {
  std::vector<std::string> loops;
  for (size_t i = 0; i < rank; ++i)
    loops.push_back("d" + std::to_string(i));
  return loops;
}

std::string reassociation(const std::vector<std::vector<int>> &groups) {
  std::string text = "[";
  for (size_t g = 0; g < groups.size(); ++g) {
    text += g ? ", [" : "[";
    for (size_t i = 0; i < groups[g].size(); ++i)
      text += (i ? ", " : "") + std::to_string(groups[g][i]);
    text += "]";
  }
  return text + "]";
}

} // namespace

void ProgramWriter::use(const std::string &name) { ++used[name]; }

std::string ProgramWriter::fresh(const std::string &base) {
  // Generic bodies name their values with at most two characters; longer
  // function-level names can never clash with them.
  std::string name = base;
  if (name.size() <= 2 || used.count(name)) {
    int suffix = 1;
    while (used.count(base + "_" + std::to_string(suffix)))
      ++suffix;
    name = base + "_" + std::to_string(suffix);
  }
  use(name);
  return name;
}

int ProgramWriter::record(const std::string &kind,
                          const std::vector<Value> &operands) {
  OpRecord op{kind,
              {},
              flops - flopsRecorded,
              double(numElements(operands.back().shape))};
  flopsRecorded = flops;
  for (const Value &v : operands)
    if (v.producer >= 0 && std::find(op.producers.begin(), op.producers.end(),
                                     v.producer) == op.producers.end())
      op.producers.push_back(v.producer);
  opRecords.push_back(std::move(op));
  return int(opRecords.size()) - 1;
}

size_t ProgramWriter::numEdges() const {
  size_t edges = 0;
  for (const OpRecord &op : opRecords)
    edges += op.producers.size();
  return edges;
}

std::map<std::string, int> ProgramWriter::opCounts() const {
  std::map<std::string, int> counts;
  for (const OpRecord &op : opRecords)
    ++counts[op.kind];
  return counts;
}

Value ProgramWriter::arg(const std::string &name, Shape shape) {
  use(name);
  Value value{"%" + name, std::move(shape)};
  args.push_back(value);
  return value;
}

std::string ProgramWriter::constant(const std::string &name,
                                    const std::string &literal) {
  if (std::find(constants.begin(), constants.end(), name) == constants.end()) {
    constants.push_back(name);
    use(name);
    line("%" + name + " = arith.constant " + literal + " : f32");
  }
  return "%" + name;
}

Value ProgramWriter::empty(const std::string &name, const Shape &shape) {
  use(name);
  Value value{"%" + name, shape};
  line(value.name + " = tensor.empty() : " + value.type());
  return value;
}

Value ProgramWriter::fill(const std::string &name, const std::string &scalar,
                          const Value &init) {
  use(name);
  Value value{"%" + name, init.shape, record("linalg.fill", {init})};
  line(value.name + " = linalg.fill ins(" + scalar + " : f32) outs(" +
       init.name + " : " + init.type() + ") -> " + init.type());
  return value;
}

Value ProgramWriter::named(const std::string &name, const std::string &opName,
                           const std::string &attrs,
                           const std::vector<Value> &ins, const Value &out,
                           const std::string &trailing) {
  std::string insNames, insTypes;
  for (size_t i = 0; i < ins.size(); ++i) {
    insNames += (i ? ", " : "") + ins[i].name;
    insTypes += (i ? ", " : "") + ins[i].type();
  }
  std::vector<Value> operands = ins;
  operands.push_back(out);
  use(name);
  Value value{"%" + name, out.shape, record(opName, operands)};
  std::string text = value.name + " = " + opName;
  if (!attrs.empty())
    text += " {" + attrs + "}";
  line(text);
  line("    ins(" + insNames + " : " + insTypes + ")");
  if (trailing.empty())
    line("    outs(" + out.name + " : " + out.type() + ") -> " + out.type());
  else
    line("    outs(" + out.name + " : " + out.type() + ") " + trailing);
  return value;
}

std::string ProgramWriter::map(const std::string &kind, size_t rank) {
  std::string alias = "#" + kind + std::to_string(rank);
  if (std::find(mapAliases.begin(), mapAliases.end(), alias) !=
      mapAliases.end())
    return alias;
  std::vector<std::string> loops = loopNames(rank);
  std::vector<std::string> results;
  if (kind == "id")
    results = loops;
  else if (kind == "rows")
    results.assign(loops.begin(), loops.end() - 1);
  else if (kind == "last")
    results = {loops.back()};
  else if (kind == "tail")
    results.assign(loops.begin() + 1, loops.end());
  else
    assert(false && "unknown map kind");
  mapAliases.push_back(alias);
  mapDefs.push_back(alias + " = affine_map<" + parenList(loops) + " -> " +
                    parenList(results) + ">");
  return alias;
}

std::string ProgramWriter::customMap(size_t rank,
                                     const std::vector<std::string> &results) {
  std::string text = "affine_map<" + parenList(loopNames(rank)) + " -> " +
                     parenList(results) + ">";
  for (size_t i = 0; i < mapDefs.size(); ++i)
    if (mapDefs[i].substr(mapAliases[i].size() + 3) == text)
      return mapAliases[i];
  std::string alias = "#map" + std::to_string(mapAliases.size());
  mapAliases.push_back(alias);
  mapDefs.push_back(alias + " = " + text);
  return alias;
}

Value ProgramWriter::generic(
    const std::string &name,
    const std::vector<std::pair<Value, std::string>> &ins, const Value &out,
    const std::string &outMap, size_t loops, bool reduceLast,
    const std::vector<std::string> &blockArgs,
    const std::vector<std::string> &body, int opsPerPoint) {
  GenericSpec spec;
  spec.ins = ins;
  spec.out = out;
  spec.outMap = outMap;
  // A reduction's points are those of its input; an elementwise op's are
  // those of its output.
  spec.loops = reduceLast ? ins.front().first.shape : out.shape;
  assert(spec.loops.size() == loops && "loops do not match the shapes");
  spec.reduction.assign(loops, false);
  if (reduceLast)
    spec.reduction.back() = true;
  spec.blockArgs = blockArgs;
  spec.body = body;
  spec.opsPerPoint = opsPerPoint;
  return generic(name, spec);
}

Value ProgramWriter::generic(const std::string &name, const GenericSpec &spec) {
  std::string maps, insNames, insTypes, iterators;
  std::vector<Value> operands;
  for (size_t i = 0; i < spec.ins.size(); ++i) {
    maps += spec.ins[i].second + ", ";
    insNames += (i ? ", " : "") + spec.ins[i].first.name;
    insTypes += (i ? ", " : "") + spec.ins[i].first.type();
    operands.push_back(spec.ins[i].first);
  }
  operands.push_back(spec.out);
  maps += spec.outMap;
  for (size_t i = 0; i < spec.loops.size(); ++i)
    iterators += std::string(i ? ", " : "") +
                 (spec.reduction[i] ? "\"reduction\"" : "\"parallel\"");
  flops += double(numElements(spec.loops)) * spec.opsPerPoint;
  use(name);
  Value value{"%" + name, spec.out.shape, record("linalg.generic", operands)};
  line(value.name + " = linalg.generic {indexing_maps = [" + maps +
       "], iterator_types = [" + iterators + "]}");
  std::string outs = "outs(" + spec.out.name + " : " + spec.out.type() + ") {";
  if (spec.ins.empty())
    line("    " + outs);
  else
    line("    ins(" + insNames + " : " + insTypes + ") " + outs);
  std::string header = "^bb0(";
  for (size_t i = 0; i < spec.blockArgs.size(); ++i)
    header += (i ? ", " : "") + spec.blockArgs[i] + ": f32";
  lines.push_back("  " + header + "):");
  for (const std::string &b : spec.body)
    lines.push_back("    " + b);
  lines.push_back("  } -> " + value.type());
  return value;
}

Value ProgramWriter::expand(const std::string &name, const Value &in,
                            const std::vector<std::vector<int>> &groups,
                            const Shape &shape) {
  assert(numElements(shape) == numElements(in.shape) && "expand changes size");
  use(name);
  Value value{"%" + name, shape};
  line(value.name + " = tensor.expand_shape " + in.name + " " +
       reassociation(groups) + " output_shape [" + joinShape(shape, ", ") +
       "] : " + in.type() + " into " + value.type());
  return value;
}

Value ProgramWriter::collapse(const std::string &name, const Value &in,
                              const std::vector<std::vector<int>> &groups) {
  Shape shape;
  for (const std::vector<int> &group : groups) {
    int64_t size = 1;
    for (int d : group)
      size *= in.shape[d];
    shape.push_back(size);
  }
  use(name);
  Value value{"%" + name, shape};
  line(value.name + " = tensor.collapse_shape " + in.name + " " +
       reassociation(groups) + " : " + in.type() + " into " + value.type());
  return value;
}

Value ProgramWriter::pad(const std::string &name, const Value &in,
                         const std::vector<int64_t> &amount,
                         const std::string &border) {
  Shape shape = in.shape;
  std::string sizes, indices;
  for (size_t d = 0; d < shape.size(); ++d) {
    shape[d] += 2 * amount[d];
    sizes += (d ? ", " : "") + std::to_string(amount[d]);
    // The body is a region of the function: its names must be fresh.
    indices +=
        (d ? ", %" : "%") + fresh(name + "_i" + std::to_string(d)) + ": index";
  }
  use(name);
  Value value{"%" + name, shape};
  line(value.name + " = tensor.pad " + in.name + " low[" + sizes + "] high[" +
       sizes + "] {");
  lines.push_back("  ^bb0(" + indices + "):");
  line("  tensor.yield " + border + " : f32");
  line("} : " + in.type() + " to " + value.type());
  return value;
}

std::string ProgramWriter::finish(const std::string &header,
                                  const std::string &funcName,
                                  const std::vector<Value> &results) {
  std::ostringstream os;
  os << header;
  for (const std::string &def : mapDefs)
    os << def << "\n";
  os << "func.func @" << funcName << "(";
  for (size_t i = 0; i < args.size(); ++i)
    os << (i ? ", " : "") << args[i].name << ": " << args[i].type();
  os << ") -> ";
  std::string resultTypes, resultNames;
  for (size_t i = 0; i < results.size(); ++i) {
    resultTypes += (i ? ", " : "") + results[i].type();
    resultNames += (i ? ", " : "") + results[i].name;
  }
  os << (results.size() == 1 ? resultTypes : "(" + resultTypes + ")") << " {\n";
  for (const std::string &l : lines)
    os << l << "\n";
  os << "  return " << resultNames << " : " << resultTypes << "\n}\n";
  return os.str();
}

} // namespace rlopt::data::detail
