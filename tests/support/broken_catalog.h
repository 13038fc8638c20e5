// broken_catalog.h — the catalogue of deliberately broken samplers the power tests and the power
// table (docs/AUDIT.md) use, each paired with the law it claims to follow. Tests only.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <exactdp/samplers/discrete_gaussian.h>
#include "tests/support/broken_samplers.h"
#include <exactdp/verification/reference_law.h>

namespace exactdp::test_support {

struct BrokenCase {
  std::string name;
  std::shared_ptr<verification::ReferenceLaw> claimed;           // the law it claims
  std::function<std::int64_t(BitSource&)> draw;                   // the broken sampler
};

inline std::vector<BrokenCase> broken_catalog() {
  using Bug = BrokenCks20::Bug;
  auto dg = [](const char* s2) { return std::make_shared<verification::DiscreteGaussianLaw>(mpq_class(s2), 0); };
  auto dl = [](const char* sc) { return std::make_shared<verification::DiscreteLaplaceLaw>(mpq_class(sc), 0); };
  std::vector<BrokenCase> out;
  out.push_back({"rounded continuous Gaussian, sigma2 = 1", dg("1"),
                 [](BitSource& b) { return rounded_gaussian(b, 1.0); }});
  out.push_back({"sigma2 off by 5% (105 for 100)", dg("100"), [](BitSource& b) {
                   static const DiscreteGaussianParams p = DiscreteGaussianParams::make(mpq_class(105));
                   return *sample_discrete_gaussian_int64(b, p);
                 }});
  out.push_back({"modulo-biased uniform in Alg. 2, sigma2 = 100", dg("100"),
                 [](BitSource& b) { return BrokenCks20(Bug::kModuloUniform).discrete_gaussian(b, 100, 1); }});
  out.push_back({"Alg. 1 parity flipped for K >= 3, sigma2 = 100", dg("100"),
                 [](BitSource& b) { return BrokenCks20(Bug::kParityFlipK3).discrete_gaussian(b, 100, 1); }});
  out.push_back({"Alg. 1 parity flipped for K >= 3, sigma2 = 9/4", dg("9/4"),
                 [](BitSource& b) { return BrokenCks20(Bug::kParityFlipK3).discrete_gaussian(b, 9, 4); }});
  out.push_back({"discrete Laplace without (B = 1, Y = 0) rejection, scale 3/2", dl("3/2"),
                 [](BitSource& b) { return BrokenCks20(Bug::kNoZeroRejection).discrete_laplace(b, 3, 2); }});
  out.push_back({"proposal Lap(t + 1) with acceptance for t (wrong t), sigma2 = 100", dg("100"),
                 [](BitSource& b) { return BrokenCks20(Bug::kMismatchedT).discrete_gaussian(b, 100, 1); }});
  out.push_back({"rounded continuous Laplace, scale 1", dl("1"),
                 [](BitSource& b) { return rounded_laplace(b, 1.0); }});
  out.push_back({"double-precision exp in Alg. 3 acceptance, sigma2 = 100", dg("100"),
                 [](BitSource& b) { return BrokenCks20(Bug::kDoubleExp).discrete_gaussian(b, 100, 1); }});
  return out;
}

}  // namespace exactdp::test_support
