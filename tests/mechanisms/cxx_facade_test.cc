// The C++ facade (<exactdp/bits.h>, <exactdp/sampler.h>, <exactdp/laws.h>) against the C
// interface it shares its registry calls with: for the same seed a facade Sampler draws the values
// and consumes the bits of the C sampler (plain and hardened, int64 and any-size paths); the
// certified profile and the calibration are the C calls' to the last printed digit; every refusal
// is a ParameterError naming what the caller got wrong (the law, the parameter, the seed), and a
// buffer of many-draw samples is charged as `sample -n` is.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <exactdp/bits.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/exactdp.h>
#include <exactdp/laws.h>
#include <exactdp/sampler.h>
#include "tests/mechanisms/c_handles.h"

namespace exactdp {
namespace {

using test_support::c_bits;
using test_support::CSampler;
using test_support::seed_of;

const char* const kSeedOne = "0100000000000000000000000000000000000000000000000000000000000000";

// The ParameterError's parameter() of body(), or "" when it throws none.
template <class Body>
std::string refused_parameter(Body body) {
  try {
    body();
  } catch (const ParameterError& e) {
    return e.parameter();
  }
  return "";
}

TEST(CxxFacade, DrawsTheCSamplersValuesAndBits) {
  for (const int flags : {0, EXACTDP_HARDENED}) {
    exactdp_sampler* raw = nullptr;
    ASSERT_EQ(exactdp_discrete_gaussian_new("10", flags, &raw), EXACTDP_OK);
    const CSampler c(raw);
    SamplerOptions options;
    options.hardened = flags != 0;
    const Sampler s = Sampler::make("discrete-gaussian", {{"sigma2", "10"}}, options);
    EXPECT_EQ(s.hardened(), flags != 0);
    auto cb = c_bits(seed_of(1));
    Bits bits = Bits::seeded(kSeedOne);
    std::vector<std::int64_t> want(64), got(64);
    ASSERT_EQ(exactdp_sample_int64(c.get(), cb.get(), want.data(), want.size()), EXACTDP_OK);
    s.draw(bits, got);
    EXPECT_EQ(got, want);
    char text[64];
    ASSERT_EQ(exactdp_sample_decimal(c.get(), cb.get(), text, sizeof text), EXACTDP_OK);
    EXPECT_EQ(s.draw(bits).get_str(), text);
    std::uint64_t consumed = 0;
    ASSERT_EQ(exactdp_bits_consumed(cb.get(), &consumed), EXACTDP_OK);
    EXPECT_EQ(bits.consumed(), consumed);
    if (s.hardened()) {
      EXPECT_EQ(bits.consumed(), 65 * s.bits_per_sample());
      EXPECT_LE(s.tau_upper(), mpq_class(1, 1) / mpq_class(mpz_class(1) << 64));
    }
  }
}

TEST(CxxFacade, ValuesBeyondInt64GoToTheAnySizeDraw) {
  const Sampler s = Sampler::make("discrete-laplace", {{"scale", "1"}, {"mean", "9223372036854775808"}});
  Bits bits = Bits::seeded(kSeedOne);
  EXPECT_GE(s.draw(bits), mpz_class("9223372036854775700"));
  std::vector<std::int64_t> out(4);
  EXPECT_THROW(s.draw(bits, out), std::out_of_range);
}

// A distributed discrete Gaussian sample is 10^4 discrete Gaussians here: a buffer of 11,429 is
// over the cost limit of exactdp_sample_int64 and `sample -n` (operations/draw_cost.h), refused
// naming out before a bit is drawn; a few samples are drawn.
TEST(CxxFacade, BufferOfManyDrawSamplesIsChargedAsSampleN) {
  const Sampler s = Sampler::make("distributed-discrete-gaussian", {{"sigma2", "1/4"}, {"clients", "10000"}});
  Bits bits = Bits::seeded(kSeedOne);
  std::vector<std::int64_t> out(11'429);
  try {
    s.draw(bits, out);
    ADD_FAILURE() << "drawn";
  } catch (const LimitError& e) {
    EXPECT_EQ(e.parameter(), "out");
    EXPECT_NE(std::string(e.what()).find("out = 11429 is over the cost limit of distributed-discrete-gaussian"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(bits.consumed(), 0u);
  s.draw(bits, std::span<std::int64_t>(out.data(), 3));
  EXPECT_GT(bits.consumed(), 0u);
}

TEST(CxxFacade, RefusalsNameTheArgument) {
  EXPECT_EQ(refused_parameter([] { (void)Sampler::make("no-such-law", {}); }), "law");
  EXPECT_EQ(refused_parameter([] { (void)Sampler::make("discrete-gaussian", {{"sigma2", "-1"}}); }), "sigma2");
  SamplerOptions hardened;
  hardened.hardened = true;
  // The checks of the operation `sample`, in its order (as from the command line, Python and C).
  EXPECT_EQ(refused_parameter([&] { (void)Sampler::make("bernoulli-exp", {{"gamma", "1"}}, hardened); }), "hardened");
  EXPECT_EQ(refused_parameter([] { (void)Sampler::make("discrete-gaussian", {{"sigma2", "1"}, {"sigma2", "2"}}); }),
            "sigma2");  // a name given twice
  EXPECT_EQ(refused_parameter([] { (void)Sampler::make("discrete-gaussian", {{"sigma", "1"}}); }), "sigma");
  hardened.tau_bits = 39;
  EXPECT_EQ(refused_parameter([&] { (void)Sampler::make("discrete-gaussian", {{"sigma2", "1"}}, hardened); }),
            "tau_bits");
  EXPECT_EQ(refused_parameter([] { (void)Bits::seeded("12"); }), "seed");
  const std::string zero(64, '0');
  EXPECT_EQ(refused_parameter([&] { (void)Bits::seeded(zero); }), "seed");
  EXPECT_NO_THROW((void)Bits::seeded(zero, true));
  EXPECT_EQ(refused_parameter([] { (void)law_info("no-such-law"); }), "law");
  EXPECT_EQ(refused_parameter([] { (void)law_delta("discrete-gaussian", {{"sigma2", "1"}}, mpq_class(-1)); }),
            "epsilon");
  EXPECT_EQ(refused_parameter([] { (void)law_delta("bernoulli-exp", {{"gamma", "1"}}, mpq_class(1)); }), "law");
}

TEST(CxxFacade, ProfileAndCalibrationAreTheCCalls) {
  const Interval d = law_delta("discrete-gaussian", {{"sigma2", "14"}, {"sensitivity", "1"}}, mpq_class(1));
  char lower[EXACTDP_DECIMAL_LEN], upper[EXACTDP_DECIMAL_LEN];
  ASSERT_EQ(exactdp_discrete_gaussian_delta("1", "14", "1", nullptr, lower, upper, sizeof lower), EXACTDP_OK);
  EXPECT_EQ(to_decimal(d, EXACTDP_DECIMAL_DIGITS).lower, lower);
  EXPECT_EQ(to_decimal(d, EXACTDP_DECIMAL_DIGITS).upper, upper);
  // The hardened charge: (1 + e) tau on top.
  const mpq_class tau(1, 1000);
  const Interval charged = law_delta("discrete-gaussian", {{"sigma2", "14"}, {"sensitivity", "1"}}, mpq_class(1), tau);
  ASSERT_EQ(exactdp_discrete_gaussian_delta("1", "14", "1", "1/1000", lower, upper, sizeof lower), EXACTDP_OK);
  EXPECT_EQ(to_decimal(charged, EXACTDP_DECIMAL_DIGITS).upper, upper);

  const LawCalibration c = law_calibrate("discrete-gaussian", {{"sensitivity", "1"}}, mpq_class(1), mpq_class(1, 100000));
  char sigma2[EXACTDP_DECIMAL_LEN];
  ASSERT_EQ(exactdp_calibrate_discrete_gaussian("1", "1e-5", "1", sigma2, sizeof sigma2), EXACTDP_OK);
  EXPECT_EQ(c.parameter, "sigma2");
  EXPECT_EQ(exact_decimal(c.value), sigma2);
  EXPECT_LE(mpfr_cmp_q(c.delta_at.upper(), mpq_class(1, 100000).get_mpq_t()), 0);
}

TEST(CxxFacade, TheRegistryListsEachLawsCapabilities) {
  const std::vector<LawInfo> all = law_list();
  ASSERT_FALSE(all.empty());
  const LawInfo g = law_info("discrete-gaussian");
  EXPECT_TRUE(g.samples && g.hardened && g.profile && g.calibrates);
  ASSERT_FALSE(g.parameters.empty());
  EXPECT_EQ(g.parameters.front().name, "sigma2");
  EXPECT_EQ(g.parameters.front().range, "sigma2 > 0");
  const LawInfo b = law_info("bernoulli-exp");
  EXPECT_TRUE(b.samples);
  EXPECT_FALSE(b.hardened || b.profile);
  bool listed = false;
  for (const LawInfo& l : all) listed = listed || l.name == "discrete-gaussian";
  EXPECT_TRUE(listed);
}

}  // namespace
}  // namespace exactdp
