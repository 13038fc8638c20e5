#include <exactdp/laws/skellam/skellam_privacy.h>

#include <stdexcept>

#include <exactdp/accounting/rdp_law_bounds.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {

namespace {

// ceil(2^20 sqrt(dim)) / 2^20 >= sqrt(dim); exactly 1 at dim = 1.
mpq_class root_upper(const mpz_class& dim) {
  const mpz_class scaled = dim << 40;
  mpz_class root;
  mpz_class rest;
  mpz_sqrtrem(root.get_mpz_t(), rest.get_mpz_t(), scaled.get_mpz_t());
  if (rest != 0) root += 1;
  return mpq_class(root, mpz_class(1) << 20);
}

// D1 = min(l1, D^2, r D) (skellam_privacy.h).
mpq_class l1_bound_of(const SkellamSensitivity& s) {
  mpq_class bound = root_upper(s.dim) * s.l2;
  const mpq_class square = s.l2 * s.l2;
  if (square < bound) bound = square;
  if (s.l1 && *s.l1 < bound) bound = *s.l1;
  bound.canonicalize();
  return bound;
}

}  // namespace

SkellamPrivacy::SkellamPrivacy(mpq_class mu, SkellamSensitivity sensitivity)
    : mu_(std::move(mu)), sensitivity_(std::move(sensitivity)), l1_bound_(l1_bound_of(sensitivity_)) {}

std::string SkellamPrivacy::describe() const {
  std::string out = "skellam(mu=" + abbreviate(to_string(mu_)) + ", sensitivity=" + abbreviate(to_string(sensitivity_.l2));
  if (sensitivity_.l1) out += ", l1=" + abbreviate(to_string(*sensitivity_.l1));
  if (sensitivity_.dim != 1) out += ", dim=" + abbreviate(sensitivity_.dim.get_str());
  return out + ")";
}

mpq_class SkellamPrivacy::rdp_bound(const mpq_class& alpha) const {
  const mpq_class d2 = sensitivity_.l2 * sensitivity_.l2;
  const mpq_class& d1 = l1_bound_;
  const mpq_class second_order = ((2 * alpha - 1) * d2 + 6 * d1) / (16 * mu_ * mu_);
  const mpq_class first_order = 3 * d1 / (4 * mu_);
  return alpha * d2 / (4 * mu_) + (second_order < first_order ? second_order : first_order);
}

std::optional<mpq_class> SkellamPrivacy::rho() const {
  const mpq_class d2 = sensitivity_.l2 * sensitivity_.l2;
  const mpq_class linear = 6 * l1_bound_ - d2;
  return d2 / (4 * mu_) + (2 * d2 + (sgn(linear) > 0 ? linear : mpq_class(0))) / (16 * mu_ * mu_);
}

Interval SkellamPrivacy::rdp(const mpq_class& alpha, mpfr_prec_t precision) const {
  if (alpha <= 1) throw ParameterError::out_of_range("order", abbreviate(to_string(alpha)), "order > 1");
  return Interval(rdp_bound(alpha), precision);
}

bool SkellamPrivacy::has_profile() const { return true; }

bool SkellamPrivacy::exact_profile() const {
  const bool scalar = sensitivity_.dim == 1 && !sensitivity_.l1 && sensitivity_.l2.get_den() == 1;
  return scalar && mu_ <= skellam_pmf_max_mu();
}

// Beyond the exact masses: the shared conversion over a fixed grid of orders
// (accounting/rdp_law_bounds.h), so the bound is non-increasing in epsilon.
Interval SkellamPrivacy::rdp_delta_bound(const mpq_class& epsilon, mpfr_prec_t precision) const {
  return accounting::rdp_delta_over_orders([this](const mpq_class& a, mpfr_prec_t p) { return rdp(a, p); }, epsilon,
                                           precision);
}

bool SkellamPrivacy::supports_subsampled_order(const mpq_class& alpha) const {
  return accounting::is_general_subsampled_order(alpha);
}

Interval SkellamPrivacy::subsampled_rdp(const mpq_class& q, const mpq_class& alpha, mpfr_prec_t precision) const {
  const accounting::RdpCurve curve = [this](const mpq_class& a, mpfr_prec_t p) { return rdp(a, p); };
  return accounting::subsampled_rdp_of_curve(q, alpha, curve, precision, "SkellamPrivacy");
}

std::shared_ptr<const SkellamPmf> SkellamPrivacy::masses(mpfr_prec_t precision) const {
  const std::lock_guard<std::mutex> lock(cache_mutex_);
  if (!cache_ || cache_->precision() != skellam_pmf_precision(precision)) {
    cache_ = std::make_shared<const SkellamPmf>(mu_, precision);
  }
  return cache_;
}

Interval SkellamPrivacy::delta_at(const mpq_class& epsilon, mpfr_prec_t precision) const {
  if (sgn(epsilon) < 0) throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)), "epsilon >= 0");
  if (!exact_profile()) return rdp_delta_bound(epsilon, precision);
  const std::shared_ptr<const SkellamPmf> pmf = masses(precision);
  const mpfr_prec_t wp = pmf->precision();  // at most 320 bits (skellam_pmf.h)
  const long end = pmf->table_end();
  const long d = sensitivity_.l2.get_num().get_si();  // an integer <= 10^9 (exact_profile)
  const Interval factor = exp(Interval(epsilon, wp));
  const Interval zero(wp);
  Interval sum(wp);
  for (long k = -end; k <= end; ++k) sum = sum + max(pmf->mass(k) - factor * pmf->mass(k - d), zero);
  // beyond |k| <= K each term is at most s_k: add [0, P[|X| > K]]
  const Interval outside = pmf->tail_from(mpz_class(end + 1)) * mpq_class(2);
  return sum + Interval::from_ends(zero.lower(), outside.upper(), wp);
}

std::shared_ptr<const accounting::LawPrivacy> skellam_privacy(const mpq_class& mu,
                                                              const SkellamSensitivity& sensitivity) {
  return std::make_shared<SkellamPrivacy>(mu, sensitivity);
}

}  // namespace exactdp::laws
