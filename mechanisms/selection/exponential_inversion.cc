#include <exactdp/mechanisms/selection/exponential_inversion.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <exactdp/core/interval.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::mechanisms {
namespace {

constexpr unsigned long kInitialPrecision = 128;
constexpr unsigned long kChunkBits = 64;

}  // namespace

std::optional<ExponentialInversionTable> ExponentialInversionTable::make(std::vector<mpq_class> gammas) {
  if (gammas.size() < 2) return std::nullopt;
  for (const auto& g : gammas) {
    if (sgn(g) < 0) throw ParameterError::out_of_range("gamma", to_string(g), "gamma >= 0 (exponential inversion table)");
    if (g > kMaxInversionGamma) return std::nullopt;
  }
  ExponentialInversionTable t;
  t.gammas_ = std::move(gammas);
  t.build(kInitialPrecision);
  return t;
}

void ExponentialInversionTable::build(unsigned long precision) {
  using exactdp::Interval;
  const auto work = static_cast<mpfr_prec_t>(precision + 64);
  const std::size_t n = gammas_.size();
  // Cumulative sums C_i with outward rounding (all terms positive: lower ends only ever get
  // smaller, upper ends larger), then F_i = C_i / W.
  std::vector<Interval> cumulative;
  cumulative.reserve(n);
  Interval sum(work);
  for (const auto& g : gammas_) {
    sum = sum + exactdp::exp(Interval(mpq_class(-g), work));
    cumulative.push_back(sum);
  }
  const Interval& total = cumulative.back();
  low_.assign(n - 1, mpz_class(0));
  high_.assign(n - 1, mpz_class(0));
  exactdp::Real scaled(work);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const Interval f = cumulative[i] / total;  // [lower C / upper W (RNDD), upper C / lower W (RNDU)]
    mpfr_mul_2ui(scaled.get(), f.lower(), precision, MPFR_RNDD);  // exact (power of two)
    mpfr_get_z(low_[i].get_mpz_t(), scaled.get(), MPFR_RNDD);
    mpfr_mul_2ui(scaled.get(), f.upper(), precision, MPFR_RNDU);
    mpfr_get_z(high_[i].get_mpz_t(), scaled.get(), MPFR_RNDU);
    // Keep the bounds monotone (they are, by monotone rounding; this costs nothing and makes the
    // binary search's precondition independent of MPFR's internals) and within [0, 2^p].
    if (i > 0) {
      if (low_[i] < low_[i - 1]) low_[i] = low_[i - 1];
      if (high_[i] < high_[i - 1]) high_[i] = high_[i - 1];
    }
  }
  precision_ = precision;
}

std::size_t ExponentialInversionTable::sample(BitSource& bits) {
  const std::size_t last = gammas_.size() - 1;
  z_ = 0;
  unsigned long b = 0;
  for (;;) {
    if (b + kChunkBits > precision_) build(precision_ * 2);
    static_assert(sizeof(unsigned long) * 8 >= kChunkBits, "mpz_add_ui takes 64 bits");
    mpz_mul_2exp(z_.get_mpz_t(), z_.get_mpz_t(), kChunkBits);
    mpz_add_ui(z_.get_mpz_t(), z_.get_mpz_t(), static_cast<unsigned long>(bits.bits(kChunkBits)));
    b += kChunkBits;
    // U in [lo, hi) / 2^p.
    lo_ = z_ << (precision_ - b);
    hi_ = (z_ + 1) << (precision_ - b);
    // First j with H_j > lo: every earlier F_j <= H_j / 2^p <= lo / 2^p <= U.
    const auto it = std::upper_bound(high_.begin(), high_.end(), lo_);
    const auto i = static_cast<std::size_t>(it - high_.begin());
    if (i == last) return last;
    if (low_[i] >= hi_) return i;  // U < hi / 2^p <= L_i / 2^p <= F_i
  }
}

}  // namespace exactdp::mechanisms
