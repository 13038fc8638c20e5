#include <gtest/gtest.h>

#include "samplers/discrete_gaussian.h"
#include "tests/support/audit_helpers.h"
#include "tests/support/broken_samplers.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
using namespace test_support;
TEST(AuditSmoke, Prints) {
  for (const char* s2 : {"1/4", "1", "9/4", "100"}) {
    const auto params = DiscreteGaussianParams::make(mpq_class(s2));
    verification::DiscreteGaussianLaw law(mpq_class(s2), 0);
    auto r = audit_sampler(law, [&](BitSource& b) { return *sample_discrete_gaussian_int64(b, params); }, 100000,
                           fixed_seed(1, 1));
    std::cout << summary(r);
  }
}
}  // namespace
}  // namespace exactdp
