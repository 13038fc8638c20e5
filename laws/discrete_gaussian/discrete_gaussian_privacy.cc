#include <exactdp/laws/discrete_gaussian/discrete_gaussian_privacy.h>

#include <memory>
#include <optional>
#include <string>

#include <exactdp/accounting/discrete_gaussian_profile.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {
namespace {

class DiscreteGaussianPrivacy final : public accounting::LawPrivacy {
 public:
  DiscreteGaussianPrivacy(const mpq_class& sigma2, const mpz_class& sensitivity)
      : sigma2_(sigma2), sensitivity_(sensitivity), rho_(accounting::zcdp_rho_discrete_gaussian(sigma2, sensitivity)) {}
  std::string describe() const override {
    return "discrete_gaussian(sigma2=" + abbreviate(to_string(sigma2_)) +
           ", sensitivity=" + abbreviate(to_string(sensitivity_)) + ")";
  }
  std::string describe_subsampled(const std::string& q) const override {
    return "poisson_discrete_gaussian(sigma2=" + abbreviate(to_string(sigma2_)) + ", q=" + q +
           ", sensitivity=" + abbreviate(to_string(mpq_class(sensitivity_))) + ")";
  }
  Interval rdp(const mpq_class& a, mpfr_prec_t p) const override { return Interval(mpq_class(a * rho_), p); }
  bool rdp_is_exact_at(const mpq_class& alpha) const override { return alpha.get_den() == 1; }
  std::optional<mpq_class> rho() const override { return rho_; }
  bool has_profile() const override { return true; }
  Interval delta_at(const mpq_class& eps, mpfr_prec_t p) const override {
    return accounting::discrete_gaussian_delta_at(eps, sigma2_, sensitivity_, p);
  }
  accounting::Certified delta(const mpq_class& eps, const accounting::ZivOptions& o) const override {
    return accounting::discrete_gaussian_delta(eps, sigma2_, sensitivity_, o);
  }
  bool offers_profile_route() const override { return false; }
  std::optional<accounting::DiscreteGaussianNoise> discrete_gaussian_noise() const override {
    return accounting::DiscreteGaussianNoise{sigma2_, sensitivity_};
  }
  bool has_atoms() const override { return true; }  // the closed-form noise's (pld_noise_atoms.h)
  bool symmetric_pair() const override { return true; }

 private:
  mpq_class sigma2_;
  mpz_class sensitivity_;
  mpq_class rho_;
};

}  // namespace

accounting::PrivacyEvent discrete_gaussian_event(const mpq_class& sigma2, const mpz_class& sensitivity) {
  accounting::require_positive("sigma2", sigma2);
  accounting::require_integer_sensitivity(sensitivity);
  return accounting::PrivacyEvent::of_law(std::make_shared<DiscreteGaussianPrivacy>(sigma2, sensitivity));
}

}  // namespace exactdp::laws
