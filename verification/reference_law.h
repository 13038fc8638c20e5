// reference_law.h — the exact laws our samplers claim, with certified MPFR bounds: probability
// masses P[a <= X <= b] (pmf, cdf and tails as special cases) and exact moments.
//
//   DiscreteGaussianLaw  P[X = x] = exp(-(x - mean)^2 / (2 sigma2)) / Z, sigma2 > 0 rational,
//                        mean integer, Z = sum_k exp(-k^2 / (2 sigma2)).
//   DiscreteLaplaceLaw   P[X = x] = (1 - r) / (1 + r) * r^|x - mean|, r = exp(-1/scale).
//   BernoulliExpLaw      P[X = 1] = exp(-gamma), P[X = 0] = 1 - exp(-gamma), gamma >= 0.
//
// How the bounds are certified (exactdp::Interval arithmetic, rounded outward; every raw MPFR
// call rounds in a stated direction):
//  * Discrete Laplace: closed forms. With t = scale, for 0 <= a <= b (k = X - mean),
//      P[a <= k <= b] = exp(-a/t) (1 - exp(-(b - a + 1)/t)) / (1 + exp(-1/t)),
//      P[k >= a] = exp(-a/t) / (1 + exp(-1/t)),
//    E[k^2] = 2r/(1 - r)^2, E[k^4] = 2r(1 + 11r + 11r^2 + r^3) / ((1 - r)^4 (1 + r)); 1 - r via
//    expm1 (no cancellation for large scales).
//  * Discrete Gaussian, normaliser: for sigma2 < 8 the direct sum 1 + 2 sum_{k>=1} f(k) with a
//    geometric tail bound; for sigma2 >= 8 Poisson summation,
//      Z = sqrt(2 pi s) (1 + 2 sum_{j>=1} exp(-2 pi^2 s j^2)) in sqrt(2 pi s) [1, 1 + 3 exp(-pi^2 s)].
//    Moments for s >= 8 the same way: sum_k k^2 f(k) = sqrt(2 pi s)(s + e2) and
//    sum_k k^4 f(k) = sqrt(2 pi s)(3 s^2 + e4) with |e2|, |e4| <= 3 exp(-pi^2 s) (each Fourier
//    term (s + 4 pi^2 s^2 j^2) or (3s^2 + 24 pi^2 s^3 j^2 + 16 pi^4 s^4 j^4) is at most
//    exp(pi^2 s j^2) when s >= 8, so the sum over j != 0 is at most 2 sum_j exp(-pi^2 s j^2)).
//  * Discrete Gaussian, partial sums S(a, b) = sum_{k=a}^{b} f(k), f(k) = exp(-k^2 / (2 s)):
//    for s <= 10^6, the direct sum with two chains of products, one rounded down and one up
//    (f(k+1) = f(k) r_k, r_{k+1} = r_k exp(-1/s), r_k = exp(-(2k+1)/(2s))), stopped when the
//    rest is below 2^-(p + 44) of the sum (2^-300 at the default p = 256 bits) and bounded by
//    f(k)/(1 - r_k) (the ratios decrease);
//    for s > 10^6 Euler-Maclaurin on pieces where f' is monotone ([0, sqrt s] and [sqrt s, inf)):
//      S(u, v) = int_u^v f + (f(u) + f(v))/2 + E,  |E| <= |f'(v) - f'(u)| / 8
//    (on each [k, k+1], |int (x - k - 1/2) g(x) dx| <= |g(k+1) - g(k)| / 8 for monotone g = f'),
//    and the integral by erfc: int_u^v f = sqrt(pi s / 2) (erfc(u / sqrt(2s)) - erfc(v / sqrt(2s))).
//    The error relative to Z is below 0.06 / s <= 6e-8.
//  * Bernoulli(exp(-gamma)): exp and expm1 of the exact rational -gamma.
//
// Precision. A law computes at the working precision it is built with (kPrecision = 256 bits by
// default; every bound it returns carries that precision); at_precision() rebuilds it at another,
// which is how run_audit (audit.h) raises the precision when a test is undecided. The direct
// sums follow the precision; the Poisson (sigma2 >= 8) and Euler-Maclaurin (sigma2 > 10^6)
// regimes carry a fixed truncation error (below), which more bits do not remove.
//
// Thread-safety: immutable after construction; safe to share. Errors: the constructors throw
// ParameterError for parameters the samplers reject (sigma2 <= 0, scale <= 0, gamma < 0).
#pragma once

#include <gmpxx.h>

#include <memory>
#include <optional>
#include <string>

#include <exactdp/core/interval.h>

namespace exactdp::verification {

using exactdp::Interval;

// The default working precision of the verification layer (bits).
inline constexpr mpfr_prec_t kPrecision = 256;

class ReferenceLaw {
 public:
  virtual ~ReferenceLaw() = default;

  // "discrete-gaussian sigma2=9/4 mean=0" style.
  [[nodiscard]] virtual std::string describe() const = 0;
  // The same law computed at another working precision.
  [[nodiscard]] virtual std::unique_ptr<ReferenceLaw> at_precision(mpfr_prec_t precision) const = 0;
  [[nodiscard]] mpfr_prec_t precision() const noexcept { return precision_; }

  // P[a <= X <= b]; std::nullopt ends are -infinity / +infinity. An empty range gives [0, 0].
  [[nodiscard]] Interval mass(const std::optional<mpz_class>& a, const std::optional<mpz_class>& b) const;
  [[nodiscard]] Interval pmf(const mpz_class& x) const { return mass(x, x); }
  [[nodiscard]] Interval cdf(const mpz_class& x) const { return mass(std::nullopt, x); }
  // P[|X - center()| > threshold], threshold >= 0.
  [[nodiscard]] Interval outside_mass(const mpz_class& threshold) const;

  // The centre c of the law (mean and mode of the symmetric laws, 0 for Bernoulli). Sample
  // statistics are accumulated around it, exactly.
  [[nodiscard]] const mpz_class& center() const noexcept { return center_; }
  // An integer >= 1 near one standard deviation, for binning.
  [[nodiscard]] virtual mpz_class spread() const = 0;
  // E[(X - c)^m] for m in {1, 2, 4}.
  [[nodiscard]] virtual Interval central_moment(int m) const = 0;
  // Var[X].
  [[nodiscard]] Interval variance() const;
  // P[X - c is even]. Discrete Gaussian: sum_k f(2k) / Z = Z(sigma2 / 4) / Z(sigma2) (the even
  // terms form the normaliser of sigma2 / 4); discrete Laplace: (1 + r^2) / (1 + r)^2;
  // Bernoulli: P[X = 0].
  [[nodiscard]] virtual Interval even_mass() const = 0;
  // True when some integers have probability 0 (Bernoulli): seeing one is an immediate failure.
  [[nodiscard]] virtual bool has_bounded_support() const { return false; }

 protected:
  ReferenceLaw(mpz_class center, mpfr_prec_t precision) : center_(std::move(center)), precision_(precision) {}
  // An exact number as a point-or-outward interval at this law's precision.
  [[nodiscard]] Interval exact(const mpq_class& q) const { return Interval(q, precision_); }
  // P[a <= X - c <= b] for the symmetric laws, 0 <= a <= b (b = nullopt: infinite).
  [[nodiscard]] virtual Interval centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const = 0;
  // Laws that are not symmetric about c override mass_general instead.
  [[nodiscard]] virtual bool symmetric() const { return true; }
  [[nodiscard]] virtual Interval mass_general(const std::optional<mpz_class>& a,
                                            const std::optional<mpz_class>& b) const;

 private:
  mpz_class center_;
  mpfr_prec_t precision_;
};

class DiscreteGaussianLaw final : public ReferenceLaw {
 public:
  DiscreteGaussianLaw(const mpq_class& sigma2, const mpz_class& mean, mpfr_prec_t precision = kPrecision);
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::unique_ptr<ReferenceLaw> at_precision(mpfr_prec_t precision) const override;
  [[nodiscard]] mpz_class spread() const override;
  [[nodiscard]] Interval central_moment(int m) const override;
  [[nodiscard]] Interval even_mass() const override;
  [[nodiscard]] const mpq_class& sigma2() const noexcept { return sigma2_; }
  // The normaliser Z = sum_k exp(-k^2 / (2 sigma2)).
  [[nodiscard]] const Interval& normaliser() const noexcept { return z_; }
  // S(a, b) = sum_{k=a}^{b} exp(-k^2 / (2 sigma2)), 0 <= a (unnormalised).
  [[nodiscard]] Interval partial_sum(const mpz_class& a, const std::optional<mpz_class>& b) const;

 private:
  [[nodiscard]] Interval centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const override;
  [[nodiscard]] Interval direct_sum(const mpz_class& a, const std::optional<mpz_class>& b) const;
  [[nodiscard]] Interval euler_maclaurin_piece(const mpz_class& u, const std::optional<mpz_class>& v) const;
  [[nodiscard]] Interval poisson_error() const;  // [0, 3 exp(-pi^2 s)]
  mpq_class sigma2_;
  Interval z_;
};

class DiscreteLaplaceLaw final : public ReferenceLaw {
 public:
  DiscreteLaplaceLaw(const mpq_class& scale, const mpz_class& mean, mpfr_prec_t precision = kPrecision);
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::unique_ptr<ReferenceLaw> at_precision(mpfr_prec_t precision) const override;
  [[nodiscard]] mpz_class spread() const override;
  [[nodiscard]] Interval central_moment(int m) const override;
  [[nodiscard]] Interval even_mass() const override;
  [[nodiscard]] const mpq_class& scale() const noexcept { return scale_; }

 private:
  [[nodiscard]] Interval centered_mass(const mpz_class& a, const std::optional<mpz_class>& b) const override;
  mpq_class scale_;
  Interval r_, one_minus_r_;  // r = exp(-1/scale)
};

class BernoulliExpLaw final : public ReferenceLaw {
 public:
  explicit BernoulliExpLaw(const mpq_class& gamma, mpfr_prec_t precision = kPrecision);
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::unique_ptr<ReferenceLaw> at_precision(mpfr_prec_t precision) const override;
  [[nodiscard]] mpz_class spread() const override { return 1; }
  [[nodiscard]] Interval central_moment(int m) const override;  // E[X^m] = p for m >= 1
  [[nodiscard]] bool has_bounded_support() const override { return true; }
  [[nodiscard]] Interval even_mass() const override { return q_; }
  [[nodiscard]] const Interval& p_one() const noexcept { return p_; }

 private:
  [[nodiscard]] bool symmetric() const override { return false; }
  [[nodiscard]] Interval centered_mass(const mpz_class&, const std::optional<mpz_class>&) const override {
    return Interval(precision());
  }
  [[nodiscard]] Interval mass_general(const std::optional<mpz_class>& a,
                                    const std::optional<mpz_class>& b) const override;
  mpq_class gamma_;
  Interval p_, q_;  // p = exp(-gamma), q = 1 - p
};

}  // namespace exactdp::verification
