#include "rlopt/core/TransitionMemory.h"

#include <gtest/gtest.h>

using rlopt::TransitionMemory;

TEST(TransitionMemory, ANoOpIsMaskedInItsStateOnly) {
  TransitionMemory memory;
  memory.reset(10);
  memory.record(/*action=*/1, 10); // changed nothing
  std::vector<uint8_t> mask(3, 1);
  memory.maskKnown(mask, /*revisits=*/false);
  EXPECT_EQ(mask, (std::vector<uint8_t>{1, 0, 1}));
  memory.record(2, 20);
  mask.assign(3, 1);
  memory.maskKnown(mask, false);
  EXPECT_EQ(mask, (std::vector<uint8_t>{1, 1, 1}));
  EXPECT_FALSE(memory.knownUnchanged(1));
}

TEST(TransitionMemory, ACycleIsMaskedWhenItsStartComesBack) {
  TransitionMemory memory;
  memory.reset(10);
  memory.record(0, 20); // 10 -0-> 20 -1-> 10: action 0 would repeat the loop
  memory.record(1, 10);
  std::vector<uint8_t> mask(3, 1);
  memory.maskKnown(mask, /*revisits=*/false);
  EXPECT_EQ(mask, (std::vector<uint8_t>{1, 1, 1}));
  memory.maskKnown(mask, /*revisits=*/true);
  EXPECT_EQ(mask, (std::vector<uint8_t>{0, 1, 1}));
  EXPECT_EQ(memory.known(0), 20u);
  EXPECT_EQ(memory.known(1), std::nullopt);
}

TEST(TransitionMemory, AMaskThatWouldAllowNothingStaysAsItWas) {
  TransitionMemory memory;
  memory.reset(1);
  memory.record(0, 1);
  memory.record(1, 1);
  std::vector<uint8_t> mask = {1, 1, 0};
  memory.maskKnown(mask, true);
  EXPECT_EQ(mask, (std::vector<uint8_t>{1, 1, 0}));
  memory.reset(1); // a new episode forgets
  EXPECT_EQ(memory.known(0), std::nullopt);
}
