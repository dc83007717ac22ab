// Any text through the schedule grammar (`op1: tile(64,8) vectorize`).
#include "FuzzInput.h"

#include "rlopt/linalg/Schedule.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)rlopt::linalg::parseSchedule(rlopt::fuzz::asText(data, size));
  return 0;
}
