#include <exactdp/accounting/rdp.h>

#include <exactdp/accounting/rdp_fractional.h>
#include <exactdp/accounting/rdp_subsampled_discrete.h>
#include <exactdp/accounting/rdp_subsampled_laplace.h>

#include <stdexcept>

#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

void require_order(unsigned long alpha) {
  if (alpha < 2 || alpha > kMaxRdpOrder) {
    throw ParameterError::out_of_range("order", std::to_string(alpha),
                                       "an integer order 2 <= order <= 65536");
  }
}

mpq_class order_q(unsigned long alpha) { return mpq_class(mpz_class(alpha)); }

bool is_integer(const mpq_class& alpha) { return alpha.get_den() == 1; }

}  // namespace

const char* neighbouring_name(Neighbouring relation) {
  return relation == Neighbouring::kAddRemove ? "add/remove-one" : "replace-one";
}

Interval gaussian_rdp(const mpq_class& mu, unsigned long alpha, mpfr_prec_t precision) {
  require_order(alpha);
  return Interval(order_q(alpha) * mu * mu / 2, precision);  // exact rational, rounded outward
}

Interval pure_dp_rdp_bound(const mpq_class& eps, const mpq_class& a, mpfr_prec_t precision) {
  const mpq_class zcdp_bound = a * eps * eps / 2;
  return Interval(zcdp_bound < eps ? zcdp_bound : eps, precision);
}

// Mironov 2017 Prop. 6 at a rational order a > 1 (see laplace_rdp).
Interval laplace_rdp_at(const mpq_class& eps, const mpq_class& a, mpfr_prec_t precision) {
  require_nonnegative("epsilon", eps);
  if (sgn(eps) == 0) return Interval(precision);
  // eps + log( a/(2a-1) + (a-1)/(2a-1) e^{-(2a-1) eps} ) / (a-1), factored by e^{(a-1) eps} so
  // no term overflows. Every operation is outward rounded; the log argument lies in (a/(2a-1), 1].
  const Interval e(eps, precision);
  const Interval inner = Interval(mpq_class(a / (2 * a - 1)), precision) +
                         exp(Interval(mpq_class(-(2 * a - 1) * eps), precision)) * mpq_class((a - 1) / (2 * a - 1));
  Interval value = e + log(inner) / mpq_class(a - 1);
  // The divergence is >= 0 (and <= eps); the enclosure may overshoot by rounding only.
  return clamp(value, mpq_class(0), eps);
}

Interval laplace_rdp(const mpq_class& eps, unsigned long alpha, mpfr_prec_t precision) {
  require_order(alpha);
  return laplace_rdp_at(eps, order_q(alpha), precision);
}

Interval poisson_gaussian_rdp(const mpq_class& mu, const mpq_class& q, unsigned long alpha,
                              mpfr_prec_t precision) {
  require_order(alpha);
  require_positive("sigma", mu);
  require_positive_at_most("q", q, mpq_class(1), "1");
  if (q == 1) return gaussian_rdp(mu, alpha, precision);
  return poisson_binomial_rdp(mu * mu, q, alpha, precision);
}

Interval poisson_binomial_rdp(const mpq_class& c, const mpq_class& q, unsigned long alpha, mpfr_prec_t precision) {
  require_order(alpha);
  // A_alpha = sum_k t_k, t_0 = (1-q)^alpha, t_{k+1} = t_k (alpha-k)/(k+1) * q/(1-q) * e^{k mu^2}.
  // Work at a few guard bits above the requested precision; all terms are positive intervals.
  const mpfr_prec_t p = precision + 32;  // c = mu^2: e^{k c} is the growth of e^{(k^2-k) c/2}
  const Interval step = exp(Interval(c, p));
  // q/(1-q) as an interval once: q may have thousands of digits, and exact rational products
  // with it in the loop cost O(alpha) big-number multiplications per order.
  const Interval one_minus_q(mpq_class(1 - q), p);
  const Interval ratio = Interval(q, p) / one_minus_q;
  Interval term = exp(log(one_minus_q) * order_q(alpha));  // (1-q)^alpha
  Interval growth(1L, p);  // e^{k c}, k = 0
  Interval sum = term;
  for (unsigned long k = 0; k < alpha; ++k) {
    term = term * growth * ratio * mpq_class(mpz_class(alpha - k), mpz_class(k + 1));
    sum = sum + term;
    growth = growth * step;
  }
  // A_alpha >= 1 (it is E[L^alpha] with E[L] = 1, by Jensen): clamp the rounding-noise below.
  const Interval log_a = log(sum);
  Interval value = log_a / (order_q(alpha) - 1);
  // 0 <= value <= alpha mu^2 / 2 (quasi-convexity: the mixture is no further than N(Delta, s^2)).
  value = clamp(value, mpq_class(0), order_q(alpha) * c / 2);
  value.set_precision(precision);
  return value;
}

// ---- RdpEvent -------------------------------------------------------------------------------

namespace {

// The discrete noises with the closed-form subsampled bound of rdp_subsampled_discrete.h.
bool discrete_noise(const LawPrivacy& m) {
  return m.discrete_gaussian_noise().has_value() || m.discrete_laplace_noise().has_value();
}

}  // namespace

RdpEvent RdpEvent::plain(const PrivacyEvent& event) {
  return RdpEvent(event, false, mpq_class(0), mpq_class(0), event.describe());
}

RdpEvent RdpEvent::poisson_gaussian(const mpq_class& sigma, const mpq_class& q,
                                    const mpq_class& sensitivity) {
  require_positive("sigma", sigma);
  require_positive("sensitivity", sensitivity);
  require_positive_at_most("q", q, mpq_class(1), "1");
  const mpq_class ratio = sigma / sensitivity;
  if (ratio < mpq_class(1, 1000) || ratio > mpq_class(1'000'000)) {
    throw ParameterError::out_of_range(
        "sigma", abbreviate(to_string(sigma)),
        "10^-3 <= sigma / sensitivity <= 10^6 for a poisson-gaussian event");
  }
  mpq_class mu = sensitivity / sigma;
  std::string text = "poisson_gaussian(sigma=" + abbreviate(to_string(sigma)) +
                     ", q=" + abbreviate(to_string(q)) +
                     ", sensitivity=" + abbreviate(to_string(sensitivity)) + ")";
  RdpEvent e(std::nullopt, true, std::move(mu), q, std::move(text));
  e.gaussian_ = GaussianNoise{sigma, sensitivity};
  return e;
}

RdpEvent RdpEvent::poisson_subsampled(const PrivacyEvent& base, const mpq_class& q) {
  require_positive_at_most("q", q, mpq_class(1), "1");
  const LawPrivacy& m = base.maps();
  if (const std::optional<GaussianNoise> g = m.gaussian_noise()) return poisson_gaussian(g->sigma, q, g->sensitivity);
  if (!m.is_noise_law()) {
    throw ParameterError("event", "event: Poisson subsampling applies to gaussian, discrete-gaussian, laplace and "
                                  "discrete-laplace noise, not " + base.describe());
  }
  return RdpEvent(base, true, mpq_class(0), q, m.describe_subsampled(abbreviate(to_string(q))));
}

const mpq_class& RdpEvent::subsampled_mu() const {
  if (!gaussian_) {
    throw std::logic_error("RdpEvent::subsampled_mu of an event that is not a subsampled Gaussian");
  }
  return mu_;
}

const PrivacyEvent& RdpEvent::subsampled_base() const {
  if (!subsampled_) throw std::logic_error("RdpEvent::subsampled_base of a plain event");
  if (!event_) throw std::logic_error("RdpEvent::subsampled_base of a subsampled Gaussian (subsampled_gaussian())");
  return *event_;
}

// A subsampled (non-Gaussian) event with the Laplace closed form.
bool RdpEvent::subsampled_laplace() const {
  return subsampled_ && event_ && event_->maps().laplace_noise().has_value();
}

// A subsampled event accounted by its law's own bound (LawPrivacy::subsampled_rdp): no closed form.
bool RdpEvent::own_subsampled_bound() const {
  return subsampled_ && event_ && !subsampled_laplace() && !discrete_noise(event_->maps());
}

bool RdpEvent::has_rdp() const {
  if (!subsampled_ || q_ == 1 || gaussian_) return true;
  if (subsampled_laplace()) return event_->pure_epsilon() <= subsampled_laplace_max_epsilon();
  if (own_subsampled_bound()) return event_->maps().supports_subsampled_order(mpq_class(2));
  return poisson_discrete_rdp_supports(*event_);
}

const mpq_class& RdpEvent::subsampled_q() const {
  if (!subsampled_) throw std::logic_error("RdpEvent::subsampled_q of a plain event");
  return q_;
}

const PrivacyEvent& RdpEvent::plain_event() const {
  if (subsampled_) throw std::logic_error("RdpEvent::plain_event of a subsampled event");
  return *event_;
}

std::string RdpEvent::describe() const { return text_; }

bool RdpEvent::rdp_is_exact() const {
  if (subsampled_ && q_ == 1 && !gaussian_) return RdpEvent::plain(*event_).rdp_is_exact();
  if (subsampled_) return has_rdp() && !own_subsampled_bound();  // a law's own: a bound
  return event_->maps().rdp_is_exact_at(mpq_class(2));
}

Interval RdpEvent::rdp(unsigned long alpha, Neighbouring relation, mpfr_prec_t precision) const {
  require_order(alpha);
  if (subsampled_) {
    if (relation != Neighbouring::kAddRemove) {
      throw ParameterError("neighbouring",
                           "neighbouring = replace-one is not supported for Poisson-subsampled "
                           "events: allowed add-remove (MTZ19's bound is for add/remove-one)");
    }
    if (gaussian_) return poisson_gaussian_rdp(mu_, q_, alpha, precision);
    if (q_ == 1) return RdpEvent::plain(*event_).rdp(alpha, relation, precision);  // every record sampled
    if (subsampled_laplace()) return subsampled_laplace_rdp_checked(order_q(alpha), precision);
    if (own_subsampled_bound()) return law_subsampled_rdp(order_q(alpha), precision);
    return poisson_discrete_rdp(*event_, q_, alpha, precision);  // ParameterError naming route beyond its limits
  }
  return plain_rdp(order_q(alpha), precision);
}

bool RdpEvent::supports_order(const mpq_class& alpha) const {
  if (subsampled_ && q_ == 1 && !gaussian_) return RdpEvent::plain(*event_).supports_order(alpha);
  if (own_subsampled_bound()) {
    const bool in_range = is_integer(alpha) ? alpha >= 2 && alpha <= kMaxRdpOrder : alpha > 1 && alpha <= kMaxFractionalOrder;
    return in_range && event_->maps().supports_subsampled_order(alpha);
  }
  if (is_integer(alpha)) {
    return alpha >= 2 && alpha <= (subsampled_laplace() ? kMaxSubsampledLaplaceOrder : kMaxRdpOrder) && has_rdp();
  }
  if (alpha <= 1 || alpha > kMaxFractionalOrder) return false;
  if (!subsampled_) return true;
  if (!gaussian_) return has_rdp();
  return q_ == 1 || mu_ <= fractional_order_max_mu();
}

// A subsampled registry law's own bound (LawPrivacy::subsampled_rdp), where it has one.
Interval RdpEvent::law_subsampled_rdp(const mpq_class& alpha, mpfr_prec_t precision) const {
  if (!supports_order(alpha)) {
    throw ParameterError("route", "route: the rdp route has no bound for " + describe() + " at order " +
                                      abbreviate(to_string(alpha)) + " (use --route pld where the law has atoms)");
  }
  return event_->maps().subsampled_rdp(q_, alpha, precision);
}

Interval RdpEvent::subsampled_laplace_rdp_checked(const mpq_class& alpha, mpfr_prec_t precision) const {
  const mpq_class& eps = event_->pure_epsilon();
  if (q_ == 1) {
    return is_integer(alpha) ? laplace_rdp(eps, alpha.get_num().get_ui(), precision)
                             : laplace_rdp_at(eps, alpha, precision);
  }
  if (!has_rdp()) {
    throw ParameterError("route", "route: the rdp route covers poisson-laplace events up to sensitivity/scale = 1000, "
                                  "not " + describe() + ": use --route pld");
  }
  if (!supports_order(alpha)) {
    throw ParameterError::out_of_range("order", abbreviate(to_string(alpha)),
                                       "1 < order <= 256 for a poisson-laplace event");
  }
  return subsampled_laplace_rdp(eps, q_, alpha, precision);
}

bool RdpEvent::rdp_is_exact_at(const mpq_class& alpha) const {
  if (subsampled_ && q_ == 1 && !gaussian_) return RdpEvent::plain(*event_).rdp_is_exact_at(alpha);
  if (is_integer(alpha)) return rdp_is_exact();
  return rdp_is_exact() && (subsampled_ || event_->maps().rdp_is_exact_at(alpha));
}

Interval RdpEvent::rdp(const mpq_class& alpha, Neighbouring relation, mpfr_prec_t precision) const {
  if (is_integer(alpha)) {
    if (alpha < 2 || alpha > kMaxRdpOrder) {
      throw ParameterError::out_of_range("order", abbreviate(to_string(alpha)),
                                         "an integer order 2 <= order <= 65536 or a fraction 1 < order <= 256");
    }
    return rdp(alpha.get_num().get_ui(), relation, precision);
  }
  if (alpha <= 1 || alpha > kMaxFractionalOrder) {
    throw ParameterError::out_of_range("order", abbreviate(to_string(alpha)),
                                       "a fractional order 1 < order <= 256 (or an integer 2..65536)");
  }
  if (subsampled_) {
    if (relation != Neighbouring::kAddRemove) {
      throw ParameterError("neighbouring",
                           "neighbouring = replace-one is not supported for Poisson-subsampled "
                           "events: allowed add-remove (MTZ19's bound is for add/remove-one)");
    }
    if (q_ == 1 && !gaussian_) return RdpEvent::plain(*event_).rdp(alpha, relation, precision);  // every record sampled
    if (subsampled_laplace()) return subsampled_laplace_rdp_checked(alpha, precision);
    if (own_subsampled_bound()) return law_subsampled_rdp(alpha, precision);
    if (!supports_order(alpha)) {
      throw ParameterError("order", "order: fractional orders are not available for " + describe() +
                                        " (allowed: integer orders; a subsampled Gaussian needs sensitivity/sigma <= 16, "
                                        "a subsampled discrete Gaussian / Laplace is limited as at integer orders)");
    }
    if (!gaussian_) return poisson_discrete_rdp(*event_, q_, alpha, precision);
    if (q_ == 1) return Interval(mpq_class(alpha * mu_ * mu_ / 2), precision);
    return sampled_gaussian_rdp_fractional(mu_, q_, alpha, precision);
  }
  return plain_rdp(alpha, precision);
}

// A plain event's RDP at any order a > 1 (integer or not): the maps' own (the built-in events'
// closed forms are in laws/: exact for the Gaussian, GDP, Laplace and, at integer orders, the
// discrete Gaussian; the zCDP bound's value for pure DP, discrete Laplace and zCDP).
Interval RdpEvent::plain_rdp(const mpq_class& a, mpfr_prec_t precision) const {
  return event_->maps().rdp(a, precision);
}

}  // namespace exactdp::accounting
