#include <exactdp/laws/continuous/laplace_privacy.h>

#include <memory>
#include <optional>
#include <string>

#include <exactdp/accounting/laplace_profile.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {
namespace {

class LaplacePrivacy final : public accounting::LawPrivacy {
 public:
  LaplacePrivacy(const mpq_class& scale, const mpq_class& sensitivity)
      : scale_(scale), sensitivity_(sensitivity), eps_(sensitivity / scale) {}
  std::string describe() const override {
    return "laplace(scale=" + abbreviate(to_string(scale_)) + ", sensitivity=" + abbreviate(to_string(sensitivity_)) + ")";
  }
  std::string describe_subsampled(const std::string& q) const override {
    return "poisson_laplace(scale=" + abbreviate(to_string(scale_)) + ", q=" + q +
           ", sensitivity=" + abbreviate(to_string(sensitivity_)) + ")";
  }
  Interval rdp(const mpq_class& a, mpfr_prec_t p) const override { return accounting::laplace_rdp_at(eps_, a, p); }
  bool rdp_is_exact_at(const mpq_class& /*alpha*/) const override { return true; }
  std::optional<mpq_class> pure_epsilon() const override { return eps_; }
  bool has_profile() const override { return true; }
  Interval delta_at(const mpq_class& eps, mpfr_prec_t p) const override {
    return accounting::laplace_delta_at(eps, scale_, sensitivity_, p);
  }
  accounting::Certified delta(const mpq_class& eps, const accounting::ZivOptions& o) const override {
    return accounting::laplace_delta(eps, scale_, sensitivity_, o);
  }
  bool offers_profile_route() const override { return false; }
  std::optional<accounting::LaplaceNoise> laplace_noise() const override {
    return accounting::LaplaceNoise{scale_, sensitivity_};
  }
  bool has_atoms() const override { return true; }  // the closed-form noise's (pld_noise_atoms.h)
  bool symmetric_pair() const override { return true; }

 private:
  mpq_class scale_, sensitivity_, eps_;
};

}  // namespace

accounting::PrivacyEvent laplace_event(const mpq_class& scale, const mpq_class& sensitivity) {
  accounting::require_positive("scale", scale);
  accounting::require_positive("sensitivity", sensitivity);
  return accounting::PrivacyEvent::of_law(std::make_shared<LaplacePrivacy>(scale, sensitivity));
}

}  // namespace exactdp::laws
