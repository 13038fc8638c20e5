// The Skellam dimension limit of plan_federated (operations/federated.h): where the lattice's mu
// (mu / g^2) is at most 10^7 each share is a Poisson table draw (about 20 ns) and the dimension
// goes to the plan's 2^24; above 10^7 (about 1.5 us a share) it stops at 2^20, refused naming
// "dimension" before anything is drawn.
#include <gtest/gtest.h>

#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/operations/federated.h>
#include "tests/operations/thrown.h"

namespace exactdp {
namespace {

// g = 2^-6: the lattice's mu is mu 2^12.
operations::FederatedRequest skellam_request(const std::string& dimension, const std::string& mu) {
  operations::FederatedRequest r;
  r.dimension = dimension;
  r.clip = "1";
  r.granularity = "6";
  r.bits = "36";  // bits + log2(D) <= 63 up to D = 2^24
  r.clients = "1";
  r.noise = "skellam";
  r.noise_value = mu;
  r.max_wrap = "1";
  r.hardened = false;
  return r;
}

TEST(FederatedSkellamCap, TheTableRouteAllowsThePlansDimension) {
  // lattice mu = 2441 * 4096 = 9998336 <= 10^7
  const auto report = operations::plan_federated(skellam_request("1048577", "2441"));
  EXPECT_EQ(report.plan->padded_dimension(), std::size_t{1} << 22);
  EXPECT_NO_THROW((void)operations::plan_federated(skellam_request("16777216", "2441")));
}

TEST(FederatedSkellamCap, AboveTheTableTheDimensionStopsAt2To20) {
  // lattice mu = 2442 * 4096 = 10002432 > 10^7
  EXPECT_NO_THROW((void)operations::plan_federated(skellam_request("1048576", "2442")));
  try {
    (void)operations::plan_federated(skellam_request("1048577", "2442"));
    ADD_FAILURE() << "dimension 2^20 + 1 accepted at lattice mu > 10^7";
  } catch (const LimitError& e) {
    EXPECT_EQ(e.parameter(), "dimension");
    EXPECT_TRUE(operations::message_contains(e, "1048576"));
  }
}

}  // namespace
}  // namespace exactdp
