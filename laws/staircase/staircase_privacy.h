// staircase_privacy.h — the discrete staircase's privacy maps (accounting/law_privacy.h), for an
// integer query of sensitivity D (the law's own D), neighbouring outputs differing by d, |d| <= D.
//
// The pair. With Q0 the law at 0 and Q1 the law at D: the weights' level index c(m) changes by
// exactly one over any D consecutive integers on one side, so dQ1/dQ0 takes only the values
// e^gamma, 1 and e^-gamma: the pair is three atoms. Their Q0-masses u (ratio e^gamma),
// v (ratio e^-gamma) and m0 = 1 - u - v satisfy u (e^gamma - 1) = TV(Q0, Q1) (the excess mass) and
// v = e^gamma u (both laws sum to 1). For a symmetric law that is non-increasing in |x|,
// TV(Q0, Q_d) = P(X in a window of d consecutive integers around 0), non-decreasing in d, so the
// pair for d = D has the largest u; a three-atom pair with a smaller u is the larger pair mixed
// with a neutral outcome (a post-processing), so the d = D pair dominates every |d| <= D, plain
// or Poisson-subsampled. Its window: {-floor(D/2), ..., D - 1 - floor(D/2)}.
// Maps (certified, rounded outward):
//   pure epsilon = gamma (delta = 0 at eps >= gamma);
//   delta(eps) = u (e^gamma - e^eps) for 0 <= eps < gamma (both orders give the same);
//   RDP of order a: log(u e^(a gamma) + m0 + u e^((1 - a) gamma)) / (a - 1) (both orders);
//   atoms: (u, e^gamma u, e^gamma), (m0, m0, 1), (e^gamma u, u, e^-gamma).
#pragma once

#include <exactdp/accounting/law_privacy.h>
#include <exactdp/laws/staircase/staircase_shape.h>

namespace exactdp::laws {

class StaircasePrivacy final : public accounting::LawPrivacy {
 public:
  explicit StaircasePrivacy(StaircaseShape shape) : shape_(std::move(shape)) {}
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::optional<mpq_class> pure_epsilon() const override { return shape_.gamma(); }
  [[nodiscard]] bool has_profile() const override { return true; }
  [[nodiscard]] Interval delta_at(const mpq_class& epsilon, mpfr_prec_t precision) const override;
  [[nodiscard]] Interval rdp(const mpq_class& alpha, mpfr_prec_t precision) const override;
  [[nodiscard]] std::vector<accounting::LawAtom> base_atoms(mpfr_prec_t precision) const override;
  [[nodiscard]] bool has_atoms() const override { return true; }
  // u: the Q0-mass where dQ1/dQ0 = e^gamma.
  [[nodiscard]] Interval excess_mass(mpfr_prec_t precision) const;

 private:
  StaircaseShape shape_;
};

}  // namespace exactdp::laws
