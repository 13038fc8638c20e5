// estimator_fuzzer — the C++ estimators of mechanisms/estimation/ (private_max, peeling,
// sparse_mean, dp_lasso, noisy_ols) on arbitrary float64 arrays: NaN (any payload), +-inf, -0.0,
// subnormals, the largest values, with random small shapes and parameters.
//
// Input: byte 0 the estimator (b % 5); bytes 1-2 the shape, rows 1 + b % 6 and columns 1 + b % 6
// (a byte of 255 gives a shape whose value count does not match); byte 3 s = 1 + b % 4 (may exceed
// d: refused); byte 4 the budget (epsilon = (1 + b % 8) / 4, delta given when bit 4 is set, the
// route b / 32 % 4: default, basic, advanced, kov); byte 5 the bounds 2^(b % 32 - 16) (radius,
// sensitivity, c, R, C); then the values: a selector byte each (< 64: one of 16 special values;
// else 8 bytes of bit pattern). Invariants:
//   * never a crash or hang; the only exception is ParameterError, whose message names its
//     parameter;
//   * an array holding NaN or +-inf is refused;
//   * on success: the certified epsilon is <= the target, the estimate has d (p) entries, the
//     support has distinct coordinates < d, at most s of them, and sparse_mean / dp_lasso / peeling
//     estimates are 0 off it;
//   * sparse_mean's grid map of every finite value equals the command line's exact decimal map
//     (operations/estimate_input.h) of its exact decimal expansion.
#include <mpfr.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <exactdp/operations/estimate_input.h>
#include "fuzz/fuzz_support.h"
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/dp_lasso.h>
#include <exactdp/mechanisms/estimation/noisy_ols.h>
#include <exactdp/mechanisms/estimation/peeling.h>
#include <exactdp/mechanisms/estimation/private_max.h>
#include <exactdp/mechanisms/estimation/sparse_mean.h>
#include <exactdp/mechanisms/grid_noise/float_grid.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

namespace mech = exactdp::mechanisms;
using exactdp::fuzz::ByteReader;

struct Setup {
  unsigned estimator = 0;
  std::size_t rows = 1, cols = 1, values = 1;
  mech::PeelingBudget budget;
  mpq_class bound = 1;
};

Setup read_setup(ByteReader& in) {
  Setup s;
  s.estimator = in.u8() % 5;
  const std::uint8_t r = in.u8(), c = in.u8();
  s.rows = 1 + r % 6;
  s.cols = 1 + c % 6;
  s.values = s.rows * s.cols + (r == 255 ? 1 : 0);
  s.budget.sparsity = 1 + in.u8() % 4;
  const std::uint8_t b = in.u8();
  s.budget.epsilon = mpq_class(1 + b % 8, 4);
  if ((b & 16) != 0) s.budget.delta = mpq_class(1, 1000000);
  static constexpr mech::CompositionRoute kRoutes[] = {mech::CompositionRoute::kBasic,
                                                       mech::CompositionRoute::kAdvanced,
                                                       mech::CompositionRoute::kOptimal};
  if ((b / 32) % 4 != 0) s.budget.route = kRoutes[(b / 32) % 4 - 1];
  s.bound = exactdp::power_of_two(static_cast<long>(in.u8() % 32) - 16);
  return s;
}

double special_value(unsigned i) {
  constexpr double kMax = std::numeric_limits<double>::max();
  constexpr double kMin = std::numeric_limits<double>::denorm_min();
  constexpr double kNormal = std::numeric_limits<double>::min();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double table[16] = {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5,
                            kMax, -kMax, kMin, -kNormal, kInf, -kInf,
                            std::numeric_limits<double>::quiet_NaN(), 1e300};
  return table[i % 16];
}

std::vector<double> read_values(ByteReader& in, std::size_t count) {
  std::vector<double> x(count);
  for (double& v : x) {
    const std::uint8_t selector = in.u8();
    if (selector < 64) {
      v = special_value(selector);
      continue;
    }
    const std::uint64_t bits = in.u64();
    std::memcpy(&v, &bits, sizeof v);
  }
  return x;
}

bool all_finite(const std::vector<double>& x) {
  for (const double v : x) {
    if (!mech::is_finite_bits(v)) return false;
  }
  return true;
}

void check_guarantee(const mech::EstimationGuarantee& g) {
  FUZZ_CHECK(mpfr_cmp_q(g.certified_epsilon.upper(), g.epsilon.get_mpq_t()) <= 0, "certified epsilon over the target");
}

void check_sparse(const mech::EstimateResult& r, std::size_t d, std::size_t s, bool zero_off_support) {
  FUZZ_CHECK(r.estimate.size() == d, "estimate of size %zu, d = %zu", r.estimate.size(), d);
  const std::set<std::size_t> support(r.support.begin(), r.support.end());
  FUZZ_CHECK(support.size() == r.support.size() && r.support.size() <= s, "support not <= s distinct coordinates");
  FUZZ_CHECK(support.empty() || *support.rbegin() < d, "support coordinate out of range");
  for (std::size_t j = 0; zero_off_support && j < d; ++j) {
    FUZZ_CHECK(support.count(j) == 1 || r.estimate[j] == 0, "nonzero off the support");
  }
  check_guarantee(r.guarantee);
}

// The command line's decimal map agrees with the library's map of doubles.
void check_decimal_map(const std::vector<double>& x, const mech::SparseMeanOptions& o) {
  const mech::SparseMeanGrid grid = mech::sparse_mean_grid(o);
  const exactdp::operations::DecimalGridMap map(grid.exponent, grid.bound, o.radius);
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::int64_t got = 0;
    const std::string text = exactdp::exact_decimal(exactdp::rational_from_double("x", x[i]));
    FUZZ_CHECK(map.map(text, got), "the map refused %s", text.c_str());
    FUZZ_CHECK(got == mech::truncated_grid_value(x[i], grid.exponent, grid.bound, "x", i), "maps differ at x[%zu]", i);
  }
}

void run(const Setup& s, const std::vector<double>& x, exactdp::BitSource& bits) {
  const mech::MatrixView m{x, s.rows, s.cols};
  const std::vector<double> y(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(std::min(s.rows, x.size())));
  switch (s.estimator) {
    case 0: {
      mech::PrivateMaxOptions o;
      o.epsilon = s.budget.epsilon;
      o.sensitivity = s.bound;
      const auto r = mech::private_max(x, o, bits);
      FUZZ_CHECK(r.index < x.size(), "index out of range");
      check_guarantee(r.guarantee);
      break;
    }
    case 1: {
      mech::PeelingOptions o;
      static_cast<mech::PeelingBudget&>(o) = s.budget;
      o.sensitivity = s.bound;
      const auto r = mech::peeling(x, o, bits);
      FUZZ_CHECK(r.indices.size() == o.sparsity && r.values.size() == o.sparsity, "peeling of the wrong size");
      check_guarantee(r.guarantee);
      break;
    }
    case 2: {
      mech::SparseMeanOptions o;
      static_cast<mech::PeelingBudget&>(o) = s.budget;
      o.radius = s.bound;
      const auto r = mech::sparse_mean(m, o, bits);
      check_sparse(r, s.cols, o.sparsity, true);
      check_decimal_map(x, o);
      break;
    }
    case 3: {
      mech::DpLassoOptions o;
      static_cast<mech::PeelingBudget&>(o) = s.budget;
      o.coordinate_bound = s.bound;
      o.response_bound = s.bound * 2;
      o.coefficient_bound = s.bound;
      check_sparse(mech::dp_lasso(m, y, o, bits), s.cols, o.sparsity, true);
      break;
    }
    default: {
      mech::NoisyOlsOptions o;
      o.epsilon = s.budget.epsilon;
      o.coordinate_bound = s.bound;
      o.response_bound = s.bound;
      o.eigen_bound = 1000;
      check_sparse(mech::noisy_ols(m, y, o, bits), s.cols, s.cols, false);
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  exactdp::fuzz::init_sodium_once();
  ByteReader in(data, size);
  const Setup s = read_setup(in);
  const std::vector<double> x = read_values(in, s.values);
  exactdp::Seed seed{};
  seed[0] = 7;
  exactdp::SeededBits bits(seed);
  try {
    run(s, x, bits);
  } catch (const exactdp::ParameterError& e) {
    const std::string what = e.what();
    FUZZ_CHECK(!e.parameter().empty() && what.find(e.parameter()) != std::string::npos,
               "a ParameterError whose message does not name its parameter '%s': %s", e.parameter().c_str(), e.what());
    return 0;
  }
  FUZZ_CHECK(all_finite(x), "an array with NaN or inf was accepted (estimator %u)", s.estimator);
  return 0;
}
