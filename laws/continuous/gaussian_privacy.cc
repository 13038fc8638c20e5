#include <exactdp/laws/continuous/gaussian_privacy.h>

#include <memory>
#include <optional>
#include <string>

#include <exactdp/accounting/gaussian_profile.h>
#include <exactdp/accounting/gdp_transformation.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {
namespace {

// Exactly mu-GDP: the maps shared by the Gaussian noise and the bare guarantee.
class MuGdpPrivacy : public accounting::LawPrivacy {
 public:
  MuGdpPrivacy(mpq_class mu, std::string text) : mu_(std::move(mu)), text_(std::move(text)) {}
  std::string describe() const override { return text_; }
  Interval rdp(const mpq_class& a, mpfr_prec_t p) const override { return Interval(mpq_class(a * mu_ * mu_ / 2), p); }
  bool rdp_is_exact_at(const mpq_class& /*alpha*/) const override { return true; }
  std::optional<mpq_class> rho() const override { return mpq_class(mu_ * mu_ / 2); }
  std::optional<mpq_class> exact_mu() const override { return mu_; }
  bool has_profile() const override { return true; }
  Interval delta_at(const mpq_class& eps, mpfr_prec_t p) const override { return accounting::gdp_profile(mu_)(eps, p); }
  accounting::Certified delta(const mpq_class& eps, const accounting::ZivOptions& o) const override {
    return accounting::gdp_delta(eps, mu_, o);
  }
  bool offers_profile_route() const override { return false; }
  bool is_noise_law() const override { return false; }
  bool symmetric_pair() const override { return true; }

 protected:
  mpq_class mu_;
  std::string text_;
};

class GaussianPrivacy final : public MuGdpPrivacy {
 public:
  GaussianPrivacy(const mpq_class& sigma, const mpq_class& sensitivity)
      : MuGdpPrivacy(sensitivity / sigma, "gaussian(sigma=" + abbreviate(to_string(sigma)) + ", sensitivity=" +
                                              abbreviate(to_string(sensitivity)) + ")"),
        sigma_(sigma), sensitivity_(sensitivity) {}
  Interval delta_at(const mpq_class& eps, mpfr_prec_t p) const override {
    return accounting::gaussian_delta_at(eps, sigma_, sensitivity_, p);
  }
  accounting::Certified delta(const mpq_class& eps, const accounting::ZivOptions& o) const override {
    return accounting::gaussian_delta(eps, sigma_, sensitivity_, o);
  }
  bool is_noise_law() const override { return true; }
  std::optional<accounting::GaussianNoise> gaussian_noise() const override {
    return accounting::GaussianNoise{sigma_, sensitivity_};
  }

 private:
  mpq_class sigma_, sensitivity_;
};

}  // namespace

accounting::PrivacyEvent gaussian_event(const mpq_class& sigma, const mpq_class& sensitivity) {
  accounting::require_positive("sigma", sigma);
  accounting::require_positive("sensitivity", sensitivity);
  return accounting::PrivacyEvent::of_law(std::make_shared<GaussianPrivacy>(sigma, sensitivity));
}

accounting::PrivacyEvent gdp_event(const mpq_class& mu) {
  accounting::require_positive("mu", mu);
  return accounting::PrivacyEvent::of_law(
      std::make_shared<MuGdpPrivacy>(mu, "gdp(mu=" + abbreviate(to_string(mu)) + ")"));
}

}  // namespace exactdp::laws
