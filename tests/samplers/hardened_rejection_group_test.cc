// hardened_rejection_group_test.cc — the rejection method's whole-group kernels
// (HardenedRejectionPlan::group: the AVX-512 IFMA kernel of samplers/internal/hardened_rejection_ifma.cc
// and the AVX2 group of samplers/internal/hardened_rejection_avx2.cc) against the portable group
// and the single proposal (samplers/internal/hardened_rejection.h):
//   * the same values and bits on the same streams as the portable group and as single draws
//     (whole and partial groups, j from 5 to 26, a non-dyadic s0);
//   * on proposals made to sit on the acceptance boundary (the residual one below and at
//     floor(alpha w_x / 2^80)) or on the edges of the table draw's interval (u = T_(x-1) and
//     T_x - 1), x, y and the sign random or at their ends: the same accept decisions and values
//     as rejection_proposal, at the sigma2 above and at every j from 4 to 26. A count off by one
//     unit or a scan's `<=` for `<` is caught, which random streams would almost never show.
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

// Appends the `bits` low bits of v (most significant first) at bit `at` of bytes (stream order: bit
// at of the stream is bit 7 - at % 8 of byte at / 8).
void put_bits(std::vector<unsigned char>& bytes, std::size_t& at, uint128 v, unsigned bits) {
  for (unsigned i = bits; i-- > 0; ++at) {
    const auto bit = static_cast<unsigned>(v >> i) & 1;
    bytes[at / 8] = static_cast<unsigned char>(bytes[at / 8] | (bit << (7 - at % 8)));
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

// x or y random, or at its ends (0 and K, 0 and k - 1: alpha's largest and smallest, z = 0).
std::uint64_t edge_or_random(std::mt19937_64& rng, std::uint64_t last) {
  const std::uint64_t r = rng();
  return r % 8 == 0 ? 0 : r % 8 == 1 ? last : (r >> 3) % (last + 1);
}

// `rounds` groups of crafted proposals (boundary_proposal, each lane's mode in turn) through the
// kernel, against rejection_proposal one at a time; the group's first bit at every place of its
// first byte in turn (a stream read from inside a byte).
void expect_same_boundary_decisions(RejectionGroupFn kernel, const HardenedRejectionPlan& plan, int rounds,
                                    std::mt19937_64& rng, const std::string& label) {
  const unsigned p = plan.proposal_bits();
  for (int round = 0; round < rounds; ++round) {
    std::vector<unsigned char> bytes(8 * internal::kRejectionGroupWords, 0);
    std::vector<std::int64_t> expected;
    const auto first = static_cast<unsigned>(round % 8);
    std::size_t at = first;
    for (std::size_t lane = 0; lane < internal::kScanGroup; ++lane) {
      const std::uint64_t x = edge_or_random(rng, plan.half.entries);
      const std::uint64_t y = edge_or_random(rng, (std::uint64_t{1} << plan.j) - 1);
      const Crafted c = boundary_proposal(plan, x, y, (rng() & 1) != 0, static_cast<unsigned>(lane + round) % 4);
      put_bits(bytes, at, c.window >> (128 - p), p);
      std::int64_t value = 0;
      if (internal::rejection_proposal(plan, c.window, &value) != 0) expected.push_back(value + 11);
    }
    std::vector<std::int64_t> got(internal::kScanGroup, 0);
    got.resize(kernel(plan, bytes.data(), first, internal::kScanGroup, 11, got.data()));
    ASSERT_EQ(got, expected) << label << ", round " << round << ", first bit " << first;
  }
}

TEST_P(RejectionGroupKernel, SameDecisionsOnTheAcceptanceBoundary) {
  std::mt19937_64 rng(20261129);
  for (const char* s : kSigma2) {
    const HardenedRejectionPlan plan = internal::make_rejection_plan(parse_rational("sigma2", s));
    expect_same_boundary_decisions(kernel_, plan, 200, rng, std::string("sigma2 = ") + s);
  }
}

// Every j the method covers (sigma2 = s0 4^j, s0 = (4 j + 40) / (j + 1) in [4, 16), mostly not
// dyadic: y's width, the shifts of M and z and the window's cut change with j): the boundary
// decisions, and the values and bits of a stream against the portable group.
TEST_P(RejectionGroupKernel, SameDecisionsAndValuesForEveryJ) {
  std::mt19937_64 rng(20261130);
  for (unsigned j = 4; j <= 26; ++j) {
    const mpq_class s0(4 * j + 40, j + 1);
    const mpq_class sigma2 = s0 * mpq_class(mpz_class(1) << (2 * j));
    HardenedRejectionPlan plan = internal::make_rejection_plan(sigma2);
    ASSERT_EQ(plan.j, j);
    const std::string label = "j = " + std::to_string(j);
    expect_same_boundary_decisions(kernel_, plan, 40, rng, label);
    plan.group = kernel_;
    HardenedRejectionPlan portable = plan;
    portable.group = nullptr;
    SeededBits a(test_support::fixed_seed(79, j)), b(test_support::fixed_seed(79, j));
    std::vector<std::int64_t> expected(77), got(77);
    internal::draw_hardened_rejection_n(a, portable, 5, expected.data(), expected.size());
    internal::draw_hardened_rejection_n(b, plan, 5, got.data(), got.size());
    EXPECT_EQ(got, expected) << label;
    EXPECT_EQ(b.bits_consumed(), a.bits_consumed()) << label;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, RejectionGroupKernel, ::testing::Values("ifma", "avx2"),
                         [](const ::testing::TestParamInfo<const char*>& i) { return std::string(i.param); });

}  // namespace
}  // namespace exactdp
