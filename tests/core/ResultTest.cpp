#include "rlopt/core/Result.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace rlopt;

namespace {

Result<int> parsePositive(const std::string &text) {
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return makeError("not a number: '" + text + "'");
    value = value * 10 + (c - '0');
  }
  if (value == 0)
    return makeError("not positive: '" + text + "'");
  return value;
}

TEST(ResultTest, HoldsAValue) {
  Result<int> result = parsePositive("42");
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(static_cast<bool>(result));
  EXPECT_EQ(result.value(), 42);
  EXPECT_EQ(*result, 42);
}

TEST(ResultTest, HoldsAnError) {
  Result<int> result = parsePositive("4x2");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(static_cast<bool>(result));
  EXPECT_EQ(result.error().message, "not a number: '4x2'");
}

TEST(ResultTest, MoveOnlyValuesAreTakenOut) {
  Result<std::unique_ptr<std::string>> result =
      std::make_unique<std::string>("payload");
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->get()->size(), 7u);
  std::unique_ptr<std::string> taken = result.takeValue();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(*taken, "payload");
}

TEST(ResultTest, ValueMayBeModifiedInPlace) {
  Result<std::string> result = std::string("abc");
  result->append("def");
  result.value() += "g";
  EXPECT_EQ(*result, "abcdefg");
}

TEST(StatusTest, DefaultIsSuccess) {
  Status status;
  EXPECT_TRUE(status.ok());
  EXPECT_TRUE(Status::success().ok());
  EXPECT_TRUE(static_cast<bool>(Status::success()));
}

TEST(StatusTest, CarriesAnError) {
  Status status = makeError("cannot write /x: permission denied");
  ASSERT_FALSE(status.ok());
  EXPECT_FALSE(static_cast<bool>(status));
  EXPECT_EQ(status.error().message, "cannot write /x: permission denied");
}

} // namespace
