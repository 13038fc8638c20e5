// accountant.h — a privacy accountant in the shape of Google's dp_accounting
// (compose(event, count), get_epsilon(delta), get_delta(epsilon)), certified.
//
// Events: an event is a law's privacy maps (law_privacy.h), built by laws/events.h
// (gaussian_event, discrete_gaussian_event, laplace_event, discrete_laplace_event, pure_dp_event,
// zcdp_event, gdp_event) or by a registry law (laws::Law::privacy_event); the routes below ask
// the maps' capabilities (pure epsilon, rho, exact mu, the profile), never a kind.
//
// Routes. Every route below yields a VALID bound for the whole composition; the accountant
// evaluates each one that applies and answers with the smallest certified upper end, naming the
// route (and listing the others). Correct before clever: no route is used outside its theorem.
//   "gdp"   every event is Gaussian, mu-GDP or pure DP: mu = sqrt(sum n_i mu_i^2) (DRS Cor. 3.3),
//           pure eps -> mu = 2 Phi^-1(e^eps/(1+e^eps)) (upper end); a Laplace event gets the
//           smaller mu of its own profile (if 1e-6 <= Delta/b <= 30), measured by the GDPT on
//           [0, Delta/b] to 1e-4
//           (gdp_transformation.h; the bracket's upper end). EXACT when all events are
//           Gaussian or GDP (the composed profile IS the mu-GDP profile).
//   "kov"   every event is pure DP (incl. Laplace, discrete Laplace) and the total count is
//           <= 10^6: Kairouz–Oh–Viswanath with k = total count and eps = the largest eps_i
//           (each mechanism is then eps-DP). EXACT (optimal) when all eps_i are equal.
//   "basic" every event is pure DP: (sum n_i eps_i, 0)-DP, and for a smaller eps the
//           E-DP profile (e^E - e^eps)/(1 + e^E) (gdp_bridge Theorem 2.1).
//   "zcdp"  every event has_rho(): rho = sum n_i rho_i (pure eps -> eps^2/2, mu-GDP -> mu^2/2, Gaussian ->
//           Delta^2/(2 sigma^2)), converted by CKS20 Corollary 13 (zcdp.h).
//   "profile" ONE event (count 1), not pure DP, whose maps offers_profile_route() (a law's own):
//           its own delta_at() (law_privacy.h; e.g. vector-discrete-gaussian's Theorem 3), inverted
//           by certified bisection for epsilon (profile_inversion.h).
// Answers are Intervals containing the chosen route's value; the upper end is the number to use.
//
// Limits: counts >= 1, total count <= 10^12 (the "kov" route only up to 10^6).
// Thread-safety: const methods may run concurrently; compose() is not thread-safe.
#pragma once

#include <gmpxx.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/law_privacy.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

class PrivacyEvent {
 public:
  // The event of these maps (non-null).
  [[nodiscard]] static PrivacyEvent of_law(std::shared_ptr<const LawPrivacy> maps);

  // epsilon of a pure-DP event (is_pure()): std::logic_error for another.
  [[nodiscard]] const mpq_class& pure_epsilon() const;
  // The rho this event satisfies (exact), when has_rho(): eps^2/2 of a pure-DP event (BS16
  // Prop. 3.3), else the maps' own rho (ParameterError naming "event" when there is none).
  [[nodiscard]] mpq_class rho() const;
  [[nodiscard]] bool has_rho() const;
  [[nodiscard]] bool is_pure() const { return pure_.has_value(); }
  [[nodiscard]] bool is_gaussian_like() const { return mu_.has_value(); }  // exactly mu-GDP
  // mu of an exactly mu-GDP event (is_gaussian_like()): std::logic_error for another.
  [[nodiscard]] const mpq_class& exact_mu() const;
  [[nodiscard]] std::string describe() const { return maps_->describe(); }
  // The maps, for the capabilities the routes ask (law_privacy.h).
  [[nodiscard]] const LawPrivacy& maps() const { return *maps_; }
  [[nodiscard]] const std::shared_ptr<const LawPrivacy>& shared_maps() const { return maps_; }

 private:
  explicit PrivacyEvent(std::shared_ptr<const LawPrivacy> maps);
  std::shared_ptr<const LawPrivacy> maps_;
  std::optional<mpq_class> pure_;  // maps_->pure_epsilon(), read once
  std::optional<mpq_class> mu_;    // maps_->exact_mu(), read once
};

struct RouteValue {
  std::string route;
  Interval value;
  bool exact_route = false;  // the route's value is the composition's exact value
  bool tolerance_met = true;  // the route's value met the requested relative width
};

struct AccountantAnswer {
  Interval value;            // of the chosen route; value.upper is the number to use
  std::string route;         // "gdp", "kov", "basic" or "zcdp", with " (exact)" if exact
  bool tolerance_met = true;
  std::vector<RouteValue> considered;  // every route evaluated, in order
};

class Accountant {
 public:
  explicit Accountant(ZivOptions options = {});

  // Records `count` (>= 1) more uses of the event. Returns *this.
  Accountant& compose(const PrivacyEvent& event, unsigned long count = 1);

  // The smallest epsilon over the applicable routes with (epsilon, delta)-DP, 0 < delta < 1.
  [[nodiscard]] AccountantAnswer get_epsilon(const mpq_class& delta) const;
  // The smallest delta over the applicable routes with (epsilon, delta)-DP, epsilon >= 0.
  [[nodiscard]] AccountantAnswer get_delta(const mpq_class& epsilon) const;

  [[nodiscard]] const std::vector<std::pair<PrivacyEvent, unsigned long>>& events() const {
    return events_;
  }

 private:
  ZivOptions options_;
  std::vector<std::pair<PrivacyEvent, unsigned long>> events_;
};

}  // namespace exactdp::accounting
