// The graph passes, one entry point each; PassRegistry.cpp lists them as
// actions. Each returns whether it changed the module.
#ifndef RLOPT_SRC_GRAPH_PASSES_PASSES_H
#define RLOPT_SRC_GRAPH_PASSES_PASSES_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Module.h"

namespace rlopt::graph {

// AlgebraicSimplifier, split into rule groups.
Result<bool> runAlgsimpArith(Module &module);
Result<bool> runAlgsimpNoOp(Module &module);
Result<bool> runAlgsimpReshape(Module &module);
Result<bool> runAlgsimpBroadcast(Module &module);
Result<bool> runAlgsimpSelect(Module &module);
Result<bool> runAlgsimpConcat(Module &module);
Result<bool> runAlgsimpSlice(Module &module);
Result<bool> runAlgsimpPad(Module &module);
Result<bool> runAlgsimpDot(Module &module);
Result<bool> runAlgsimpReduce(Module &module);

Result<bool> runSimplifyFPConversions(Module &module);
Result<bool> runCse(Module &module);
Result<bool> runDce(Module &module);
Result<bool> runConstantFolding(Module &module);
Result<bool> runTupleSimplifier(Module &module);
Result<bool> runCallInliner(Module &module);
Result<bool> runDefuser(Module &module);
Result<bool> runFlattenCallGraph(Module &module);
Result<bool> runReshapeMover(Module &module);
Result<bool> runTransposeFolding(Module &module);
Result<bool> runCpuTransposeFolding(Module &module);
Result<bool> runDotDecomposer(Module &module);
Result<bool> runDotMerger(Module &module);
Result<bool> runDotDimensionSorter(Module &module);
Result<bool> runBatchDotSimplification(Module &module);
Result<bool> runConvertOperandFolding(Module &module);
Result<bool> runBatchNormExpander(Module &module);
Result<bool> runLogisticExpander(Module &module);
Result<bool> runComparisonExpander(Module &module);
Result<bool> runRealImagExpander(Module &module);
Result<bool> runOptimizationBarrierExpander(Module &module);
Result<bool> runGatherExpander(Module &module);
Result<bool> runScatterExpander(Module &module);
Result<bool> runReduceDecomposer(Module &module);
Result<bool> runConvertMover(Module &module);
Result<bool> runWhileLoopSimplifier(Module &module);
Result<bool> runWhileLoopConstantSinking(Module &module);
Result<bool> runWhileLoopInvariantCodeMotion(Module &module);
Result<bool> runWhileLoopFusibleSinking(Module &module);
Result<bool> runWhileLoopUnroller(Module &module);
Result<bool> runConvolutionGroupConverter(Module &module);
Result<bool> runBroadcastCanonicalizer(Module &module);
Result<bool> runSliceSinker(Module &module);
Result<bool> runZeroSizedHloElimination(Module &module);
Result<bool> runSortSimplifier(Module &module);
Result<bool> runConditionalSimplifier(Module &module);
Result<bool> runAllReduceSimplifier(Module &module);
Result<bool> runMapInliner(Module &module);
Result<bool> runConstantSplitter(Module &module);

} // namespace rlopt::graph

#endif
