// power_table_test.cc — DISABLED by default: measures, for each broken sampler of
// tests/support/broken_catalog.h, the smallest N (on a grid of factors sqrt(2)) at which the audit
// (alpha = 1e-6) flags it, for 5 seeds. The numbers go in docs/AUDIT.md. Run with
//   exactdp_tests_verification --gtest_also_run_disabled_tests --gtest_filter='*PowerTable*'
#include <gtest/gtest.h>

#include <iostream>

#include "tests/support/audit_helpers.h"
#include "tests/support/broken_catalog.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
using namespace test_support;

TEST(PowerTable, DISABLED_SmallestFlaggedN) {
  const unsigned long long kMax = 20'000'000ULL;
  for (const auto& c : broken_catalog()) {
    std::cout << c.name << ":";
    for (std::uint32_t seed = 0; seed < 5; ++seed) {
      unsigned long long found = 0;
      for (unsigned long long n = 50; n <= kMax; n = n * 1414 / 1000 + 1) {
        const auto r = audit_sampler(*c.claimed, c.draw, n, fixed_seed(77, seed));
        if (!r.passed) {
          found = n;
          break;
        }
      }
      std::cout << " " << (found ? std::to_string(found) : std::string(">") + std::to_string(kMax)) << std::flush;
    }
    std::cout << "\n";
  }
}

}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {
using namespace test_support;

// Smallest flagged N (3 seeds) against deviation size: sigma2 scaled by (1 + x) at sigma2 = 100,
// and contamination: with probability e the output is replaced by 0 (sigma2 = 100).
TEST(PowerTable, DISABLED_DeviationSize) {
  const verification::DiscreteGaussianLaw law(mpq_class(100), 0);
  auto smallest = [&](auto draw) {
    std::string out;
    for (std::uint32_t seed = 0; seed < 3; ++seed) {
      unsigned long long found = 0;
      for (unsigned long long n = 50; n <= 50'000'000ULL; n = n * 1414 / 1000 + 1) {
        if (!audit_sampler(law, draw, n, fixed_seed(78, seed)).passed) {
          found = n;
          break;
        }
      }
      out += " " + (found ? std::to_string(found) : std::string(">5e7"));
    }
    return out;
  };
  for (const char* x : {"1/5", "1/10", "1/20", "1/50", "1/100"}) {
    const auto p = DiscreteGaussianParams::make(mpq_class(100) * (1 + mpq_class(x)));
    std::cout << "sigma2 x (1 + " << x << "):" << smallest([&](BitSource& b) { return *sample_discrete_gaussian_int64(b, p); })
              << "\n" << std::flush;
  }
  const auto p = DiscreteGaussianParams::make(mpq_class(100));
  for (const unsigned e : {10u, 30u, 100u, 300u, 1000u}) {
    std::cout << "zero with probability 1/" << e << ":" << smallest([&](BitSource& b) -> std::int64_t {
      if (sample_uniform_below(b, std::uint64_t{e}) == 0) return 0;
      return *sample_discrete_gaussian_int64(b, p);
    }) << "\n" << std::flush;
  }
}

}  // namespace
}  // namespace exactdp
