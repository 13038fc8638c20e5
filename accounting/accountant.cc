#include <exactdp/accounting/accountant.h>

#include <functional>
#include <optional>
#include <stdexcept>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/gdp_conversions.h>
#include <exactdp/accounting/gdp_transformation.h>
#include <exactdp/accounting/laplace_profile.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/profile_inversion.h>
#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

const mpz_class kMaxTotalCount("1000000000000");  // 10^12

// A route's answer, or nullopt when the route does not apply.
using Route = std::function<std::optional<Certified>()>;

}  // namespace

// ---- events --------------------------------------------------------------------------------

PrivacyEvent::PrivacyEvent(std::shared_ptr<const LawPrivacy> maps)
    : maps_(std::move(maps)), pure_(maps_->pure_epsilon()), mu_(maps_->exact_mu()) {}

PrivacyEvent PrivacyEvent::of_law(std::shared_ptr<const LawPrivacy> maps) {
  if (!maps) throw std::logic_error("PrivacyEvent::of_law: no maps");
  return PrivacyEvent(std::move(maps));
}

const mpq_class& PrivacyEvent::pure_epsilon() const {
  if (!pure_) throw std::logic_error("PrivacyEvent::pure_epsilon of " + describe() + ": not a pure-DP event");
  return *pure_;
}

const mpq_class& PrivacyEvent::exact_mu() const {
  if (!mu_) throw std::logic_error("PrivacyEvent::exact_mu of " + describe() + ": not exactly mu-GDP");
  return *mu_;
}

mpq_class PrivacyEvent::rho() const {
  if (pure_) return *pure_ * *pure_ / 2;  // eps^2 / 2 (BS16 Prop. 3.3)
  if (std::optional<mpq_class> rho = maps_->rho()) return *rho;
  throw ParameterError("event", "event: " + describe() + " has no zCDP bound (it is not pure DP)");
}

bool PrivacyEvent::has_rho() const { return pure_.has_value() || maps_->rho().has_value(); }

// ---- accountant ----------------------------------------------------------------------------

Accountant::Accountant(ZivOptions options) : options_(std::move(options)) { options_.validate(); }

Accountant& Accountant::compose(const PrivacyEvent& event, unsigned long count) {
  if (count < 1) throw ParameterError::out_of_range("count", "0", "count >= 1");
  mpz_class total(count);
  for (const auto& [e, n] : events_) total += n;
  if (total > kMaxTotalCount) {
    throw LimitError("count", "the accountant holds at most 10^12 compositions in all");
  }
  events_.emplace_back(event, count);
  return *this;
}

namespace {

struct Summary {
  bool all_pure = true, all_gaussian_like = true, all_gdp_expressible = true;
  mpz_class total = 0;
  mpq_class eps_max = 0, eps_sum = 0, rho = 0;
  bool homogeneous_pure = true;
  bool has_rho = true;  // every event has a zCDP bound (a law event without pure DP may not)
};

Summary summarize(const std::vector<std::pair<PrivacyEvent, unsigned long>>& events) {
  Summary s;
  bool first_pure = true;
  for (const auto& [e, n] : events) {
    const mpz_class count(n);
    s.total += count;
    if (e.has_rho()) {
      s.rho += e.rho() * mpq_class(count);
    } else {
      s.has_rho = false;
    }
    if (e.is_pure()) {
      s.eps_sum += e.pure_epsilon() * mpq_class(count);
      if (first_pure) {
        s.eps_max = e.pure_epsilon();
        first_pure = false;
      } else if (e.pure_epsilon() != s.eps_max) {
        s.homogeneous_pure = false;
        if (e.pure_epsilon() > s.eps_max) s.eps_max = e.pure_epsilon();
      }
    } else {
      s.all_pure = false;
    }
    if (!e.is_gaussian_like()) s.all_gaussian_like = false;
    if (!e.is_gaussian_like() && !e.is_pure()) s.all_gdp_expressible = false;
  }
  return s;
}

// mu of the composition (an interval containing it) for GDP-expressible event lists.
Interval composed_mu(const std::vector<std::pair<PrivacyEvent, unsigned long>>& events,
                     const ZivOptions& options) {
  std::vector<std::pair<Interval, unsigned long>> parts;
  for (const auto& [e, n] : events) {
    if (e.is_gaussian_like()) {
      parts.emplace_back(Interval(e.exact_mu(), 256), n);
    } else if (e.maps().laplace_noise() &&
               e.pure_epsilon() >= mpq_class(1, 1'000'000) && e.pure_epsilon() <= 30) {
      // (Outside [1e-6, 30] the measurement is slow or pointless: the eps-DP map below is used.)
      // The Laplace mechanism is tighter than the eps-DP worst case: its GDPT on [0, eps0]
      // (delta = 0 beyond, so the head is the whole profile) brackets its exact mu
      // (gdp_bridge Section 5.1, "GDP (Lap)"); the bracket's upper end is a valid mu.
      GdptOptions g;
      g.eps_max = e.pure_epsilon();
      g.tolerance = mpq_class(1, 10'000);
      const mpq_class eps0 = e.pure_epsilon();
      const GdptResult r = gdpt_measure(
          [eps0](const mpq_class& eps, mpfr_prec_t p) {
            return laplace_delta_at(eps, mpq_class(1), eps0, p);  // scale 1, Delta = eps0
          },
          g);
      if (r.bounded) {
        parts.emplace_back(r.mu, n);
      } else {
        parts.emplace_back(gdp_mu_of_pure_dp(e.pure_epsilon(), options).value, n);
      }
    } else {
      parts.emplace_back(gdp_mu_of_pure_dp(e.pure_epsilon(), options).value, n);
    }
  }
  return gdp_compose_counted(parts);
}

// The routes that applied, each with its certified answer (or none when its conversion's range
// was exceeded); best() is the one with the smallest upper end.
class RouteChoice {
 public:
  void add(const std::string& name, std::optional<Certified> c, bool exact) {
    if (!c) return;
    const std::string label = name + (exact ? " (exact)" : "");
    best_.considered.push_back({label, c->value, exact, c->tolerance_met});
    if (!have_ || mpfr_cmp(c->value.upper(), best_.value.upper()) < 0) {
      best_.value = c->value;
      best_.route = label;
      best_.tolerance_met = c->tolerance_met;
      have_ = true;
    }
  }

  // A route that applied but whose conversion refused its range (unless_out_of_range): if no
  // route answers, that refusal is the answer (a ParameterError naming the parameter).
  void refused(const ParameterError& e) {
    if (!refusal_) refusal_ = e;
  }

  [[nodiscard]] AccountantAnswer best() const {
    if (!have_ && refusal_) {
      throw ParameterError(refusal_->parameter(),
                           std::string("no route answers this composition: the composed ") + refusal_->what() +
                               " (fewer events or more noise per event)");
    }
    if (!have_) throw std::logic_error("Accountant: no route applied");
    return best_;
  }

 private:
  AccountantAnswer best_{Interval(kDefaultPrecision), "", true, {}};
  bool have_ = false;
  std::optional<ParameterError> refusal_;
};

// The exact answer 0 (no privacy loss, or eps beyond every loss).
Certified certified_zero() { return Certified{Interval(0L, kDefaultPrecision), true, kDefaultPrecision}; }

// A conversion whose range may be exceeded (zCDP for huge rho): no answer instead of an error
// (the refusal is kept: it is the answer when no other route applies).
template <class Conversion>
std::optional<Certified> unless_out_of_range(RouteChoice& routes, Conversion conversion) {
  try {
    return conversion();
  } catch (const ParameterError& e) {
    routes.refused(e);
    return std::nullopt;  // beyond the conversion's range: route not available
  }
}

// One query (epsilon at a delta, or delta at an epsilon) by each route that applies; the
// bookkeeping (which routes apply, zero cases, the best answer) is written once, in answer().
struct RouteQueries {
  // From the composed mu (> 0 at its upper end); nullopt when the route does not apply.
  std::function<std::optional<Certified>(const Interval& mu)> gdp;
  // KOV for total compositions of eps_max-DP (eps_max > 0).
  std::function<Certified(const Summary& s)> kov;
  // Basic composition of sum eps-DP, at a working precision.
  std::function<Interval(const Summary& s, mpfr_prec_t p)> basic;
  // From rho (may exceed the conversion's range: then no answer).
  std::function<Certified(const Summary& s)> zcdp;
  // From a single law event's own profile (law_privacy.h delta_at; nullopt: no answer).
  std::function<std::optional<Certified>(const LawPrivacy& maps)> profile;
};

// The one event of a composition that is a single registry-law event without pure DP (pure
// ones have the kov route, exact for one event), else nullptr.
const LawPrivacy* single_law_event(const std::vector<std::pair<PrivacyEvent, unsigned long>>& events) {
  if (events.size() != 1 || events[0].second != 1) return nullptr;
  const PrivacyEvent& e = events[0].first;
  if (!e.maps().offers_profile_route() || !e.maps().has_profile() || e.is_pure()) return nullptr;
  return &e.maps();
}

AccountantAnswer answer(const std::vector<std::pair<PrivacyEvent, unsigned long>>& events,
                        const ZivOptions& options, const RouteQueries& q) {
  if (events.empty()) return {Interval(0L, kDefaultPrecision), "empty (no events)", true, {}};
  const Summary s = summarize(events);
  RouteChoice routes;
  if (s.all_gdp_expressible) {
    const Interval mu = composed_mu(events, options);
    routes.add("gdp", mpfr_sgn(mu.upper()) == 0 ? certified_zero() : q.gdp(mu), s.all_gaussian_like);
  }
  if (s.all_pure && s.total <= mpz_class(kMaxCompositions)) {
    routes.add("kov", s.eps_max == 0 ? certified_zero() : q.kov(s), s.homogeneous_pure);
  }
  if (s.all_pure) {
    routes.add("basic", evaluate_to_tolerance([&](mpfr_prec_t p) { return q.basic(s, p); }, options),
               false);
  }
  if (s.has_rho) routes.add("zcdp", unless_out_of_range(routes, [&] { return q.zcdp(s); }), false);
  if (const LawPrivacy* maps = single_law_event(events)) routes.add("profile", q.profile(*maps), false);
  return routes.best();
}

}  // namespace

AccountantAnswer Accountant::get_epsilon(const mpq_class& delta) const {
  validate_delta(delta);
  RouteQueries q;
  q.gdp = [&](const Interval& mu) -> std::optional<Certified> {
    if (mpfr_sgn(mu.lower()) <= 0) return std::nullopt;
    return gdp_epsilon(mu, delta, options_);
  };
  q.kov = [&](const Summary& s) { return kov_epsilon(s.eps_max, s.total.get_ui(), delta, options_); };
  // Theorem 2.1: E + log1p(-delta (1 + e^-E)), or 0.
  q.basic = [&](const Summary& s, mpfr_prec_t p) {
    const Interval e(s.eps_sum, p);
    const Interval u = Interval(delta, p) * (exp(-e) + mpq_class(1));
    if (mpfr_cmp_ui(u.lower(), 1) >= 0) return Interval(0L, p);
    if (mpfr_cmp_ui(u.upper(), 1) >= 0) {
      Interval r(0L, p);
      const Interval at = e + log1p(-Interval::point(u.lower(), p));
      mpfr_set(r.upper(), at.upper(), MPFR_RNDU);
      return max(r, Interval(0L, p));
    }
    return max(e + log1p(-u), Interval(0L, p));
  };
  q.zcdp = [&](const Summary& s) { return zcdp_epsilon(s.rho, delta, options_).bound; };
  q.profile = [&](const LawPrivacy& maps) {
    return profile_epsilon([&](const mpq_class& e, mpfr_prec_t p) { return maps.delta_at(e, p); }, delta, options_);
  };
  return answer(events_, options_, q);
}

AccountantAnswer Accountant::get_delta(const mpq_class& epsilon) const {
  require_nonnegative_at_most("epsilon", epsilon, mpq_class(1'000'000), "10^6");
  RouteQueries q;
  q.gdp = [&](const Interval& mu) -> std::optional<Certified> {
    return evaluate_to_tolerance(
        [&](mpfr_prec_t p) {
          Interval m = mu;
          m.set_precision(p);
          return gdp_delta_at(Interval(epsilon, p), m, p);
        },
        options_);
  };
  q.kov = [&](const Summary& s) { return kov_delta(s.eps_max, s.total.get_ui(), epsilon, options_); };
  // (e^E - e^eps) / (1 + e^E) = -expm1(eps - E) / (1 + e^-E) for eps < E, else 0.
  q.basic = [&](const Summary& s, mpfr_prec_t p) {
    if (epsilon >= s.eps_sum) return Interval(0L, p);
    const Interval num = -expm1(Interval(mpq_class(epsilon - s.eps_sum), p));
    const Interval den = exp(-Interval(s.eps_sum, p)) + mpq_class(1);
    return clamp(num / den, mpq_class(0), mpq_class(1));
  };
  q.zcdp = [&](const Summary& s) { return zcdp_delta(s.rho, epsilon, options_).bound; };
  q.profile = [&](const LawPrivacy& maps) -> std::optional<Certified> {
    return evaluate_to_tolerance([&](mpfr_prec_t p) { return maps.delta_at(epsilon, p); }, options_);
  };
  return answer(events_, options_, q);
}

}  // namespace exactdp::accounting
