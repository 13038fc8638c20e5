// exactdp_sampler_new (the C interface's constructor over the law registry) against the C++
// registry it reads: for the same seed the staircase of the C interface draws the values and
// consumes the bits of laws::law_named("staircase")'s own sampler (int64 and decimal paths); the
// discrete Gaussian and Laplace by name draw as the per-law calls do, also beyond int64; and every
// refusal names what the caller got wrong (the law, the parameter, the pointer); a buffer fill of
// a law whose sample is many draws is charged as `exactdp sample -n` is.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/exactdp.h>
#include "tests/mechanisms/c_handles.h"
#include <exactdp/laws/registry.h>
#include <exactdp/samplers/seeded_bits.h>

namespace exactdp {
namespace {
namespace c_api_law_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using test_support::CBits;
using test_support::CSampler;
using Named = std::vector<std::pair<std::string, std::string>>;

using test_support::c_bits;
using test_support::seed_of;

// exactdp_sampler_new(law, names, values, ...) from name=value pairs; the code in *rc.
CSampler c_law_sampler(const char* law, const Named& given, int flags, int* rc) {
  std::vector<const char*> names, values;
  for (const auto& [n, v] : given) {
    names.push_back(n.c_str());
    values.push_back(v.c_str());
  }
  exactdp_sampler* s = nullptr;
  *rc = exactdp_sampler_new(law, names.data(), values.data(), given.size(), flags, &s);
  return CSampler(s);
}

CSampler c_law_sampler(const char* law, const Named& given, int flags = 0) {
  int rc = 0;
  CSampler s = c_law_sampler(law, given, flags, &rc);
  EXPECT_EQ(rc, EXACTDP_OK) << exactdp_last_error();
  return s;
}

std::vector<std::int64_t> c_draw(const exactdp_sampler* s, exactdp_bits* b, std::size_t n) {
  std::vector<std::int64_t> out(n);
  EXPECT_EQ(exactdp_sample_int64(s, b, out.data(), n), EXACTDP_OK) << exactdp_last_error();
  return out;
}

std::string c_decimal(const exactdp_sampler* s, exactdp_bits* b) {
  char buf[128];
  EXPECT_EQ(exactdp_sample_decimal(s, b, buf, sizeof buf), EXACTDP_OK) << exactdp_last_error();
  return buf;
}

std::uint64_t consumed(const exactdp_bits* b) {
  std::uint64_t c = 0;
  EXPECT_EQ(exactdp_bits_consumed(b, &c), EXACTDP_OK);
  return c;
}

TEST(CApiLaw, StaircaseMatchesTheRegistrySampler) {
  const laws::Law& law = laws::law_named("staircase");
  const std::vector<Named> cases = {{{"gamma", "1"}, {"sensitivity", "3"}},
                                    {{"gamma", "1/10"}, {"sensitivity", "7"}, {"r", "3"}, {"mean", "1000"}},
                                    {{"gamma", "5"}, {"sensitivity", "1"}}};
  for (const Named& given : cases) {
    const auto sampler = law.make_sampler(law.parse(given, laws::Use::kSample), std::nullopt);
    const CSampler c = c_law_sampler("staircase", given);
    for (unsigned char k = 0; k < 3; ++k) {
      SeededBits cpp(seed_of(k));
      std::vector<std::int64_t> expected(300);
      ASSERT_EQ(sampler->sample_int64(cpp, expected.data(), expected.size()), expected.size());
      const CBits bits = c_bits(seed_of(k));
      EXPECT_EQ(c_draw(c.get(), bits.get(), expected.size()), expected);
      EXPECT_EQ(consumed(bits.get()), cpp.bits_consumed());
      for (int i = 0; i < 20; ++i) {  // the decimal path: the next draws of both streams
        mpz_class v;
        sampler->sample(cpp, v);
        EXPECT_EQ(c_decimal(c.get(), bits.get()), v.get_str());
      }
      EXPECT_EQ(consumed(bits.get()), cpp.bits_consumed());
    }
  }
}

// The command line's values: `exactdp sample staircase --gamma 1 --sensitivity 3 -n 8 --seed
// 00..01` (tests/c/c_api_test.c pins the same from C).
TEST(CApiLaw, StaircaseKnownAnswerOfTheCommandLine) {
  const CSampler c = c_law_sampler("staircase", {{"gamma", "1"}, {"sensitivity", "3"}});
  exactdp_bits* raw = nullptr;
  ASSERT_EQ(exactdp_bits_seeded_hex("0000000000000000000000000000000000000000000000000000000000000001", &raw),
            EXACTDP_OK);
  const CBits bits(raw);
  EXPECT_EQ(c_draw(c.get(), bits.get(), 8), (std::vector<std::int64_t>{4, 0, 4, -2, -1, -1, 4, -1}));
}

// By name or by the per-law call: the same sampler, also for values beyond int64 (decimal path)
// and for the int64 path's refusal of them.
TEST(CApiLaw, DiscreteGaussianAndLaplaceByNameDrawAsThePerLawCalls) {
  for (const char* sigma2 : {"10", "9/4", "1e8", "1e40"}) {
    const CSampler by_name = c_law_sampler("discrete-gaussian", {{"sigma2", sigma2}});
    exactdp_sampler* raw = nullptr;
    ASSERT_EQ(exactdp_discrete_gaussian_new(sigma2, 0, &raw), EXACTDP_OK);
    const CSampler per_law(raw);
    const CBits a = c_bits(seed_of(3)), b = c_bits(seed_of(3));
    for (int i = 0; i < 50; ++i) EXPECT_EQ(c_decimal(by_name.get(), a.get()), c_decimal(per_law.get(), b.get()));
    EXPECT_EQ(consumed(a.get()), consumed(b.get()));
    if (std::string(sigma2) == "1e40") {
      std::int64_t x[4];
      EXPECT_EQ(exactdp_sample_int64(by_name.get(), a.get(), x, 4), EXACTDP_E_RANGE);
      EXPECT_EQ(exactdp_sample_int64(per_law.get(), b.get(), x, 4), EXACTDP_E_RANGE);
    } else {
      EXPECT_EQ(c_draw(by_name.get(), a.get(), 500), c_draw(per_law.get(), b.get(), 500));
    }
  }
  const CSampler laplace = c_law_sampler("discrete-laplace", {{"scale", "7/2"}, {"mean", "-3"}}, EXACTDP_HARDENED);
  exactdp_sampler_options o;
  exactdp_sampler_options_init(&o);
  o.mean = "-3";
  o.flags = EXACTDP_HARDENED;
  exactdp_sampler* raw = nullptr;
  ASSERT_EQ(exactdp_discrete_laplace_new_ex("7/2", &o, &raw), EXACTDP_OK);
  const CSampler per_law(raw);
  const CBits a = c_bits(seed_of(4)), b = c_bits(seed_of(4));
  EXPECT_EQ(c_draw(laplace.get(), a.get(), 500), c_draw(per_law.get(), b.get(), 500));
  EXPECT_EQ(consumed(a.get()), consumed(b.get()));
  char ta[EXACTDP_DECIMAL_LEN], tb[EXACTDP_DECIMAL_LEN];
  ASSERT_EQ(exactdp_sampler_tau(laplace.get(), ta, sizeof ta), EXACTDP_OK);
  ASSERT_EQ(exactdp_sampler_tau(per_law.get(), tb, sizeof tb), EXACTDP_OK);
  EXPECT_STREQ(ta, tb);
  char la[EXACTDP_DECIMAL_LEN], ua[EXACTDP_DECIMAL_LEN], lb[EXACTDP_DECIMAL_LEN], ub[EXACTDP_DECIMAL_LEN];
  ASSERT_EQ(exactdp_sampler_delta(laplace.get(), "1", "2", la, ua, sizeof la), EXACTDP_OK);
  ASSERT_EQ(exactdp_sampler_delta(per_law.get(), "1", "2", lb, ub, sizeof lb), EXACTDP_OK);
  EXPECT_STREQ(la, lb);
  EXPECT_STREQ(ua, ub);
}

// The refusal's code and the start of its message; *out is never written.
void expect_refused(const char* law, const Named& given, int flags, int code, const std::string& message) {
  int rc = 0;
  const CSampler s = c_law_sampler(law, given, flags, &rc);
  EXPECT_EQ(rc, code) << (law ? law : "(null)");
  EXPECT_EQ(s, nullptr);
  EXPECT_NE(std::string(exactdp_last_error()).find(message), std::string::npos)
      << exactdp_last_error() << " lacks " << message;
}

TEST(CApiLaw, RefusalsNameTheLawOrTheParameter) {
  const Named staircase = {{"gamma", "1"}, {"sensitivity", "3"}};
  expect_refused("staircase", staircase, EXACTDP_HARDENED, EXACTDP_E_PARAM,
                 "hardened (EXACTDP_HARDENED) applies to discrete-gaussian and discrete-laplace, not staircase");
  expect_refused("gdp", {{"mu", "1"}}, 0, EXACTDP_E_PARAM, "unknown law 'gdp' here: it has no sampler: allowed");
  expect_refused("Staircase", staircase, 0, EXACTDP_E_PARAM,
                 "unknown law 'Staircase': allowed discrete-gaussian, discrete-laplace, bernoulli-exp, staircase");
  expect_refused(nullptr, staircase, 0, EXACTDP_E_NULL, "law: null pointer");
  expect_refused("staircase", {{"gamma", "1"}}, 0, EXACTDP_E_PARAM, "missing required parameter sensitivity");
  expect_refused("staircase", {{"gamma", "1"}, {"sensitivity", "3"}, {"sigma2", "1"}}, 0, EXACTDP_E_PARAM,
                 "parameter sigma2 does not apply to staircase");
  expect_refused("staircase", {{"gamma", "1"}, {"sensitivity", "3"}, {"r", "4"}}, 0, EXACTDP_E_PARAM, "r");
  expect_refused("staircase", {{"gamma", "1e99999"}, {"sensitivity", "3"}}, 0, EXACTDP_E_PARAM, "gamma");
  // sensitivity is the discrete Gaussian's privacy parameter, not one of its sampler's
  expect_refused("discrete-gaussian", {{"sigma2", "1"}, {"sensitivity", "2"}}, 0, EXACTDP_E_PARAM,
                 "parameter sensitivity does not apply to discrete-gaussian");
  expect_refused("discrete-gaussian", {{"sigma2", "1e31"}}, EXACTDP_HARDENED, EXACTDP_E_PARAM, "sigma2");
  expect_refused("discrete-gaussian", {{"sigma2", "1"}}, 8, EXACTDP_E_PARAM, "flags");
}

// A distributed discrete Gaussian sample is one discrete Gaussian per survivor: exactdp_sample_int64
// charges n samples of 10^4 draws as `exactdp sample -n` does (operations/draw_cost.h, about
// 0.035 us a draw at sigma2 = 1/4: 11,428 samples in 4 s), before a bit is drawn.
TEST(CApiLaw, BufferFillOfManyDrawSamplesIsChargedAsSampleN) {
  int rc = 0;
  const CSampler ddg = c_law_sampler("distributed-discrete-gaussian", {{"sigma2", "1/4"}, {"clients", "10000"}}, 0, &rc);
  ASSERT_EQ(rc, EXACTDP_OK) << exactdp_last_error();
  const CBits bits = c_bits(seed_of(7));
  std::vector<std::int64_t> out(11'429);
  EXPECT_EQ(exactdp_sample_int64(ddg.get(), bits.get(), out.data(), out.size()), EXACTDP_E_LIMIT);
  EXPECT_EQ(std::string(exactdp_last_error()),
            "n = 11429 is over the cost limit of distributed-discrete-gaussian: a sample is 10000 draws (about "
            "0.035 us each): allowed at most 11428 samples (4 s)");
  std::uint64_t consumed = 1;
  ASSERT_EQ(exactdp_bits_consumed(bits.get(), &consumed), EXACTDP_OK);
  EXPECT_EQ(consumed, 0u);
  EXPECT_EQ(exactdp_sample_int64(ddg.get(), bits.get(), out.data(), 3), EXACTDP_OK) << exactdp_last_error();
}

}  // namespace c_api_law_test
}  // namespace
}  // namespace exactdp
