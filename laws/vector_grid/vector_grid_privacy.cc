#include <exactdp/laws/vector_grid/vector_grid_privacy.h>

#include <exactdp/accounting/grid_noise.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/rdp_fractional.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/laws/continuous/gaussian_privacy.h>

namespace exactdp::laws {
namespace {

constexpr mpfr_prec_t kChoicePrecision = 64;  // the precision at which bounds are compared

std::string describe_grid(const char* name, const char* noise, const GridParameters& p) {
  return std::string(name) + "(" + noise + "=" + abbreviate(to_string(p.noise)) +
         ", sensitivity=" + abbreviate(to_string(p.sensitivity)) + ", dim=" + abbreviate(p.dim.get_str()) +
         ", granularity=" + abbreviate(to_string(p.granularity)) + ")";
}

void require_epsilon(const mpq_class& epsilon) {
  if (sgn(epsilon) < 0) throw ParameterError::out_of_range("epsilon", abbreviate(to_string(epsilon)), "epsilon >= 0");
}

void require_order(const mpq_class& alpha) {
  if (alpha <= 1) throw ParameterError::out_of_range("order", abbreviate(to_string(alpha)), "order > 1");
}

// The smoothing width minimising a proxy of Theorem 4's cost at order 2 (mu_t^2 + 3 d ln r).
std::optional<mpq_class> choose_subsampling_width(const mpq_class& s2, const mpz_class& d2, const mpz_class& dim) {
  std::optional<mpq_class> best;
  Interval best_value(kChoicePrecision);
  for (const mpq_class& t2 : accounting::smoothing_candidates(s2)) {
    const Interval value = accounting::lattice_log_ratio(t2, dim, kChoicePrecision) * mpq_class(3) +
                           mpq_class(mpq_class(d2) / (s2 - t2));
    if (!best || mpfr_cmp(value.upper(), best_value.upper()) < 0) {
      best = t2;
      best_value = value;
    }
  }
  return best;
}

}  // namespace

// ---- discrete Gaussian ----------------------------------------------------------------------

VectorDiscreteGaussianPrivacy::VectorDiscreteGaussianPrivacy(GridParameters p)
    : VectorDiscreteGaussianPrivacy(p, accounting::grid_l2_sensitivity_squared(p.sensitivity, p.granularity, p.dim)) {}

VectorDiscreteGaussianPrivacy::VectorDiscreteGaussianPrivacy(GridParameters p, mpz_class d2)
    : p_(std::move(p)), d2_(std::move(d2)) {
  const mpq_class sigma_int = p_.noise / p_.granularity;
  sigma_int2_ = sigma_int * sigma_int;
  rho_ = mpq_class(d2_) / (2 * sigma_int2_);
  rho_.canonicalize();
  t2_ = choose_subsampling_width(sigma_int2_, d2_, p_.dim);
  if (t2_) mu_ = accounting::smoothed_mu_upper(d2_, sigma_int2_, *t2_);
}

std::string VectorDiscreteGaussianPrivacy::describe() const {
  return describe_grid("vector-discrete-gaussian", "sigma", p_);
}

Interval VectorDiscreteGaussianPrivacy::rdp(const mpq_class& alpha, mpfr_prec_t precision) const {
  require_order(alpha);
  return Interval(mpq_class(alpha * rho_), precision);  // CKS20 per coordinate; product laws add
}

Interval VectorDiscreteGaussianPrivacy::delta_at(const mpq_class& epsilon, mpfr_prec_t precision) const {
  require_epsilon(epsilon);
  // Candidates: CKS20 Corollary 13 at its searched order, and Theorem 3 at each width. The one
  // with the smallest upper end at 64 bits is evaluated at `precision`: a fixed bound, so that
  // every precision encloses the same number.
  std::optional<mpq_class> zcdp_alpha;
  if (rho_ <= 1'000'000'000) {
    accounting::ZivOptions coarse;  // only the order is kept: any order gives a valid bound
    coarse.tolerance = mpq_class(1, 1 << 20);
    zcdp_alpha = accounting::zcdp_delta(rho_, epsilon, coarse).alpha;
  }
  std::optional<mpq_class> best_t2;
  Interval best = zcdp_alpha ? accounting::cks20_delta_at_alpha(rho_, epsilon, *zcdp_alpha, kChoicePrecision)
                             : Interval(1L, kChoicePrecision);
  for (const mpq_class& t2 : accounting::smoothing_candidates(sigma_int2_)) {
    if (!accounting::smoothing_applies(epsilon, p_.dim, t2, kChoicePrecision)) continue;
    const Interval value = accounting::smoothed_gaussian_delta(epsilon, sigma_int2_, d2_, p_.dim, t2, kChoicePrecision);
    if (mpfr_cmp(value.upper(), best.upper()) < 0) {
      best = value;
      best_t2 = t2;
    }
  }
  if (best_t2) return accounting::smoothed_gaussian_delta(epsilon, sigma_int2_, d2_, p_.dim, *best_t2, precision);
  if (!zcdp_alpha) return Interval(1L, precision);  // delta <= 1 always
  return accounting::at_most_one(accounting::cks20_delta_at_alpha(rho_, epsilon, *zcdp_alpha, precision));
}

std::vector<accounting::LawAtom> VectorDiscreteGaussianPrivacy::base_atoms(mpfr_prec_t /*precision*/) const {
  throw ParameterError("route", "route: the pld route has no certified pair for " + describe() +
                                    " (no proven dominating pair is implemented); use --route rdp");
}

std::optional<accounting::GaussianSmoothing> VectorDiscreteGaussianPrivacy::gaussian_smoothing() const {
  if (!t2_) return std::nullopt;
  return accounting::GaussianSmoothing{mu_, *t2_, p_.dim, gaussian_event(mpq_class(1), mu_).shared_maps()};
}

bool VectorDiscreteGaussianPrivacy::supports_subsampled_order(const mpq_class& alpha) const {
  if (!t2_ || alpha <= 1) return false;
  if (alpha.get_den() == 1) return mu_ <= 1000 && alpha <= accounting::kMaxRdpOrder;
  return mu_ <= accounting::fractional_order_max_mu() && alpha <= accounting::kMaxFractionalOrder;
}

Interval VectorDiscreteGaussianPrivacy::subsampled_rdp(const mpq_class& q, const mpq_class& alpha,
                                                       mpfr_prec_t precision) const {
  if (!supports_subsampled_order(alpha)) {
    throw std::logic_error("VectorDiscreteGaussianPrivacy::subsampled_rdp: order not supported");
  }
  const accounting::RdpEvent gaussian = accounting::RdpEvent::poisson_gaussian(mpq_class(1), q, mu_);
  const Interval base = gaussian.rdp(alpha, accounting::Neighbouring::kAddRemove, precision);
  const mpq_class factor = (2 * alpha - 1) / (alpha - 1);
  return base + accounting::lattice_log_ratio(*t2_, p_.dim, precision) * factor;
}

// ---- discrete Laplace ------------------------------------------------------------------------

VectorDiscreteLaplacePrivacy::VectorDiscreteLaplacePrivacy(GridParameters p)
    : VectorDiscreteLaplacePrivacy(p, accounting::grid_l1_sensitivity(p.sensitivity, p.granularity, p.dim)) {}

VectorDiscreteLaplacePrivacy::VectorDiscreteLaplacePrivacy(GridParameters p, mpz_class l1)
    : p_(std::move(p)), l1_(std::move(l1)) {
  eps0_ = mpq_class(l1_) * p_.granularity / p_.noise;  // L / (scale / g)
  eps0_.canonicalize();
}

std::string VectorDiscreteLaplacePrivacy::describe() const {
  return describe_grid("vector-discrete-laplace", "scale", p_);
}

Interval VectorDiscreteLaplacePrivacy::delta_at(const mpq_class& epsilon, mpfr_prec_t precision) const {
  require_epsilon(epsilon);
  if (epsilon >= eps0_) return Interval(0L, precision);
  const Interval e0 = exp(Interval(eps0_, precision));
  const Interval gap = e0 - exp(Interval(epsilon, precision));
  return accounting::at_most_one(gap / (e0 + mpq_class(1)));
}

Interval VectorDiscreteLaplacePrivacy::rdp(const mpq_class& alpha, mpfr_prec_t precision) const {
  require_order(alpha);
  const mpq_class zcdp = alpha * eps0_ * eps0_ / 2;
  return Interval(zcdp < eps0_ ? zcdp : eps0_, precision);  // BS16 Prop. 3.3; D_alpha <= D_inf
}

std::vector<accounting::LawAtom> VectorDiscreteLaplacePrivacy::base_atoms(mpfr_prec_t precision) const {
  const Interval e0 = exp(Interval(eps0_, precision));
  const Interval one(1L, precision);
  const Interval high = e0 / (e0 + mpq_class(1));
  const Interval low = one / (e0 + mpq_class(1));
  return {{high, low, one / e0}, {low, high, e0}};
}

}  // namespace exactdp::laws
