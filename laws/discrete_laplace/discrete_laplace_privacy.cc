#include <exactdp/laws/discrete_laplace/discrete_laplace_privacy.h>

#include <memory>
#include <optional>
#include <string>

#include <exactdp/accounting/discrete_laplace_profile.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {
namespace {

class DiscreteLaplacePrivacy final : public accounting::LawPrivacy {
 public:
  DiscreteLaplacePrivacy(const mpq_class& scale, const mpz_class& sensitivity)
      : scale_(scale), sensitivity_(sensitivity), eps_(mpq_class(sensitivity) / scale) {}
  std::string describe() const override {
    return "discrete_laplace(scale=" + abbreviate(to_string(scale_)) +
           ", sensitivity=" + abbreviate(to_string(sensitivity_)) + ")";
  }
  std::string describe_subsampled(const std::string& q) const override {
    return "poisson_discrete_laplace(scale=" + abbreviate(to_string(scale_)) + ", q=" + q +
           ", sensitivity=" + abbreviate(to_string(mpq_class(sensitivity_))) + ")";
  }
  Interval rdp(const mpq_class& a, mpfr_prec_t p) const override { return accounting::pure_dp_rdp_bound(eps_, a, p); }
  std::optional<mpq_class> pure_epsilon() const override { return eps_; }
  bool has_profile() const override { return true; }
  Interval delta_at(const mpq_class& eps, mpfr_prec_t p) const override {
    return accounting::discrete_laplace_delta_at(eps, scale_, sensitivity_, p);
  }
  accounting::Certified delta(const mpq_class& eps, const accounting::ZivOptions& o) const override {
    return accounting::discrete_laplace_delta(eps, scale_, sensitivity_, o);
  }
  bool offers_profile_route() const override { return false; }
  std::optional<accounting::DiscreteLaplaceNoise> discrete_laplace_noise() const override {
    return accounting::DiscreteLaplaceNoise{scale_, sensitivity_};
  }
  bool has_atoms() const override { return true; }  // the closed-form noise's (pld_noise_atoms.h)
  bool symmetric_pair() const override { return true; }

 private:
  mpq_class scale_;
  mpz_class sensitivity_;
  mpq_class eps_;
};

}  // namespace

accounting::PrivacyEvent discrete_laplace_event(const mpq_class& scale, const mpz_class& sensitivity) {
  accounting::require_positive("scale", scale);
  accounting::require_integer_sensitivity(sensitivity);
  return accounting::PrivacyEvent::of_law(std::make_shared<DiscreteLaplacePrivacy>(scale, sensitivity));
}

}  // namespace exactdp::laws
