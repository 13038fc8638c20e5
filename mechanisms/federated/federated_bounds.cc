// federated_bounds.cc — the certified bounds of a federated round (federated_plan.h): the
// rounding's norm bound with its retry probability, and the wrap-around probability of the
// modular sum. Outward-rounded MPFR intervals (core/interval.h) wherever a logarithm, square
// root or exponential enters; the integer bounds are rounded up from their intervals' upper ends.
#include <gmpxx.h>
#include <mpfr.h>

#include <cstdint>

#include <exactdp/core/interval.h>
#include <exactdp/core/rational.h>
#include <exactdp/core/rational_rounding.h>
#include <exactdp/mechanisms/federated/federated_plan.h>

namespace exactdp::mechanisms {
namespace {

constexpr mpfr_prec_t kPrecision = 128;

// P[X >= a] for X the sum of the noise shares: sub-Gaussian (discrete Gaussian, variance proxy
// `variance`) or Sk(variance / 2) (Chernoff at t ~ asinh(a / variance)); a > 0.
Interval upper_tail(bool skellam, const mpz_class& a, const mpq_class& variance) {
  if (!skellam) return exp(Interval(mpq_class(mpz_class(-(a * a))) / variance / 2, kPrecision));
  // Any t > 0 gives a valid bound; t is the exact value of an MPFR number near the optimum.
  const Interval ratio(mpq_class(a) / variance, kPrecision);
  Real t(kPrecision);
  mpfr_asinh(t, ratio.lower(), MPFR_RNDD);
  const mpq_class tq = to_mpq(t);
  const Interval ti(tq, kPrecision);
  const Interval cosh_minus_one = (exp(ti) + exp(-ti)) * mpq_class(1, 2) - mpq_class(1);
  return exp(Interval(mpq_class(-(a * tq)), kPrecision) + cosh_minus_one * variance);
}

}  // namespace

void rounding_norm_bound(const mpq_class& clip, unsigned half_log2, const mpq_class& beta, mpz_class& norm_bound,
                         Interval& retry) {
  const mpq_class root_d = power_of_two(static_cast<long>(half_log2));  // sqrt(D) = 2^h
  const mpq_class mean_bound = clip * clip + root_d * root_d / 4;        // C^2 + D/4
  const mpz_class always = floor_of((clip + root_d) * (clip + root_d));  // ||x~|| < C + sqrt(D)
  const Interval spread = sqrt(-log(Interval(beta, kPrecision)) * mpq_class(2));
  const Interval target = spread * mpq_class(clip + root_d / 2) + mean_bound;
  const mpz_class with_beta = ceil_of(to_mpq(target.upper()));
  if (always <= with_beta) {
    norm_bound = always;
    retry = Interval(0L, kPrecision);
    return;
  }
  norm_bound = with_beta;
  const mpq_class excess = mpq_class(with_beta) - mean_bound;  // > 0
  const mpq_class range = 2 * clip + root_d;
  retry = exp(Interval(mpq_class(-2 * excess * excess / (range * range)), kPrecision));
}

Interval wrap_bound(bool skellam, const mpq_class& noise, std::uint64_t clients, const mpz_class& coordinate_bound,
                    unsigned half_log2, unsigned bits, const mpq_class& tau) {
  const mpz_class n(static_cast<unsigned long>(clients));
  mpz_class half;
  mpz_ui_pow_ui(half.get_mpz_t(), 2, bits - 1);
  const mpz_class a = half - n * coordinate_bound;  // the noise room of the centred window
  if (a <= 0) return Interval(1L, kPrecision);
  // Discrete Gaussian: the sum's variance proxy n sigma2_L; Skellam: Sk(n mu_L), variance 2 n mu_L.
  const mpq_class variance = skellam ? mpq_class(2 * n * noise) : mpq_class(n * noise);
  const mpq_class coordinates = power_of_two(2 * static_cast<long>(half_log2));
  const Interval both_sides = upper_tail(skellam, a, variance) * mpq_class(2 * coordinates);
  const Interval bound = both_sides + Interval(mpq_class(n * coordinates * tau), kPrecision);
  if (!upper_at_most(bound, 1)) return Interval(1L, kPrecision);
  return bound;
}

}  // namespace exactdp::mechanisms
