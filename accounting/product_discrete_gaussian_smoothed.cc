#include <exactdp/accounting/product_discrete_gaussian_smoothed.h>

#include <functional>
#include <map>
#include <stdexcept>
#include <utility>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/grid_noise.h>
#include <exactdp/core/errors.h>

namespace exactdp::accounting {
namespace {

void validate(const std::vector<SmoothedGaussianBlock>& blocks) {
  if (blocks.empty()) throw ParameterError("sigma2", "sigma2: a product of no discrete Gaussians");
  for (const auto& b : blocks) {
    if (sgn(b.sigma2) <= 0) throw ParameterError("sigma2", "sigma2 must be > 0");
    if (b.shift < 1) throw ParameterError("sigma2", "sigma2: a coordinate's shift must be >= 1");
    if (b.copies < 1) throw ParameterError("sigma2", "sigma2: a block of no coordinates");
  }
}

using LogRatio = std::function<Interval(const mpq_class& t2, const mpz_class& copies, mpfr_prec_t precision)>;

// A block's share of mu^2: copies shift^2 / (sigma2 - t2).
mpq_class mu2_term(const SmoothedGaussianBlock& b) { return mpq_class(b.copies * b.shift * b.shift) / (b.sigma2 - b.t2); }

// Checks each t2 first: sigma2 - t2 must not be 0.
mpq_class mu2_of(const std::vector<SmoothedGaussianBlock>& blocks) {
  mpq_class mu2 = 0;
  for (const auto& b : blocks) {
    if (b.t2 < mpq_class(1, 16) || b.t2 >= b.sigma2) {
      throw std::logic_error("smoothed_product_delta_at: t2 outside [1/16, sigma2)");
    }
    mu2 += mu2_term(b);
  }
  return mu2;
}

// The bound of validated blocks with mu^2 given: the exact sum of their mu2_term (an exact
// rational, so the same whatever order it was summed in).
Interval delta_with(const std::vector<SmoothedGaussianBlock>& blocks, const mpq_class& mu2, const mpq_class& epsilon,
                    mpfr_prec_t precision, const LogRatio& log_ratio) {
  Interval log_r(0L, precision);
  for (const auto& b : blocks) log_r = log_r + log_ratio(b.t2, b.copies, precision);
  Interval shifted = Interval(epsilon, precision) - mul_2si(log_r, 1);
  if (!shifted.is_nonnegative()) return Interval(1L, precision);
  shifted = max(shifted, Interval(0L, precision));
  const Interval mu = sqrt(Interval(mu2, precision));
  return at_most_one(exp(log_r) * gdp_delta_at(shifted, mu, precision));
}

}  // namespace

Interval smoothed_product_delta_at(const std::vector<SmoothedGaussianBlock>& blocks, const mpq_class& epsilon,
                                   mpfr_prec_t precision) {
  validate(blocks);
  return delta_with(blocks, mu2_of(blocks), epsilon, precision, lattice_log_ratio);
}

std::vector<mpq_class> smoothing_widths(const mpq_class& sigma2) {
  static const mpq_class kWidths[] = {mpq_class(1, 2), mpq_class(5, 8), mpq_class(3, 4), mpq_class(7, 8), mpq_class(1),
                                      mpq_class(5, 4), mpq_class(3, 2), mpq_class(2),    mpq_class(4)};
  std::vector<mpq_class> out;
  for (const auto& t2 : kWidths) {
    if (t2 * 4 <= sigma2) out.push_back(t2);
  }
  return out;
}

bool choose_smoothing(std::vector<SmoothedGaussianBlock>& blocks, const mpq_class& epsilon) {
  std::vector<SmoothedGaussianBlock> trial = blocks;
  for (auto& b : trial) {
    const std::vector<mpq_class> widths = smoothing_widths(b.sigma2);
    if (widths.empty()) return false;
    b.t2 = widths.back();  // the widest: eta below 10^-34, a start that never fails on ln R
  }
  constexpr mpfr_prec_t kChoicePrecision = 64;  // the choice only: the bound is certified later
  // The choice evaluates the whole product 18 times per block, so each block's ln R once per
  // width, not per evaluation (1,000 released columns: 18 million lattice sums, 30 s, before).
  std::map<std::pair<mpq_class, mpz_class>, Interval> log_ratios;
  const LogRatio memoised = [&log_ratios](const mpq_class& t2, const mpz_class& copies, mpfr_prec_t precision) {
    auto [it, fresh] = log_ratios.try_emplace({t2, copies}, precision);
    if (fresh) it->second = lattice_log_ratio(t2, copies, precision);
    return it->second;
  };
  // mu^2 likewise: kept as the exact sum, one block's term swapped per trial (every width tried
  // is below sigma2 / 4).
  validate(trial);
  mpq_class mu2 = mu2_of(trial);
  Interval best = delta_with(trial, mu2, epsilon, kChoicePrecision, memoised);
  for (int pass = 0; pass < 2; ++pass) {
    for (auto& b : trial) {
      const mpq_class kept = b.t2;
      const mpq_class others = mu2 - mu2_term(b);
      mpq_class chosen = kept;
      for (const auto& t2 : smoothing_widths(b.sigma2)) {
        if (t2 == kept) continue;
        b.t2 = t2;
        const Interval d = delta_with(trial, others + mu2_term(b), epsilon, kChoicePrecision, memoised);
        if (mpfr_cmp(d.upper(), best.upper()) < 0) {
          best = d;
          chosen = t2;
        }
      }
      b.t2 = chosen;
      mu2 = others + mu2_term(b);
    }
  }
  blocks = trial;
  return true;
}

}  // namespace exactdp::accounting
