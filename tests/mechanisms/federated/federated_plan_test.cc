// federated_plan_test.cc — FederatedPlan::make (mechanisms/federated/federated_plan.h): every
// bad parameter refused naming it, the modulus too small for the noise refused naming bits with
// the wrap-around bound, and the bounds against independent double-precision evaluations of the
// same formulas (tests only).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/federated/federated_plan.h>
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

using namespace mechanisms;

FederatedSpec base() {
  FederatedSpec s;
  s.dimension = 100;
  s.clip = 1;
  s.granularity_exponent = 6;
  s.bits = 32;
  s.clients = 10;
  s.noise_value = mpq_class(1, 100);
  s.rotation_seed = test_support::fixed_seed(0xfed0, 1);
  return s;
}

void expect_refused(const std::function<void(FederatedSpec&)>& change, const std::string& parameter,
                    const std::string& says = "") {
  FederatedSpec s = base();
  change(s);
  try {
    (void)FederatedPlan::make(s);
    ADD_FAILURE() << "accepted; expected a refusal naming " << parameter;
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), parameter) << e.what();
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

TEST(FederatedPlan, BadParametersAreRefusedNamingThem) {
  expect_refused([](FederatedSpec& s) { s.dimension = 0; }, "dimension");
  expect_refused([](FederatedSpec& s) { s.dimension = (1U << 24) + 1; }, "dimension");
  expect_refused([](FederatedSpec& s) { s.clip = 0; }, "c");
  expect_refused([](FederatedSpec& s) { s.clip = -1; }, "c");
  expect_refused([](FederatedSpec& s) { s.bits = 7; }, "bits", "allowed 8 <= bits <= 62");
  expect_refused([](FederatedSpec& s) { s.bits = 63; }, "bits", "allowed 8 <= bits <= 62");
  expect_refused([](FederatedSpec& s) { s.clients = 0; }, "clients");
  expect_refused([](FederatedSpec& s) { s.dropout = 1; }, "dropout");
  expect_refused([](FederatedSpec& s) { s.dropout = mpq_class(-1, 10); }, "dropout");
  expect_refused([](FederatedSpec& s) { s.beta = mpq_class(3, 4); }, "beta");
  expect_refused([](FederatedSpec& s) { s.max_wrap = 0; }, "max_wrap");
  expect_refused([](FederatedSpec& s) { s.noise = "laplace"; }, "noise");
  expect_refused([](FederatedSpec& s) { s.noise_value = 0; }, "sigma2");
  expect_refused([](FederatedSpec& s) { s.noise = "skellam"; s.noise_value = -1; }, "mu");
  expect_refused([](FederatedSpec& s) { s.granularity_exponent = 5000; }, "granularity");
  expect_refused([](FederatedSpec& s) { s.clip = mpq_class(1) << 40; }, "c");
  // bits + log2(padded dimension) <= 63: d = 2^20 pads to 2^20, so bits <= 43.
  expect_refused([](FederatedSpec& s) { s.dimension = 1U << 20; s.bits = 44; }, "bits");
}

TEST(FederatedPlan, ModulusTooSmallForTheNoiseIsRefusedNamingBitsWithTheBound) {
  FederatedSpec s = base();
  // sigma2 / g^2 = 4096 per client, 10 clients; signal up to 10 * 65 lattice steps: at bits = 12
  // the bound is about 2e-8 (the tail at 1398 steps, 256 coordinates).
  s.noise_value = 1;
  s.bits = 12;
  s.max_wrap = mpq_class(1, 1000000000);
  try {
    (void)FederatedPlan::make(s);
    FAIL() << "accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "bits");
    EXPECT_NE(std::string(e.what()).find("wrap-around probability bound is"), std::string::npos) << e.what();
  }
  s.max_wrap = mpq_class(1, 10000000);
  EXPECT_NO_THROW((void)FederatedPlan::make(s));
  s.bits = 10;  // 2^9 < 650: no room at all
  s.max_wrap = 1;
  EXPECT_NO_THROW((void)FederatedPlan::make(s));  // max_wrap = 1 accepts even a certain wrap
  s.max_wrap = mpq_class(999, 1000);
  EXPECT_THROW((void)FederatedPlan::make(s), ParameterError);
}

TEST(FederatedPlan, BoundsMatchTheirFormulasInDoublePrecision) {
  FederatedSpec s = base();
  s.bits = 16;
  s.max_wrap = 1;
  for (const char* noise : {"discrete-gaussian", "skellam"}) {
    s.noise = noise;
    const FederatedPlan p = FederatedPlan::make(s);
    const double c = 64.0;  // C = c / g
    const double dd = static_cast<double>(p.padded_dimension());
    const double rt = std::sqrt(dd);
    const double target = c * c + dd / 4 + std::sqrt(2 * std::log(2.0)) * (c + rt / 2);
    const double nb = std::min(std::ceil(target), std::floor((c + rt) * (c + rt)));
    EXPECT_EQ(p.norm_bound().get_d(), nb);
    const double a = std::ldexp(1.0, 15) - 10 * std::floor(std::sqrt(nb));
    const double var = (s.noise == "skellam" ? 2.0 : 1.0) * 10 * (0.01 * 4096);
    double tail = std::exp(-a * a / (2 * var));
    if (s.noise == "skellam") {
      const double t = std::asinh(a / var);
      tail = std::exp(-a * t + var * (std::cosh(t) - 1));
    }
    const double wrap = std::min(1.0, 2 * dd * tail);
    const double got = mpfr_get_d(p.wrap_probability().upper(), MPFR_RNDU);
    EXPECT_NEAR(got, wrap, 1e-9 * wrap + 1e-300) << noise;
    EXPECT_LE(mpfr_get_d(p.retry_probability().upper(), MPFR_RNDU), 0.5);
  }
}

TEST(FederatedPlan, HardenedNoiseAddsItsTotalVariationToTheWrapBound) {
  FederatedSpec s = base();
  s.hardening = Hardening{};
  const FederatedPlan p = FederatedPlan::make(s);
  EXPECT_TRUE(p.sampler().hardened());
  EXPECT_FALSE(upper_at_most(p.wrap_probability(), mpq_class(p.sampler().tau_upper() * 10 * 256)));
}

}  // namespace
}  // namespace exactdp
