#include "rlopt/graph/CostAnalysis.h"

#include "CalleesFirst.h"
#include "rlopt/graph/Verifier.h"

#include <algorithm>

namespace rlopt::graph {

namespace {

// An FMA counts as two floating-point operations, as in XLA.
constexpr double kFmaFlops = 2;

// Ops XLA prices at one flop per output element: the elementwise ones
// that are not transcendental, and four more.
bool isElementwiseFlop(Opcode opcode) {
  switch (opcode) {
  case Opcode::BitcastConvert:
  case Opcode::Mulhi:
  case Opcode::ReducePrecision:
  case Opcode::StochasticConvert:
    return true;
  default:
    return isElementwise(opcode) && !isTranscendental(opcode);
  }
}

// The first array of a variadic op's tuple result.
const Shape &firstArray(const Shape &shape) {
  return shape.isTuple() && !shape.tupleShapes().empty() ? shape.tupleShape(0)
                                                         : shape;
}

Cost scaled(const Cost &cost, double factor) {
  Cost result = cost;
  result.flops *= factor;
  result.transcendentals *= factor;
  return result;
}

int64_t log2Floor(uint64_t n) {
  int64_t log = -1;
  while (n) {
    n >>= 1;
    ++log;
  }
  return log;
}

int64_t log2Ceiling(uint64_t n) {
  int64_t floor = log2Floor(n);
  return n > 0 && (n & (n - 1)) != 0 ? floor + 1 : floor;
}

int64_t dimOr1(const Shape &shape, int64_t dim) {
  return dim >= 0 && dim < shape.rank() ? shape.dim(dim) : 1;
}

double dotFlops(const Instruction &dot) {
  const Shape &lhs = dot.operand(0)->shape();
  double reductionWidth = 1;
  for (int64_t dim : dot.dotDims().lhsContracting)
    reductionWidth *= dimOr1(lhs, dim);
  return kFmaFlops * double(dot.shape().elementCount()) * reductionWidth;
}

// Kernel-output position pairs of one spatial dimension whose input index is
// inside the (dilated, padded) input: XLA's GetConvolutionFlops.
int64_t validPositions(int64_t input, int64_t kernel, int64_t output,
                       const WindowDim &window) {
  if (input == output && kernel == output && input == window.baseDilation &&
      window.windowDilation == 1 &&
      std::max<int64_t>(1, input - 1) == window.stride && window.padLow == 0 &&
      window.padHigh == 0)
    return input;
  if (input == 1 && kernel == output && window.windowDilation == 1 &&
      window.baseDilation == 1 && window.stride == 1 &&
      window.padHigh == output - 1 && window.padLow == output - 1)
    return output;
  int64_t count = 0;
  for (int64_t k = 0; k < kernel; ++k) {
    for (int64_t o = 0; o < output; ++o) {
      int64_t undilated =
          o * window.stride - window.padLow + k * window.windowDilation;
      int64_t index =
          window.baseDilation > 1 ? undilated / window.baseDilation : undilated;
      if (undilated != index * window.baseDilation)
        continue;
      if (index >= 0 && index < input)
        ++count;
    }
  }
  return count;
}

double convolutionFlops(const Instruction &convolution) {
  if (!convolution.convDims())
    return 0;
  const ConvDims &dims = *convolution.convDims();
  const Shape &lhs = convolution.operand(0)->shape();
  const Shape &rhs = convolution.operand(1)->shape();
  const Shape &out = convolution.shape();
  const std::vector<WindowDim> &window = convolution.window();
  double positions = 1;
  for (size_t i = 0; i < dims.inputSpatial.size() && i < window.size(); ++i)
    positions *= validPositions(dimOr1(lhs, dims.inputSpatial[i]),
                                dimOr1(rhs, dims.kernelSpatial[i]),
                                dimOr1(out, dims.outputSpatial[i]), window[i]);
  int64_t inputFeatures = dimOr1(lhs, dims.inputFeature);
  int64_t outputFeatures = dimOr1(out, dims.outputFeature);
  int64_t batch = dimOr1(lhs, dims.inputBatch);
  double fmas = double(inputFeatures / convolution.featureGroupCount()) *
                double(outputFeatures) *
                double(batch / convolution.batchGroupCount()) * positions;
  return kFmaFlops * fmas;
}

// Times the reducer runs in a reduce-window, including XLA's special case of
// a window that reduces one dimension and broadcasts it back.
double reduceWindowCount(const Instruction &reduceWindow) {
  const std::vector<WindowDim> &window = reduceWindow.window();
  int64_t windowElements = 1;
  for (const WindowDim &dim : window)
    windowElements *= dim.size;
  int64_t outputElements = firstArray(reduceWindow.shape()).elementCount();
  double count = double(windowElements - 1) * double(outputElements);

  int64_t reducedDims =
      std::count_if(window.begin(), window.end(),
                    [](const WindowDim &d) { return d.size != 1; });
  int64_t paddedDims =
      std::count_if(window.begin(), window.end(), [](const WindowDim &d) {
        return d.padLow != 0 || d.padHigh != 0;
      });
  if (reducedDims != 1 || paddedDims != 1 || !reduceWindow.shape().isArray())
    return count;
  for (size_t i = 0; i < window.size(); ++i) {
    const WindowDim &dim = window[i];
    if (dim.size != 1 && dim.padLow != 0 && dim.padHigh != 0 &&
        dim.padLow == dim.padHigh && dim.size == 2 * dim.padLow + 1 &&
        dim.padLow == reduceWindow.shape().dim(i) - 1) {
      int64_t span = reduceWindow.shape().dim(i);
      return double(outputElements / span) + double(span - 1);
    }
  }
  return count;
}

} // namespace

Cost &Cost::operator+=(const Cost &other) {
  flops += other.flops;
  transcendentals += other.transcendentals;
  unknownCostInstructions += other.unknownCostInstructions;
  return *this;
}

Cost CostAnalysis::computationCost(const Computation &computation) {
  if (auto it = computationCosts.find(&computation);
      it != computationCosts.end())
    return it->second;
  forEachCalleeFirst(
      computation,
      [&](const Computation *c) { return computationCosts.count(c) > 0; },
      [&](const Computation *c) {
        Cost total;
        for (const auto &instruction : c->instructions())
          total += instructionCost(*instruction);
        computationCosts[c] = total;
      });
  return computationCosts[&computation];
}

Cost CostAnalysis::instructionCost(const Instruction &instruction) {
  Opcode opcode = instruction.opcode();
  const Shape &shape = instruction.shape();
  Cost cost;
  auto calledCost = [&](const char *key) {
    Computation *called = instruction.calledComputation(key);
    return called ? computationCost(*called) : Cost();
  };

  if (isTranscendental(opcode)) {
    cost.transcendentals = double(shape.elementCount());
    return cost;
  }
  if (isElementwiseFlop(opcode)) {
    cost.flops = double(shape.elementCount());
    return cost;
  }
  switch (opcode) {
  case Opcode::Dot:
    cost.flops = dotFlops(instruction);
    return cost;
  case Opcode::Convolution:
    cost.flops = convolutionFlops(instruction);
    return cost;
  case Opcode::Reduce: {
    double count = double(instruction.operand(0)->shape().elementCount() -
                          firstArray(shape).elementCount());
    return scaled(calledCost("to_apply"), count);
  }
  case Opcode::ReduceWindow:
    return scaled(calledCost("to_apply"), reduceWindowCount(instruction));
  case Opcode::Map:
    return scaled(calledCost("to_apply"), double(shape.elementCount()));
  case Opcode::Scatter: {
    // Operands: n inputs, the indices, n updates.
    size_t inputs = (instruction.operandCount() - 1) / 2;
    const Shape &updates = instruction.operand(inputs + 1)->shape();
    return scaled(calledCost("to_apply"), double(updates.elementCount()));
  }
  case Opcode::SelectAndScatter: {
    double source = double(instruction.operand(1)->shape().elementCount());
    double windowElements = 1;
    for (const WindowDim &dim : instruction.window())
      windowElements *= double(dim.size);
    Cost select = scaled(calledCost("select"), source * (windowElements - 1));
    select += scaled(calledCost("scatter"), source);
    return select;
  }
  case Opcode::Sort: {
    int64_t n = instruction.operand(0)->shape().elementCount();
    cost.flops = double(n) * double(log2Ceiling(uint64_t(n)));
    return cost;
  }
  case Opcode::Fft: {
    const Shape &input = firstArray(instruction.operand(0)->shape());
    double logFactors = 1;
    for (int64_t length : instruction.fftLength())
      logFactors *= double(std::max<int64_t>(log2Floor(uint64_t(length)), 0));
    constexpr double kFmaPerComplexMultiply = 4;
    cost.flops = kFmaFlops * kFmaPerComplexMultiply * logFactors *
                 double(input.elementCount());
    return cost;
  }
  case Opcode::TriangularSolve: {
    const Shape &a = instruction.operand(0)->shape();
    const Shape &b = instruction.operand(1)->shape();
    cost.flops =
        kFmaFlops * double(a.dim(a.rank() - 1)) * double(b.elementCount());
    return cost;
  }
  case Opcode::Cholesky: {
    const Shape &a = instruction.operand(0)->shape();
    cost.flops = double((a.dim(a.rank() - 1) * a.elementCount()) / 3);
    return cost;
  }
  case Opcode::AllReduce:
  case Opcode::AllReduceStart:
    cost.flops = double(shape.elementCountRecursive());
    return cost;
  case Opcode::Rng:
    cost.transcendentals = double(shape.elementCount());
    return cost;
  case Opcode::RngBitGenerator:
    cost.transcendentals = double(shape.elementCountRecursive());
    return cost;
  case Opcode::Call:
    return calledCost("to_apply");
  case Opcode::Fusion:
  case Opcode::AsyncStart:
    return calledCost("calls");
  case Opcode::While: {
    Cost loop = calledCost("body");
    loop += calledCost("condition");
    return loop;
  }
  case Opcode::Conditional: {
    std::vector<Computation *> branches;
    if (const Attribute *list =
            instruction.findAttribute("branch_computations"))
      branches = list->computations;
    for (const char *key : {"true_computation", "false_computation"})
      if (Computation *branch = instruction.calledComputation(key))
        branches.push_back(branch);
    for (size_t i = 0; i < branches.size(); ++i) {
      Cost branch = computationCost(*branches[i]);
      if (i == 0) {
        cost = branch;
        continue;
      }
      cost.flops = std::max(cost.flops, branch.flops);
      cost.transcendentals =
          std::max(cost.transcendentals, branch.transcendentals);
      cost.unknownCostInstructions = std::max(cost.unknownCostInstructions,
                                              branch.unknownCostInstructions);
    }
    return cost;
  }
  case Opcode::CustomCall:
    cost.unknownCostInstructions = 1;
    return cost;
  default:
    return cost;
  }
}

Result<Cost> analyzeCost(const Module &module) {
  if (auto ok = verifyModule(module); !ok)
    return ok.error();
  CostAnalysis analysis;
  return analysis.computationCost(*module.entry());
}

} // namespace rlopt::graph
