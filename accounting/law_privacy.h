// law_privacy.h — accounting::LawPrivacy: the privacy maps of a noise law that the accounting
// layer has no closed form of its own for. A law of the registry (laws/) implements it and hands
// it to PrivacyEvent::of_law (accountant.h); the accountant, the rdp route and the pld route then
// read the law's maps through this interface instead of a per-law switch.
//
// The model: the noise Q0 (centred at 0) against Q1 (centred at the law's sensitivity), for a
// query whose neighbouring outputs differ by at most that sensitivity; the law states that this
// pair dominates every pair of neighbouring outputs (the law's own argument, in its header).
// Every map is certified: an Interval that contains the true value (interval.h), computed with
// outward rounding at the precision asked for.
//   pure_epsilon()   epsilon with (epsilon, 0)-DP, when it holds (nullopt otherwise)
//   delta_at(e, p)   the profile delta(e) = sup over both pair orders of
//                    sum_x max(0, P(x) - e^e Q(x)), e >= 0, or a certified upper bound on it
//                    (the law's header says which): the interval encloses that bound's value,
//                    so its upper end is a valid delta, its lower end says nothing then
//   rdp(a, p)        the Renyi divergence of order a > 1, the larger of both pair orders (or,
//                    likewise, an upper bound's value)
// Optional maps (defaults: absent):
//   rho()            a rho with rho-zCDP for a law that is not pure DP (the zcdp route)
//   subsampled_rdp   an upper bound on the RDP of the pair Poisson-subsampled at rate q under
//                    add/remove-one, the larger of both orders (the rdp route of poisson-<law>)
//   has_atoms()      false when base_atoms() is not available (the pld route then refuses)
//   base_atoms(p)    the pair as atoms: sets of outcomes with Q0-mass, Q1-mass and the ratio
//                    dQ1/dQ0 on the set, covering all of Q0's and Q1's mass (for the pld route,
//                    which subsamples and discretises them: pld/pld_noise_atoms.h)
//   gaussian_smoothing()  {mu, t2, dim} when the law's release of every query value c is, as a
//                    law, within the factors [r^-dim, r^dim] (r = r(t) of grid_noise.h, t^2 = t2)
//                    of a fixed post-processing of N(c', I) with ||c'_0 - c'_1|| <= mu for
//                    neighbouring query values (the smoothed-pld route, smoothed_pld.h;
//                    Theorem 5 of docs/REAL_VALUED_ACCOUNTING.md)
// Thread-safety: implementations are immutable; every method is const.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// The continuous Gaussian a law is compared with (gaussian_smoothing() above).
struct GaussianSmoothing {
  mpq_class mu;   // sensitivity of the continuous Gaussian at sigma 1 (an upper bound on mu_t)
  mpq_class t2;   // the smoothing width t^2 (>= 1/16)
  mpz_class dim;  // the number of smoothed coordinates
};

struct LawAtom {
  Interval q0;     // Q0-mass of the set
  Interval q1;     // Q1-mass of the set
  Interval ratio;  // dQ1/dQ0 on the set (one value, enclosed)
};

class LawPrivacy {
 public:
  virtual ~LawPrivacy() = default;
  // "staircase(gamma=1, sensitivity=3, r=2)": how answers name the event.
  [[nodiscard]] virtual std::string describe() const = 0;
  [[nodiscard]] virtual std::optional<mpq_class> pure_epsilon() const = 0;
  [[nodiscard]] virtual Interval delta_at(const mpq_class& epsilon, mpfr_prec_t precision) const = 0;
  [[nodiscard]] virtual Interval rdp(const mpq_class& alpha, mpfr_prec_t precision) const = 0;
  [[nodiscard]] virtual std::vector<LawAtom> base_atoms(mpfr_prec_t precision) const = 0;

  [[nodiscard]] virtual std::optional<mpq_class> rho() const { return std::nullopt; }
  [[nodiscard]] virtual bool has_atoms() const { return true; }
  [[nodiscard]] virtual std::optional<GaussianSmoothing> gaussian_smoothing() const { return std::nullopt; }
  // Whether subsampled_rdp(q, alpha) is available at this order (alpha > 1).
  [[nodiscard]] virtual bool supports_subsampled_order(const mpq_class& /*alpha*/) const { return false; }
  // 0 < q < 1, an order with supports_subsampled_order(alpha) (std::logic_error otherwise).
  [[nodiscard]] virtual Interval subsampled_rdp(const mpq_class& /*q*/, const mpq_class& /*alpha*/,
                                                mpfr_prec_t /*precision*/) const {
    throw std::logic_error("LawPrivacy::subsampled_rdp: not available for " + describe());
  }
};

}  // namespace exactdp::accounting
