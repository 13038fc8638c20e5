// law_privacy.h — accounting::LawPrivacy: the privacy maps of a law, the one thing a
// PrivacyEvent (accountant.h) holds. Every event is a law's maps: the built-in events (laws/events.h:
// gaussian, discrete Gaussian, Laplace, discrete Laplace, pure-DP, zCDP, GDP) and every registry law
// with an event implement this interface in their laws/<law>/ folder, and the routes (the accountant,
// rdp, pld, smoothed-pld, the exact routes) ask it small capability questions instead of a kind.
//
// The model: the noise Q0 (centred at 0) against Q1 (centred at the law's sensitivity), for a
// query whose neighbouring outputs differ by at most that sensitivity; the law states that this
// pair dominates every pair of neighbouring outputs (the law's own argument, in its header).
// Every map is certified: an Interval that contains the true value (interval.h), computed with
// outward rounding at the precision asked for.
//   describe()       how answers name the event: "staircase(gamma=1, sensitivity=3, r=2)"
//   rdp(a, p)        the Renyi divergence of order a > 1, the larger of both pair orders (or an
//                    upper bound's value: rdp_is_exact_at(a) says which)
// Capabilities (defaults: absent):
//   pure_epsilon()   epsilon with (epsilon, 0)-DP, when it holds (the accountant then has rho = eps^2/2)
//   rho()            a rho with rho-zCDP for an event that is not pure DP (the zcdp route)
//   exact_mu()       mu when the event is exactly mu-GDP (the gdp route, exact; rdp a mu^2/2)
//   has_profile() / delta_at(e, p) / delta(e, options)   the profile delta(e) = sup over both pair
//                    orders of sum_x max(0, P(x) - e^e Q(x)), e >= 0, or a certified upper bound on
//                    it (the law's header says which); delta() to the options' tolerance (default:
//                    delta_at() under evaluate_to_tolerance)
//   offers_profile_route()  whether the accountant's "profile" route evaluates this event when it
//                    is the whole composition (the built-in closed forms keep their own routes)
//   is_noise_law()   the maps are of a noise pair (a mechanism), so Poisson subsampling is defined;
//                    false for a bare guarantee (pure-DP, zCDP, GDP events)
//   gaussian_noise(), discrete_gaussian_noise(), laplace_noise(), discrete_laplace_noise()
//                    the law IS that additive noise at these parameters: the closed forms the rdp,
//                    pld and exact routes evaluate by formula (the subsampled pair, its atoms)
//   describe_subsampled(q)  how a Poisson-subsampled event is named
//   subsampled_rdp   an upper bound on the RDP of the pair Poisson-subsampled at rate q under
//                    add/remove-one, the larger of both orders (the rdp route of poisson-<law>),
//                    at the orders supports_subsampled_order() admits
//   has_atoms()      whether the pld route can discretise the pair: by a closed-form noise above,
//                    else by base_atoms(p): the pair as atoms (sets of outcomes with Q0-mass,
//                    Q1-mass and the ratio dQ1/dQ0 on the set, covering all of Q0's and Q1's mass;
//                    pld/pld_noise_atoms.h subsamples and discretises them)
//   symmetric_pair() the loss distributions of both pair orders are equal (the pld route
//                    discretises one order)
//   gaussian_smoothing()  {mu, t2, dim, gaussian} when the law's release of every query value c is,
//                    as a law, within the factors [r^-dim, r^dim] (r = r(t) of grid_noise.h,
//                    t^2 = t2) of a fixed post-processing of N(c', I) with ||c'_0 - c'_1|| <= mu for
//                    neighbouring query values (the smoothed-pld route, smoothed_pld.h;
//                    Theorem 5 of docs/REAL_VALUED_ACCOUNTING.md)
// Thread-safety: implementations are immutable; every method is const.
#pragma once

#include <gmpxx.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

class LawPrivacy;

// The continuous Gaussian a law is compared with (gaussian_smoothing() below).
struct GaussianSmoothing {
  mpq_class mu;   // sensitivity of the continuous Gaussian at sigma 1 (an upper bound on mu_t)
  mpq_class t2;   // the smoothing width t^2 (>= 1/16)
  mpz_class dim;  // the number of smoothed coordinates
  std::shared_ptr<const LawPrivacy> gaussian;  // the maps of N(0, 1) at sensitivity mu
};

struct LawAtom {
  Interval q0;     // Q0-mass of the set
  Interval q1;     // Q1-mass of the set
  Interval ratio;  // dQ1/dQ0 on the set (one value, enclosed)
};

// The additive noises the accounting layer has closed forms for (parameters as given).
struct GaussianNoise {  // N(0, sigma^2) at a real sensitivity
  mpq_class sigma;
  mpq_class sensitivity;
};
struct DiscreteGaussianNoise {  // N_Z(0, sigma2) at an integer sensitivity
  mpq_class sigma2;
  mpz_class sensitivity;
};
struct LaplaceNoise {  // Laplace(scale) at a real sensitivity
  mpq_class scale;
  mpq_class sensitivity;
};
struct DiscreteLaplaceNoise {  // P[x] ~ e^(-|x|/scale) at an integer sensitivity
  mpq_class scale;
  mpz_class sensitivity;
};

class LawPrivacy {
 public:
  virtual ~LawPrivacy() = default;
  [[nodiscard]] virtual std::string describe() const = 0;
  [[nodiscard]] virtual Interval rdp(const mpq_class& alpha, mpfr_prec_t precision) const = 0;
  [[nodiscard]] virtual bool rdp_is_exact_at(const mpq_class& /*alpha*/) const { return false; }

  [[nodiscard]] virtual std::optional<mpq_class> pure_epsilon() const { return std::nullopt; }
  [[nodiscard]] virtual std::optional<mpq_class> rho() const { return std::nullopt; }
  [[nodiscard]] virtual std::optional<mpq_class> exact_mu() const { return std::nullopt; }

  [[nodiscard]] virtual bool has_profile() const { return false; }
  // e >= 0; std::logic_error where !has_profile().
  [[nodiscard]] virtual Interval delta_at(const mpq_class& epsilon, mpfr_prec_t precision) const;
  [[nodiscard]] virtual Certified delta(const mpq_class& epsilon, const ZivOptions& options) const;
  [[nodiscard]] virtual bool offers_profile_route() const { return true; }

  [[nodiscard]] virtual bool is_noise_law() const { return true; }
  [[nodiscard]] virtual std::optional<GaussianNoise> gaussian_noise() const { return std::nullopt; }
  [[nodiscard]] virtual std::optional<DiscreteGaussianNoise> discrete_gaussian_noise() const { return std::nullopt; }
  [[nodiscard]] virtual std::optional<LaplaceNoise> laplace_noise() const { return std::nullopt; }
  [[nodiscard]] virtual std::optional<DiscreteLaplaceNoise> discrete_laplace_noise() const { return std::nullopt; }
  // "poisson(<describe()>, q=<q>)" unless the law names it otherwise; q as the answers print it.
  [[nodiscard]] virtual std::string describe_subsampled(const std::string& q) const;

  // Whether subsampled_rdp(q, alpha) is available at this order (alpha > 1).
  [[nodiscard]] virtual bool supports_subsampled_order(const mpq_class& /*alpha*/) const { return false; }
  // 0 < q < 1, an order with supports_subsampled_order(alpha) (std::logic_error otherwise).
  [[nodiscard]] virtual Interval subsampled_rdp(const mpq_class& q, const mpq_class& alpha,
                                                mpfr_prec_t precision) const;

  [[nodiscard]] virtual bool has_atoms() const { return false; }
  // The law's own atoms; by default ParameterError naming "route" (the pld route refuses a law
  // that states none; a closed-form noise's atoms come from pld_noise_atoms.h, not from here).
  [[nodiscard]] virtual std::vector<LawAtom> base_atoms(mpfr_prec_t precision) const;
  [[nodiscard]] virtual bool symmetric_pair() const { return false; }
  [[nodiscard]] virtual std::optional<GaussianSmoothing> gaussian_smoothing() const { return std::nullopt; }
};

}  // namespace exactdp::accounting
