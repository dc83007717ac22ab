#ifndef RLOPT_LINALG_SCHEDULE_H
#define RLOPT_LINALG_SCHEDULE_H

#include "rlopt/core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rlopt::linalg {

/// One transformation with its integer parameters, e.g. tile(32,32,16).
struct TransformStep {
  std::string name;
  std::vector<int64_t> params;
};

/// The transformations of one op, applied in order.
struct OpSchedule {
  std::string opId;
  std::vector<TransformStep> steps;
};

/// A whole schedule. Text form (README, "Schedules"):
///   schedule := [op-schedule (';' op-schedule)*] [';']
///   op-schedule := op-id ':' step*
///   step := name ['(' int (',' int)* ')']
/// e.g. `op1: tile(32,32,16) interchange(0,2,1) vectorize; op0: stop`.
struct Schedule {
  std::vector<OpSchedule> ops;

  bool empty() const;
  std::string str() const;
};

/// Parses schedule text; errors name the column: `schedule:12: expected ')'`.
Result<Schedule> parseSchedule(const std::string &text);

} // namespace rlopt::linalg

#endif
