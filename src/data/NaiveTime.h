// The generators' estimate of a multi-op program's naive time, op by op.
#ifndef RLOPT_SRC_DATA_NAIVETIME_H
#define RLOPT_SRC_DATA_NAIVETIME_H

#include "ProgramWriter.h"

namespace rlopt::data::detail {

/// Milliseconds of the naive baseline (Linalg lowered to scalar loops, LLVM
/// -O3) on the reference machine: per op, its FLOPs at the throughput of its
/// kind plus its output at the kind's bandwidth.
double estimateNaiveMs(const std::vector<ProgramWriter::OpRecord> &ops);

} // namespace rlopt::data::detail

#endif
