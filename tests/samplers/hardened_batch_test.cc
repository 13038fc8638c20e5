// hardened_batch_test.cc — the hardened discrete Gaussian's batch (sample_discrete_gaussian_n,
// internal/hardened_batch.h) returns exactly the values of successive single draws and reads
// exactly their bits, for every width (tau_bits 40, 64, 128: 2, 3 and 5 digits), with and without
// convolution levels, for batch sizes around the group size (partial groups), from a stream that
// does not start on a word boundary; and the check has power (a broken plan breaks it).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <gmpxx.h>

#include <exactdp/laws/law.h>
#include <exactdp/laws/registry.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/internal/hardened_batch.h>
#include <exactdp/samplers/internal/hardened_plans.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

using test_support::fixed_seed;
constexpr std::uint32_t kSuite = 0x6ba7;

struct Case {
  const char* sigma2;
  unsigned tau_bits;
};

// The single draws and the batch from the same seed, after `skew` bits (a stream not at a word
// boundary). Returns {single, batch}; checks that both read the same number of bits.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> both(const internal::HardenedGaussianPlan& plan,
                                                                       std::int64_t mean, std::size_t n,
                                                                       unsigned skew, std::uint32_t index) {
  SeededBits a(fixed_seed(kSuite, index));
  SeededBits b(fixed_seed(kSuite, index));
  (void)a.bits(skew);
  (void)b.bits(skew);
  std::vector<std::int64_t> single(n), batch(n + 1, 12345);
  for (std::size_t i = 0; i < n; ++i) single[i] = internal::draw_hardened_gaussian(a, plan, mean);
  internal::draw_hardened_gaussian_n(b, plan, mean, batch.data(), n);
  EXPECT_EQ(batch[n], 12345) << "wrote past out[n)";
  batch.resize(n);
  EXPECT_EQ(a.bits_consumed(), b.bits_consumed());
  EXPECT_EQ(a.bits(64), b.bits(64)) << "the streams continue at different positions";
  return {single, batch};
}

TEST(HardenedBatch, SameValuesAndBitsAsSingleDraws) {
  const Case cases[] = {{"1/100", 64}, {"100", 64},   {"400", 64},    {"68719476736", 64},  // 2^36
                        {"1099511627776", 64},                                              // 2^40
                        {"100", 40},   {"3000", 40},  {"1000000000000", 40},
                        {"100", 128},  {"1000000000000", 128},
                        {"1267650600228229401496703205376", 128}};  // 2^100: 24 levels
  std::uint32_t index = 0;
  for (const Case& c : cases) {
    const auto p = HardenedDiscreteGaussianParams::make(mpq_class(c.sigma2), -7, Hardening{c.tau_bits});
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{32}, std::size_t{33},
                                std::size_t{100}}) {
      for (const unsigned skew : {0u, 13u}) {
        const auto [single, batch] = both(p.plan(), p.mean(), n, skew, ++index);
        EXPECT_EQ(single, batch) << "sigma2 = " << c.sigma2 << ", tau_bits = " << c.tau_bits << ", n = " << n
                                 << ", skew = " << skew;
      }
    }
  }
}

TEST(HardenedBatch, PublicCallMatchesTheSingleDraws) {
  const auto p = HardenedDiscreteGaussianParams::make(mpq_class(1) << 36);
  SeededBits a(fixed_seed(kSuite, 1000));
  SeededBits b(fixed_seed(kSuite, 1000));
  std::vector<std::int64_t> single(70), batch(70);
  for (auto& x : single) x = sample_discrete_gaussian(a, p);
  sample_discrete_gaussian_n(b, p, batch.data(), batch.size());
  EXPECT_EQ(single, batch);
  EXPECT_EQ(a.bits_consumed(), 70 * p.bits_per_sample());
  EXPECT_EQ(b.bits_consumed(), 70 * p.bits_per_sample());
}

// The registry's hardened sampler (what grid noise and the C interface's batches call) takes the
// batch path and keeps the contract of Sampler::sample_int64: the values of n single draws.
TEST(HardenedBatch, RegistrySamplerBatchIsTheSingleDraws) {
  const laws::Law& law = *laws::find_law("discrete-gaussian");
  const laws::LawParameters params = law.parse({{"sigma2", "68719476736"}}, laws::Use::kSample);
  const auto sampler = law.make_sampler(params, Hardening{});
  SeededBits a(fixed_seed(kSuite, 2000));
  SeededBits b(fixed_seed(kSuite, 2000));
  std::vector<std::int64_t> single(45), batch(45);
  for (auto& x : single) x = sampler->sample_isochronous(a);
  ASSERT_EQ(sampler->sample_int64(b, batch.data(), batch.size()), batch.size());
  EXPECT_EQ(single, batch);
}

// Power: the comparison above sees a change of one threshold digit in the batch's table.
TEST(HardenedBatch, BrokenFineTableIsSeen) {
  const auto p = HardenedDiscreteGaussianParams::make(mpq_class(1) << 36);
  internal::HardenedGaussianPlan broken = p.plan();
  // Move the middle threshold of the fine table's top digit far down: many uniforms change count.
  internal::ScanTable& fine = broken.fine_scan;
  const std::size_t top = (fine.digits_per_number - 1) * fine.padded;
  fine.digits[top + fine.entries / 2] /= 2;
  SeededBits a(fixed_seed(kSuite, 3000));
  SeededBits b(fixed_seed(kSuite, 3000));
  std::vector<std::int64_t> good(200), bad(200);
  internal::draw_hardened_gaussian_n(a, p.plan(), 0, good.data(), good.size());
  internal::draw_hardened_gaussian_n(b, broken, 0, bad.data(), bad.size());
  EXPECT_NE(good, bad);
}

}  // namespace
}  // namespace exactdp
