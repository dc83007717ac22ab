// gather and scatter with XLA's dimension numbers. Both walk the batch of
// start indices and move one window per index with a strided box copy.
#include "InterpreterElements.h"
#include "InterpreterIndexing.h"
#include "InterpreterInternal.h"

#include <algorithm>
#include <cmath>

namespace rlopt::graph::interp {

namespace {

bool contains(const std::vector<int64_t> &values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

int64_t toIndex(double value) {
  if (std::isnan(value))
    return 0;
  return static_cast<int64_t>(std::clamp(value, -9.0e18, 9.0e18));
}

/// The batch of start indices: the indices array without its index vector
/// dimension, and where each start vector's components are.
struct IndexBatch {
  std::vector<int64_t> dims;    // batch dimensions, in order
  std::vector<int64_t> strides; // their strides in the indices array
  int64_t vectorStride = 0;     // stride between components of a vector
  int64_t vectorSize = 1;
};

Result<IndexBatch> indexBatch(const Instruction &instruction,
                              const Shape &indices, int64_t indexVectorDim) {
  if (indexVectorDim < 0 || indexVectorDim > indices.rank())
    return failAt(instruction, "index_vector_dim is out of range");
  IndexBatch batch;
  std::vector<int64_t> strides = rowMajorStrides(indices.dims());
  for (int64_t d = 0; d < indices.rank(); ++d) {
    if (d == indexVectorDim) {
      batch.vectorStride = strides[d];
      batch.vectorSize = indices.dim(d);
      continue;
    }
    batch.dims.push_back(indices.dim(d));
    batch.strides.push_back(strides[d]);
  }
  return batch;
}

Status rejectBatchingDims(const Instruction &instruction,
                          std::initializer_list<const char *> keys) {
  for (const char *key : keys) {
    auto text = attributeText(instruction, key);
    if (text && *text != "{}")
      return failAt(instruction,
                    std::string(key) + " is not supported by the interpreter");
  }
  return Status::success();
}

} // namespace

Result<RuntimeValue> evaluateGather(Interpreter &,
                                    const Instruction &instruction,
                                    Operands &operands) {
  const RuntimeValue &operand = operands[0];
  const RuntimeValue &indices = operands[1];
  const Shape &shape = instruction.shape();
  if (Status status =
          rejectBatchingDims(instruction, {"operand_batching_dims",
                                           "start_indices_batching_dims"});
      !status)
    return status.error();
  auto offsetDims = intListAttribute(instruction, "offset_dims");
  auto collapsed = intListAttribute(instruction, "collapsed_slice_dims");
  auto startIndexMap = intListAttribute(instruction, "start_index_map");
  auto sliceSizes = intListAttribute(instruction, "slice_sizes");
  auto indexVectorDim =
      intAttribute(instruction, "index_vector_dim", indices.shape.rank());
  for (auto *list : {&offsetDims, &collapsed, &startIndexMap, &sliceSizes})
    if (!*list)
      return list->error();
  if (!indexVectorDim)
    return indexVectorDim.error();
  int64_t rank = operand.shape.rank();
  if (static_cast<int64_t>(sliceSizes->size()) != rank)
    return failAt(instruction, "slice_sizes needs one size per operand "
                               "dimension");
  for (int64_t d = 0; d < rank; ++d)
    if ((*sliceSizes)[d] < 0 || (*sliceSizes)[d] > operand.shape.dim(d))
      return failAt(instruction,
                    "slice_sizes do not fit " + operand.shape.toString(false));
  auto batch = indexBatch(instruction, indices.shape, *indexVectorDim);
  if (!batch)
    return batch.error();
  if (batch->vectorSize != static_cast<int64_t>(startIndexMap->size()))
    return failAt(instruction, "start_index_map needs one entry per index "
                               "vector component");
  for (int64_t d : *startIndexMap)
    if (d < 0 || d >= rank)
      return failAt(instruction, "start_index_map names a dimension out of "
                                 "range");

  std::vector<int64_t> operandStrides = rowMajorStrides(operand.shape.dims());
  std::vector<int64_t> outStrides = rowMajorStrides(shape.dims());
  // Window dimensions: the operand's uncollapsed ones, in order, placed at
  // offset_dims of the result; the other result dimensions are the batch.
  std::vector<int64_t> windowDims, windowInStrides, windowOutStrides;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (contains(*collapsed, d))
      continue;
    if (next >= offsetDims->size())
      return failAt(instruction, "offset_dims has too few entries");
    int64_t outDim = (*offsetDims)[next++];
    if (outDim < 0 || outDim >= shape.rank() ||
        shape.dim(outDim) != (*sliceSizes)[d])
      return failAt(instruction, "offset_dims do not match slice_sizes");
    windowDims.push_back((*sliceSizes)[d]);
    windowInStrides.push_back(operandStrides[d]);
    windowOutStrides.push_back(outStrides[outDim]);
  }
  std::vector<int64_t> batchOutStrides;
  size_t batchIndex = 0;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (contains(*offsetDims, d))
      continue;
    if (batchIndex >= batch->dims.size() ||
        batch->dims[batchIndex] != shape.dim(d))
      return failAt(instruction, "batch dimensions of the result do not "
                                 "match the indices");
    batchOutStrides.push_back(outStrides[d]);
    ++batchIndex;
  }
  if (batchIndex != batch->dims.size())
    return failAt(instruction, "batch dimensions of the result do not match "
                               "the indices");

  RuntimeValue result = makeScratchArray(shape);
  double *out = result.buffer->data();
  const double *in = operand.data();
  const double *index = indices.data();
  forEachIndex(batch->dims, batch->strides, batchOutStrides,
               [&](int64_t indexOffset, int64_t outOffset) {
                 int64_t inOffset = 0;
                 for (size_t k = 0; k < startIndexMap->size(); ++k) {
                   int64_t d = (*startIndexMap)[k];
                   // Gather clamps each window into the operand.
                   int64_t start = std::clamp<int64_t>(
                       toIndex(index[indexOffset + k * batch->vectorStride]), 0,
                       operand.shape.dim(d) - (*sliceSizes)[d]);
                   inOffset += start * operandStrides[d];
                 }
                 copyBox(in + inOffset, windowInStrides, out + outOffset,
                         windowOutStrides, windowDims);
               });
  return result;
}

Result<RuntimeValue> evaluateScatter(Interpreter &interpreter,
                                     const Instruction &instruction,
                                     Operands &operands) {
  if (operands.size() < 3 || operands.size() % 2 == 0)
    return failAt(instruction, "needs N operands, indices and N updates");
  size_t count = (operands.size() - 1) / 2;
  const RuntimeValue &indices = operands[count];
  if (Status status =
          rejectBatchingDims(instruction, {"input_batching_dims",
                                           "scatter_indices_batching_dims"});
      !status)
    return status.error();
  auto updateWindowDims = intListAttribute(instruction, "update_window_dims");
  auto insertedWindowDims =
      intListAttribute(instruction, "inserted_window_dims");
  auto toOperandDims =
      intListAttribute(instruction, "scatter_dims_to_operand_dims");
  auto indexVectorDim =
      intAttribute(instruction, "index_vector_dim", indices.shape.rank());
  for (auto *list : {&updateWindowDims, &insertedWindowDims, &toOperandDims})
    if (!*list)
      return list->error();
  if (!indexVectorDim)
    return indexVectorDim.error();
  const Computation *combinerComputation =
      instruction.calledComputation("to_apply");
  if (!combinerComputation)
    return failAt(instruction, "has no to_apply computation");
  auto combiner =
      ScalarFunction::make(interpreter, *combinerComputation, instruction);
  if (!combiner)
    return combiner.error();
  if (combiner->parameterCount() != 2 * count ||
      combiner->resultCount() != count)
    return failAt(instruction, "to_apply must combine " +
                                   std::to_string(count) + " scalar pairs");

  const Shape operandShape = operands[0].shape; // operands[0] moves below
  const Shape &updateShape = operands[count + 1].shape;
  int64_t rank = operandShape.rank();
  auto batch = indexBatch(instruction, indices.shape, *indexVectorDim);
  if (!batch)
    return batch.error();
  if (batch->vectorSize != static_cast<int64_t>(toOperandDims->size()))
    return failAt(instruction, "scatter_dims_to_operand_dims needs one entry "
                               "per index vector component");
  for (int64_t d : *toOperandDims)
    if (d < 0 || d >= rank)
      return failAt(instruction, "scatter_dims_to_operand_dims names a "
                                 "dimension out of range");

  std::vector<int64_t> operandStrides = rowMajorStrides(operandShape.dims());
  std::vector<int64_t> updateStrides = rowMajorStrides(updateShape.dims());
  // The window: operand dimensions not inserted, in order, matched with
  // update_window_dims; the other update dimensions are the batch.
  std::vector<int64_t> windowDims, windowOperandStrides, windowUpdateStrides;
  std::vector<int64_t> windowSizeOf(rank, 1);
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (contains(*insertedWindowDims, d))
      continue;
    if (next >= updateWindowDims->size())
      return failAt(instruction, "update_window_dims has too few entries");
    int64_t updateDim = (*updateWindowDims)[next++];
    if (updateDim < 0 || updateDim >= updateShape.rank())
      return failAt(instruction, "update_window_dims is out of range");
    windowSizeOf[d] = updateShape.dim(updateDim);
    windowDims.push_back(updateShape.dim(updateDim));
    windowOperandStrides.push_back(operandStrides[d]);
    windowUpdateStrides.push_back(updateStrides[updateDim]);
  }
  std::vector<int64_t> batchUpdateStrides;
  size_t batchIndex = 0;
  for (int64_t d = 0; d < updateShape.rank(); ++d) {
    if (contains(*updateWindowDims, d))
      continue;
    if (batchIndex >= batch->dims.size() ||
        batch->dims[batchIndex] != updateShape.dim(d))
      return failAt(instruction, "update batch dimensions do not match the "
                                 "indices");
    batchUpdateStrides.push_back(updateStrides[d]);
    ++batchIndex;
  }
  if (batchIndex != batch->dims.size())
    return failAt(instruction, "update batch dimensions do not match the "
                               "indices");

  std::vector<double *> outputs(count);
  std::vector<const double *> updates(count);
  std::vector<RuntimeValue> results;
  for (size_t k = 0; k < count; ++k) {
    results.push_back(std::move(operands[k]));
    outputs[k] = results[k].writable().data();
    updates[k] = operands[count + 1 + k].data();
  }
  ElementType type = results[0].shape.type();
  bool round = interpreter.options().roundToElementType &&
               domainOf(type) == Domain::Float && type != ElementType::F64;
  std::vector<double> arguments(2 * count), combined(count);
  Status status;
  const double *index = indices.data();
  forEachIndex(
      batch->dims, batch->strides, batchUpdateStrides,
      [&](int64_t indexOffset, int64_t updateOffset) {
        if (!status)
          return;
        int64_t base = 0;
        for (size_t k = 0; k < toOperandDims->size(); ++k) {
          int64_t d = (*toOperandDims)[k];
          int64_t start = toIndex(index[indexOffset + k * batch->vectorStride]);
          // A window that does not fit the operand is skipped.
          if (start < 0 || start > operandShape.dim(d) - windowSizeOf[d])
            return;
          base += start * operandStrides[d];
        }
        forEachIndex(
            windowDims, windowUpdateStrides, windowOperandStrides,
            [&](int64_t u, int64_t o) {
              if (!status)
                return;
              if (count == 1 && combiner->returnsParameter() == 1) {
                outputs[0][base + o] = updates[0][updateOffset + u];
              } else if (count == 1 && combiner->binaryOp()) {
                double value = applyBinary(*combiner->binaryOp(), type,
                                           outputs[0][base + o],
                                           updates[0][updateOffset + u]);
                outputs[0][base + o] = round ? roundFloat(type, value) : value;
              } else {
                for (size_t k = 0; k < count; ++k) {
                  arguments[k] = outputs[k][base + o];
                  arguments[count + k] = updates[k][updateOffset + u];
                }
                status = combiner->apply(arguments.data(), combined.data());
                for (size_t k = 0; k < count; ++k)
                  outputs[k][base + o] = combined[k];
              }
            });
      });
  if (!status)
    return status.error();
  if (count == 1) {
    results[0].shape = instruction.shape();
    return std::move(results[0]);
  }
  RuntimeValue tuple = makeTuple(std::move(results));
  tuple.shape = instruction.shape();
  return tuple;
}

} // namespace rlopt::graph::interp
