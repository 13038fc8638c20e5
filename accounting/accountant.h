// accountant.h — a privacy accountant in the shape of Google's dp_accounting
// (compose(event, count), get_epsilon(delta), get_delta(epsilon)), certified.
//
// Events (validated when built, ParameterError naming the parameter):
//   gaussian(sigma, Delta)            continuous Gaussian noise: exactly mu-GDP, mu = Delta/sigma
//   discrete_gaussian(sigma2, Delta)  rho = Delta^2/(2 sigma2)-zCDP (CKS20 Theorem 4)
//   laplace(scale, Delta)             (Delta/scale)-DP
//   discrete_laplace(scale, Delta)    (Delta/scale)-DP (P[x] ~ e^(-|x|/scale), CKS20)
//   pure_dp(epsilon)                  epsilon-DP
//   zcdp(rho)                         rho-zCDP
//   gdp(mu)                           mu-GDP
//   of_law(maps)                      a registry law's own maps (law_privacy.h): its pure
//                                     epsilon when it has one (then rho = eps^2/2), its RDP and
//                                     PLD atoms (laws/ builds these; e.g. the staircase)
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
//   "profile" the composition is ONE registry-law event (count 1) without pure DP: its own
//           delta_at() (law_privacy.h; e.g. vector-discrete-gaussian's Theorem 3), inverted by
//           certified bisection for epsilon (profile_inversion.h).
// Answers are Intervals containing the chosen route's value; the upper end is the number to use.
//
// Limits: counts >= 1, total count <= 10^12 (the "kov" route only up to 10^6).
// Thread-safety: const methods may run concurrently; compose() is not thread-safe.
#pragma once

#include <gmpxx.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/law_privacy.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

class PrivacyEvent {
 public:
  // The accounting layer's closed forms, and kLaw: a registry law's own maps (law_maps()).
  enum class Kind { kGaussian, kDiscreteGaussian, kLaplace, kDiscreteLaplace, kPureDp, kZcdp, kGdp, kLaw };

  [[nodiscard]] static PrivacyEvent gaussian(const mpq_class& sigma,
                                             const mpq_class& sensitivity = 1);
  [[nodiscard]] static PrivacyEvent discrete_gaussian(const mpq_class& sigma2,
                                                      const mpz_class& sensitivity = 1);
  [[nodiscard]] static PrivacyEvent laplace(const mpq_class& scale,
                                            const mpq_class& sensitivity = 1);
  [[nodiscard]] static PrivacyEvent discrete_laplace(const mpq_class& scale,
                                                     const mpz_class& sensitivity = 1);
  [[nodiscard]] static PrivacyEvent pure_dp(const mpq_class& epsilon);
  [[nodiscard]] static PrivacyEvent zcdp(const mpq_class& rho);
  [[nodiscard]] static PrivacyEvent gdp(const mpq_class& mu);
  // A registry law's event (non-null maps).
  [[nodiscard]] static PrivacyEvent of_law(std::shared_ptr<const LawPrivacy> maps);

  [[nodiscard]] Kind kind() const { return kind_; }
  // epsilon of a pure-DP event (Laplace: Delta/scale); only for kLaplace, kDiscreteLaplace,
  // kPureDp (is_pure()): std::logic_error for another kind.
  [[nodiscard]] const mpq_class& pure_epsilon() const;
  // The rho this event satisfies (exact), when has_rho(): every kind but a kLaw event with
  // neither pure DP nor a rho of its own (LawPrivacy::rho(); ParameterError naming "event" then).
  [[nodiscard]] mpq_class rho() const;
  [[nodiscard]] bool has_rho() const;
  [[nodiscard]] bool is_pure() const;
  [[nodiscard]] bool is_gaussian_like() const;  // kGaussian or kGdp: exactly mu-GDP
  // mu for kGaussian (Delta/sigma) and kGdp (is_gaussian_like()), exact: std::logic_error for
  // another kind.
  [[nodiscard]] const mpq_class& exact_mu() const;
  [[nodiscard]] std::string describe() const;
  // The factory's noise parameter (sigma, sigma2 or scale; 0 for pure-dp, zcdp, gdp) and
  // sensitivity (1 for pure-dp, zcdp, gdp), exactly as given: what a privacy-loss
  // discretisation of the noise law needs (accounting/pld).
  [[nodiscard]] const mpq_class& noise_parameter() const { return noise_; }
  [[nodiscard]] const mpq_class& sensitivity() const { return sensitivity_; }
  // The law's maps of a kLaw event (std::logic_error for another kind).
  [[nodiscard]] const LawPrivacy& law_maps() const;

 private:
  PrivacyEvent(Kind kind, mpq_class value, std::string text, mpq_class noise = 0, mpq_class sensitivity = 1)
      : kind_(kind), value_(std::move(value)), text_(std::move(text)), noise_(std::move(noise)),
        sensitivity_(std::move(sensitivity)) {}
  Kind kind_;
  mpq_class value_;  // mu (Gaussian, GDP), epsilon (pure kinds), rho (zCDP, discrete Gaussian)
  std::string text_;
  mpq_class noise_;        // sigma, sigma2 or scale
  mpq_class sensitivity_;
  std::shared_ptr<const LawPrivacy> maps_;  // kLaw only
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
