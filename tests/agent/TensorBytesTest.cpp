// The weights a distributed run's learner sends its rollout ranks: they
// arrive exactly, a network of another shape refuses them, and the
// fingerprint tells two sets of weights apart.
#include "rlopt/agent/TensorBytes.h"

#include <gtest/gtest.h>

using namespace rlopt::agent;

namespace {

std::vector<torch::Tensor> network(int hidden) {
  return {torch::randn({4, hidden}), torch::randn({hidden})};
}

TEST(TensorBytes, WeightsArriveExactly) {
  torch::manual_seed(1);
  std::vector<torch::Tensor> sent = network(3);
  torch::manual_seed(2);
  std::vector<torch::Tensor> received = network(3);
  ASSERT_FALSE(torch::equal(sent[0], received[0]));
  EXPECT_NE(tensorFingerprint(sent), tensorFingerprint(received));

  rlopt::Status loaded = loadTensorBytes(received, tensorBytes(sent));
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  for (size_t i = 0; i < sent.size(); ++i)
    EXPECT_TRUE(torch::equal(sent[i], received[i])) << i;
  EXPECT_EQ(tensorFingerprint(sent), tensorFingerprint(received));
}

TEST(TensorBytes, ANetworkOfAnotherSizeRefusesThem) {
  std::vector<torch::Tensor> small = network(3), large = network(5);
  torch::Tensor before = large[0].clone();
  rlopt::Status loaded = loadTensorBytes(large, tensorBytes(small));
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("do not fit"), std::string::npos);
  EXPECT_TRUE(torch::equal(before, large[0])) << "nothing was copied";
  EXPECT_FALSE(loadTensorBytes(small, {}).ok());
}

} // namespace
