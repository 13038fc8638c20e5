#include <exactdp/laws/distributed_discrete_gaussian/ddg_privacy.h>

#include <stdexcept>

#include <exactdp/accounting/rdp_law_bounds.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {
namespace {

constexpr long kTauTermsSummed = 4096;
constexpr mpfr_prec_t kRhoPrecision = 128;

// 10 sum_{k=1}^{m-1} exp(-2 pi^2 sigma2 k / (k + 1)) (ddg_privacy.h).
Interval kls_tau(const mpq_class& sigma2, const mpz_class& survivors, mpfr_prec_t p) {
  const Interval c = square(pi_interval(p)) * mpq_class(2 * sigma2);
  const mpz_class terms = survivors - 1;
  const long summed = terms < kTauTermsSummed ? terms.get_si() : kTauTermsSummed;
  Interval sum(p);
  for (long k = 1; k <= summed; ++k) sum = sum + exp(-(c * mpq_class(k, k + 1)));
  if (terms > kTauTermsSummed) {
    const mpq_class rest(terms - kTauTermsSummed);
    const Interval low = exp(-c) * rest;
    const Interval high = exp(-(c * mpq_class(kTauTermsSummed, kTauTermsSummed + 1))) * rest;
    sum = sum + hull(low, high);
  }
  return sum * mpq_class(10);
}

}  // namespace

DistributedDiscreteGaussianPrivacy::DistributedDiscreteGaussianPrivacy(DdgPrivacyParameters p) : p_(std::move(p)) {
  const Interval s2(mpq_class(p_.sigma2 * p_.survivors), kRhoPrecision);
  const Interval branch = Interval(p_.sensitivity, kRhoPrecision) / sqrt(s2) +
                          kls_tau(p_.sigma2, p_.survivors, kRhoPrecision) * sqrt(Interval(p_.dim, kRhoPrecision));
  rho_ = to_mpq((square(branch) / mpq_class(2)).upper());
}

std::string DistributedDiscreteGaussianPrivacy::describe() const {
  return "distributed-discrete-gaussian(sigma2=" + abbreviate(to_string(p_.sigma2)) +
         ", survivors=" + abbreviate(p_.survivors.get_str()) + ", sensitivity=" + abbreviate(to_string(p_.sensitivity)) +
         (p_.l1 ? ", l1=" + abbreviate(to_string(*p_.l1)) : std::string()) + ", dim=" + abbreviate(p_.dim.get_str()) +
         ")";
}

Interval DistributedDiscreteGaussianPrivacy::tau(mpfr_prec_t precision) const {
  const std::lock_guard<std::mutex> lock(cache_mutex_);
  if (!tau_cache_ || tau_cache_->precision() != precision) tau_cache_ = kls_tau(p_.sigma2, p_.survivors, precision);
  return *tau_cache_;
}

Interval DistributedDiscreteGaussianPrivacy::rdp(const mpq_class& alpha, mpfr_prec_t precision) const {
  if (alpha <= 1) throw ParameterError::out_of_range("order", abbreviate(to_string(alpha)), "order > 1");
  const mpfr_prec_t p = precision;
  const mpq_class s2 = p_.sigma2 * p_.survivors;
  const mpq_class l2_squared = p_.sensitivity * p_.sensitivity / s2;
  const Interval t = tau(p);
  const Interval root = sqrt(Interval(s2, p));
  const Interval root_dim = sqrt(Interval(p_.dim, p));
  Interval l1 = min(root_dim * p_.sensitivity, Interval(mpq_class(p_.sensitivity * p_.sensitivity), p));
  if (p_.l1) l1 = min(l1, Interval(*p_.l1, p));
  const mpq_class half_alpha = alpha / 2;
  const Interval first = Interval(mpq_class(half_alpha * l2_squared), p) + t * mpq_class(p_.dim);
  const Interval second =
      (Interval(l2_squared, p) + l1 / root * t * mpq_class(2) + square(t) * mpq_class(p_.dim)) * half_alpha;
  const Interval third = square(Interval(p_.sensitivity, p) / root + t * root_dim) * half_alpha;
  return min(first, min(second, third));
}

bool DistributedDiscreteGaussianPrivacy::exact_profile() const {
  return p_.dim == 1 && ddg_exact_profile_feasible(p_.sigma2, p_.survivors);
}

Interval DistributedDiscreteGaussianPrivacy::rdp_delta_bound(const mpq_class& epsilon, mpfr_prec_t precision) const {
  return accounting::rdp_delta_over_orders([this](const mpq_class& a, mpfr_prec_t p) { return rdp(a, p); }, epsilon,
                                           precision);
}

std::shared_ptr<const DistributedDiscreteGaussianPmf> DistributedDiscreteGaussianPrivacy::masses(
    mpfr_prec_t precision) const {
  const std::lock_guard<std::mutex> lock(cache_mutex_);
  if (!cache_ || cache_->precision() != std::min<mpfr_prec_t>(precision, 320)) {
    cache_ = std::make_shared<const DistributedDiscreteGaussianPmf>(p_.sigma2, p_.survivors.get_si(), precision);
  }
  return cache_;
}

Interval DistributedDiscreteGaussianPrivacy::delta_at(const mpq_class& epsilon, mpfr_prec_t precision) const {
  if (sgn(epsilon) < 0) throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)), "epsilon >= 0");
  if (!exact_profile()) return rdp_delta_bound(epsilon, precision);
  const mpz_class shift = p_.sensitivity.get_num() / p_.sensitivity.get_den();
  if (shift == 0) return Interval(precision);  // no integer shift of a scalar query: delta = 0
  // both are certified upper bounds on the same delta: where delta is below the table's residual
  // (about 2^-(p + 40)) the converted bound can be the smaller; both at the table's precision
  // (at most 320 bits: more would not narrow the table's enclosure)
  const std::shared_ptr<const DistributedDiscreteGaussianPmf> pmf = masses(precision);
  return min(pmf->delta_at(epsilon, shift.get_si()), rdp_delta_bound(epsilon, pmf->precision()));
}

bool DistributedDiscreteGaussianPrivacy::supports_subsampled_order(const mpq_class& alpha) const {
  return accounting::is_general_subsampled_order(alpha);
}

Interval DistributedDiscreteGaussianPrivacy::subsampled_rdp(const mpq_class& q, const mpq_class& alpha,
                                                            mpfr_prec_t precision) const {
  const accounting::RdpCurve curve = [this](const mpq_class& a, mpfr_prec_t p) { return rdp(a, p); };
  return accounting::subsampled_rdp_of_curve(q, alpha, curve, precision, "DistributedDiscreteGaussianPrivacy");
}

}  // namespace exactdp::laws
