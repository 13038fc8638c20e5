// hardened_rejection_group_test.cc — the rejection method's whole-group kernels
// (HardenedRejectionPlan::group: the AVX-512 IFMA kernel of samplers/internal/hardened_rejection_ifma.cc
// and the AVX2 group of samplers/internal/hardened_rejection_avx2.cc) against the portable group
// and the single proposal (samplers/internal/hardened_rejection.h):
//   * the same values and bits on the same streams as the portable group and as single draws
//     (whole and partial groups, j from 5 to 26, a non-dyadic s0);
//   * on proposals made to sit on the acceptance boundary (the residual one below and at
//     floor(alpha w_x / 2^80)) or on the edges of the table draw's interval (u = T_(x-1) and
//     T_x - 1), every x, y and sign random: the same accept decisions and values as
//     rejection_proposal. A count off by one unit or a scan's `<=` for `<` is caught, which random
//     streams would almost never show.
// Each kernel is skipped where the CPU lacks it (AVX-512 IFMA; AVX2 and BMI2).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <exactdp/core/rational.h>
#include <exactdp/samplers/internal/hardened_rejection.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

using internal::HardenedRejectionPlan;
using internal::RejectionGroupFn;

const char* const kSigma2[] = {"4096", "68719476736", "1099511627776/3", "18014398509481984", "72057594037927935"};

// The kernel named by the test's parameter, nullptr where this CPU lacks it.
RejectionGroupFn kernel_named(const std::string& name) {
  return name == "ifma" ? internal::rejection_group_ifma() : internal::rejection_group_avx2();
}

class RejectionGroupKernel : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    kernel_ = kernel_named(GetParam());
    RecordProperty("group_kernel", kernel_ != nullptr ? GetParam() : "none");
    if (kernel_ == nullptr) GTEST_SKIP() << "this CPU has no " << GetParam() << " kernel";
  }
  RejectionGroupFn kernel_ = nullptr;
};

TEST(RejectionGroupKernels, ThePlanTakesTheFastestThisCpuHas) {
  const RejectionGroupFn expected =
      internal::rejection_group_ifma() != nullptr ? internal::rejection_group_ifma() : internal::rejection_group_avx2();
  EXPECT_EQ(internal::make_rejection_plan(parse_rational("sigma2", "4096")).group, expected);
}

TEST_P(RejectionGroupKernel, SameValuesAndBitsAsThePortableGroup) {
  for (const char* s : kSigma2) {
    HardenedRejectionPlan plan = internal::make_rejection_plan(parse_rational("sigma2", s));
    plan.group = kernel_;
    // The AVX2 group runs where there is no IFMA: with the portable exponential, as there.
    if (std::string(GetParam()) == "avx2") plan.exp.group = internal::fixed_exp52_group_portable;
    HardenedRejectionPlan portable = plan;
    portable.group = nullptr;
    for (const std::size_t n : {8U, 20U, 32U, 45U, 1000U}) {
      SeededBits a(test_support::fixed_seed(78, static_cast<std::uint32_t>(n)));
      SeededBits b(test_support::fixed_seed(78, static_cast<std::uint32_t>(n)));
      SeededBits c(test_support::fixed_seed(78, static_cast<std::uint32_t>(n)));
      (void)a.bits(5);  // a stream not on a word boundary
      (void)b.bits(5);
      (void)c.bits(5);
      std::vector<std::int64_t> expected(n), got(n), single(n);
      internal::draw_hardened_rejection_n(a, portable, -3, expected.data(), n);
      internal::draw_hardened_rejection_n(b, plan, -3, got.data(), n);
      for (auto& v : single) v = internal::draw_hardened_rejection(c, plan, -3);
      EXPECT_EQ(got, expected) << "sigma2 = " << s << ", n = " << n;
      EXPECT_EQ(b.bits_consumed(), a.bits_consumed()) << "sigma2 = " << s << ", n = " << n;
      EXPECT_EQ(got, single) << "single draws, sigma2 = " << s << ", n = " << n;
      EXPECT_EQ(b.bits_consumed(), c.bits_consumed()) << "single draws, sigma2 = " << s << ", n = " << n;
    }
  }
}

// Appends the `bits` low bits of v (most significant first) at bit `at` of words.
void put_bits(std::vector<std::uint64_t>& words, std::size_t& at, uint128 v, unsigned bits) {
  for (unsigned i = bits; i-- > 0; ++at) {
    const auto bit = static_cast<std::uint64_t>(v >> i) & 1;
    words[at / 64] |= bit << (63 - at % 64);
  }
}

// A proposal whose residual is count - 1, count (kept inside [0, w_x)), 0 or w_x - 1 (u on the
// edges of x's interval: the table scan's boundary), and its window.
struct Crafted {
  uint128 window = 0;
  uint128 u = 0;
};
Crafted boundary_proposal(const HardenedRejectionPlan& plan, std::uint64_t x, std::uint64_t y, bool sign,
                          unsigned mode) {
  uint128 base = 0, width = 0;
  internal::select_bracket(plan.brackets, static_cast<std::uint32_t>(x), &base, &width);
  const uint128 count = internal::acceptance_count(plan, x, y);
  uint128 residual = mode == 0 ? count - 1 : mode == 1 ? count : mode == 2 ? 0 : width - 1;
  if (mode < 2 && count == 0) residual = 0;
  if (residual >= width) residual = width - 1;
  Crafted c;
  c.u = base + residual;
  c.window = (c.u << 48) | (uint128{sign} << 47) | (uint128{y} << (47 - plan.j));
  return c;
}

TEST_P(RejectionGroupKernel, SameDecisionsOnTheAcceptanceBoundary) {
  const RejectionGroupFn kernel = kernel_;
  std::mt19937_64 rng(20261129);
  for (const char* s : kSigma2) {
    const HardenedRejectionPlan plan = internal::make_rejection_plan(parse_rational("sigma2", s));
    const unsigned p = plan.proposal_bits();
    for (int round = 0; round < 200; ++round) {
      std::vector<std::uint64_t> words(internal::kRejectionGroupWords, 0);
      std::vector<std::int64_t> expected;
      std::size_t at = 0;
      for (std::size_t lane = 0; lane < internal::kScanGroup; ++lane) {
        const std::uint64_t x = rng() % (plan.half.entries + 1);
        const std::uint64_t y = rng() & ((std::uint64_t{1} << plan.j) - 1);
        const Crafted c = boundary_proposal(plan, x, y, (rng() & 1) != 0, static_cast<unsigned>(lane + round) % 4);
        put_bits(words, at, c.window >> (128 - p), p);
        std::int64_t value = 0;
        if (internal::rejection_proposal(plan, c.window, &value) != 0) expected.push_back(value + 11);
      }
      std::vector<std::int64_t> got(internal::kScanGroup, 0);
      got.resize(kernel(plan, words.data(), internal::kScanGroup, 11, got.data()));
      ASSERT_EQ(got, expected) << "sigma2 = " << s << ", round " << round;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, RejectionGroupKernel, ::testing::Values("ifma", "avx2"),
                         [](const ::testing::TestParamInfo<const char*>& i) { return std::string(i.param); });

}  // namespace
}  // namespace exactdp
