// rdp.h — certified Rényi DP (Mironov 2017) of single events, including the Poisson-subsampled
// Gaussian of Mironov, Talwar and Zhang 2019, at integer orders alpha >= 2 and at rational
// (fractional) orders alpha in (1, 256] (see "Fractional orders" below).
//
// Every function returns an Interval (interval.h: lower end rounded down, upper end rounded up)
// that contains the stated quantity. "Exact" below means the interval encloses the true Rényi
// divergence of the event's worst-case (dominating) pair; "bound" means it encloses the value of
// an upper bound on it (so its upper end is a valid RDP bound, its lower end says nothing about
// the true divergence; rdp_is_exact() is false).
//
// Neighbouring relation. Add/remove-one (one record added or removed) is the relation for the
// subsampled events (the default everywhere). For an event that is not subsampled the value is
// the same for replace-one provided the sensitivity is the replace-one sensitivity. The Poisson
// subsampled Gaussian under replace-one is NOT covered (rdp_of refuses it, ParameterError):
// there the pair is a mixture against a mixture and MTZ19's bound does not apply.
//
// Values at order alpha (integer >= 2), mu = Delta / sigma:
//   gaussian, gdp(mu)      alpha mu^2 / 2                                   exact (Mironov Prop. 7)
//   discrete gaussian      alpha Delta^2 / (2 sigma2)                       exact: at integer alpha
//                          and integer Delta the shifted theta sum equals the normaliser, so the
//                          divergence equals the Gaussian's (CKS20 Prop. 5's computation)
//   laplace (b, Delta)     1/(alpha-1) log( alpha/(2alpha-1) e^{(alpha-1) eps}
//                                          + (alpha-1)/(2alpha-1) e^{-alpha eps} ), eps = Delta/b
//                                                                          exact (Mironov Prop. 6)
//   pure eps-DP, discrete laplace   min(eps, alpha eps^2/2)              bound (BS16 Prop. 3.3;
//                                                                          D_alpha <= D_inf)
//   zcdp(rho)              alpha rho                                       bound (definition)
//   poisson gaussian(q)    1/(alpha-1) log A_alpha,
//                          A_alpha = sum_{k=0}^{alpha} C(alpha,k) (1-q)^{alpha-k} q^k
//                                    e^{(k^2-k) mu^2 / 2}
//                          exact: A_alpha is E_{N(0,s^2)}[(mix/N(0,s^2))^alpha] for the mixture
//                          mix = (1-q) N(0,s^2) + q N(Delta,s^2), so the value is
//                          D_alpha(mix || N(0,s^2)); MTZ19 Thm. 4 (reduction to this pair) and
//                          Thm. 5 (D_alpha(N(0,s^2) || mix) is not larger) make it the RDP of
//                          the sampled Gaussian mechanism under add/remove-one, attained by a
//                          query of L2 sensitivity Delta. q = 1 gives the Gaussian's value.
//   poisson discrete gaussian / discrete laplace (q)   the larger of both orders' divergences,
//                          rdp_subsampled_discrete.h (exact; limits there)
//   poisson laplace (q)    the larger of both orders' divergences, rdp_subsampled_laplace.h
//                          (exact; orders <= 256, Delta/b <= 1000, else ParameterError naming
//                          "order" / "route")
//
// Fractional orders (alpha rational, not an integer; RdpEvent::rdp(const mpq_class&)):
//   gaussian, gdp, zcdp, pure eps-DP, discrete laplace, laplace: the formulas above at real alpha
//                          (Mironov Props. 6-7 and the zCDP bounds hold for every alpha > 1)
//   discrete gaussian      alpha Delta^2 / (2 sigma2)                       bound (CKS20: the
//                          discrete Gaussian is Delta^2/(2 sigma2)-zCDP; equality needs integer alpha)
//   poisson gaussian(q)    the larger of both orders' divergences of the same pair by the
//                          geometric three-region series of rdp_fractional.h   exact (encloses the
//                          pair's RDP), for Delta/sigma <= 16
//   poisson laplace        as at integer orders (the same series)                 exact
//   poisson discrete gaussian / laplace: the larger of both orders' divergences by direct sums
//                          (rdp_subsampled_discrete.h; the same limits)              exact
//   supports_order() says which orders an event takes.
//
// Rounding: terms are built with outward-rounded interval products (all terms positive, no
// cancellation); the exact rationals (binomial ratios, alpha, q) enter exactly or rounded
// outward once. A_alpha is summed by the ratio recurrence
//   t_{k+1} = t_k * (alpha-k)/(k+1) * q/(1-q) * e^{k mu^2}
// so the cost is O(alpha) multiplications and three exponentials per order.
//
// Limits: alpha in [2, kMaxRdpOrder]; the event's own validation (laws/events.h factories,
// poisson_gaussian below). Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>

#include <exactdp/accounting/accountant.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

inline constexpr unsigned long kMaxRdpOrder = 1UL << 16;

enum class Neighbouring { kAddRemove, kReplaceOne };
// "add/remove-one" or "replace-one".
[[nodiscard]] const char* neighbouring_name(Neighbouring relation);

// An event for RDP accounting: a plain PrivacyEvent, or a Poisson-subsampled one.
class RdpEvent {
 public:
  [[nodiscard]] static RdpEvent plain(const PrivacyEvent& event);
  // N(0, sigma^2) noise on a sum of L2 sensitivity Delta over a Poisson sample with rate q (the
  // closed form: no PrivacyEvent needed). ParameterError unless 10^-3 <= sigma/Delta <= 10^6
  // (naming sigma), 0 < q <= 1 (naming q), Delta > 0 (naming sensitivity).
  [[nodiscard]] static RdpEvent poisson_gaussian(const mpq_class& sigma, const mpq_class& q,
                                                 const mpq_class& sensitivity = 1);
  // The noise of `base` (an event whose maps are a noise law, LawPrivacy::is_noise_law();
  // ParameterError naming "event" for a bare guarantee: pure-DP, zCDP, GDP) on a Poisson sample
  // with rate q (0 < q <= 1, naming q). A base with gaussian_noise() is poisson_gaussian().
  // Laplace and the discrete Gaussian / Laplace have the closed-form bounds below within their
  // limits (beyond them, the pld route only: rdp() throws ParameterError naming "route").
  // Another law: rdp() is the law's own LawPrivacy::subsampled_rdp() bound where it has one
  // (e.g. vector-discrete-gaussian, docs/REAL_VALUED_ACCOUNTING.md), else the pld route only.
  [[nodiscard]] static RdpEvent poisson_subsampled(const PrivacyEvent& base, const mpq_class& q);

  [[nodiscard]] bool is_subsampled() const { return subsampled_; }
  // The plain event (for is_subsampled() == false); std::logic_error otherwise.
  [[nodiscard]] const PrivacyEvent& plain_event() const;
  // "poisson-gaussian(sigma=1, q=1/100, sensitivity=1)" or the plain event's description.
  [[nodiscard]] std::string describe() const;
  // The Gaussian of a Poisson-subsampled Gaussian, nullptr for every other event.
  [[nodiscard]] const GaussianNoise* subsampled_gaussian() const { return gaussian_ ? &*gaussian_ : nullptr; }
  // mu = Delta / sigma (subsampled Gaussian only) and the rate q of a subsampled event, and the
  // base event of a subsampled event that is not a subsampled Gaussian (std::logic_error otherwise).
  [[nodiscard]] const mpq_class& subsampled_mu() const;
  [[nodiscard]] const mpq_class& subsampled_q() const;
  [[nodiscard]] const PrivacyEvent& subsampled_base() const;
  // The event's maps when it has a PrivacyEvent (plain, or a subsampled event's base), else
  // nullptr (a subsampled Gaussian).
  [[nodiscard]] const LawPrivacy* base_maps() const { return event_ ? &event_->maps() : nullptr; }
  // Whether rdp() applies: every event except a subsampled non-Gaussian one beyond the limits
  // above, and a subsampled registry law without its own bound (LawPrivacy::subsampled_rdp).
  [[nodiscard]] bool has_rdp() const;
  // Whether rdp() encloses the exact divergence of the worst-case pair (not just a bound).
  [[nodiscard]] bool rdp_is_exact() const;

  // The event's RDP at integer order alpha (2 <= alpha <= kMaxRdpOrder, else ParameterError
  // naming "order") under `relation`, as an outward-rounded interval at `precision` bits.
  [[nodiscard]] Interval rdp(unsigned long alpha, Neighbouring relation,
                             mpfr_prec_t precision) const;
  // The same at a rational order: an integer one as above, a fractional one in (1, 256] where
  // supports_order() (ParameterError naming "order" otherwise).
  [[nodiscard]] Interval rdp(const mpq_class& alpha, Neighbouring relation, mpfr_prec_t precision) const;
  // Whether rdp(alpha) is available: every integer order in [2, kMaxRdpOrder] where has_rdp();
  // fractional orders in (1, 256] except for subsampled discrete noise and for a subsampled
  // Gaussian with Delta/sigma > 16.
  [[nodiscard]] bool supports_order(const mpq_class& alpha) const;
  // rdp_is_exact() at this order (a plain discrete Gaussian is a bound at fractional orders).
  [[nodiscard]] bool rdp_is_exact_at(const mpq_class& alpha) const;

 private:
  [[nodiscard]] bool subsampled_laplace() const;
  [[nodiscard]] bool own_subsampled_bound() const;
  [[nodiscard]] Interval subsampled_laplace_rdp_checked(const mpq_class& alpha, mpfr_prec_t precision) const;
  [[nodiscard]] Interval law_subsampled_rdp(const mpq_class& alpha, mpfr_prec_t precision) const;
  [[nodiscard]] Interval plain_rdp(const mpq_class& alpha, mpfr_prec_t precision) const;
  RdpEvent(std::optional<PrivacyEvent> event, bool subsampled, mpq_class mu, mpq_class q, std::string text)
      : event_(std::move(event)), subsampled_(subsampled), mu_(std::move(mu)), q_(std::move(q)),
        text_(std::move(text)) {}
  std::optional<PrivacyEvent> event_;     // absent for a subsampled Gaussian (gaussian_)
  std::optional<GaussianNoise> gaussian_;  // a subsampled Gaussian's sigma and sensitivity
  bool subsampled_;
  mpq_class mu_;  // Delta / sigma (subsampled Gaussian)
  mpq_class q_;   // sampling rate (subsampled event)
  std::string text_;
};

// The building blocks, exposed for tests. Each returns an interval at `precision` enclosing:
//   alpha mu^2/2                                                      (Gaussian, exact)
[[nodiscard]] Interval gaussian_rdp(const mpq_class& mu, unsigned long alpha,
                                    mpfr_prec_t precision);
//   Mironov Prop. 6 with eps = Delta/b                                 (Laplace, exact)
[[nodiscard]] Interval laplace_rdp(const mpq_class& eps, unsigned long alpha,
                                   mpfr_prec_t precision);
//   the same at a rational order a > 1 (eps >= 0, naming epsilon)
[[nodiscard]] Interval laplace_rdp_at(const mpq_class& eps, const mpq_class& alpha, mpfr_prec_t precision);
//   min(alpha eps^2/2, eps) at an order a > 1, the bound's value       (pure eps-DP, BS16 Prop. 3.3)
[[nodiscard]] Interval pure_dp_rdp_bound(const mpq_class& eps, const mpq_class& alpha, mpfr_prec_t precision);
//   1/(alpha-1) log A_alpha                                            (sampled Gaussian, exact)
[[nodiscard]] Interval poisson_gaussian_rdp(const mpq_class& mu, const mpq_class& q,
                                            unsigned long alpha, mpfr_prec_t precision);
//   the same with c = mu^2 given (0 < q < 1): 1/(alpha-1) log sum_k C(alpha,k) (1-q)^(alpha-k) q^k
//   e^((k^2-k) c/2), i.e. D_alpha((1-q) Q0 + q Q1 || Q0) whenever E_Q0[(dQ1/dQ0)^k] =
//   e^((k^2-k) c/2) at every integer k — the Gaussian, and the discrete Gaussian at integer
//   sensitivity with c = Delta^2 / sigma2 (the shifted theta sum equals the normaliser)
[[nodiscard]] Interval poisson_binomial_rdp(const mpq_class& c, const mpq_class& q, unsigned long alpha,
                                            mpfr_prec_t precision);

}  // namespace exactdp::accounting
