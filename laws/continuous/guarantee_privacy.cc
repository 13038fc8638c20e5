#include <exactdp/laws/continuous/guarantee_privacy.h>

#include <memory>
#include <optional>
#include <string>

#include <exactdp/accounting/gdp_transformation.h>
#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/accounting/rdp.h>
#include <exactdp/accounting/zcdp.h>
#include <exactdp/core/rational.h>

namespace exactdp::laws {
namespace {

// A bare guarantee (no noise pair): epsilon-DP or rho-zCDP.
class GuaranteePrivacy final : public accounting::LawPrivacy {
 public:
  GuaranteePrivacy(std::optional<mpq_class> eps, std::optional<mpq_class> rho, std::string text)
      : eps_(std::move(eps)), rho_(std::move(rho)), text_(std::move(text)) {}
  std::string describe() const override { return text_; }
  Interval rdp(const mpq_class& a, mpfr_prec_t p) const override {
    if (rho_) return Interval(mpq_class(a * *rho_), p);
    return accounting::pure_dp_rdp_bound(*eps_, a, p);
  }
  std::optional<mpq_class> pure_epsilon() const override { return eps_; }
  std::optional<mpq_class> rho() const override { return rho_; }
  bool has_profile() const override { return eps_.has_value(); }
  Interval delta_at(const mpq_class& eps, mpfr_prec_t p) const override {
    if (!eps_) return LawPrivacy::delta_at(eps, p);
    return accounting::pure_dp_profile(*eps_)(eps, p);
  }
  bool offers_profile_route() const override { return false; }
  bool is_noise_law() const override { return false; }
  bool symmetric_pair() const override { return true; }

 private:
  std::optional<mpq_class> eps_, rho_;
  std::string text_;
};

}  // namespace

accounting::PrivacyEvent pure_dp_event(const mpq_class& epsilon) {
  accounting::require_nonnegative("epsilon", epsilon);
  return accounting::PrivacyEvent::of_law(std::make_shared<GuaranteePrivacy>(
      epsilon, std::nullopt, "pure_dp(epsilon=" + abbreviate(to_string(epsilon)) + ")"));
}

accounting::PrivacyEvent zcdp_event(const mpq_class& rho) {
  accounting::validate_rho(rho);
  return accounting::PrivacyEvent::of_law(
      std::make_shared<GuaranteePrivacy>(std::nullopt, rho, "zcdp(rho=" + abbreviate(to_string(rho)) + ")"));
}

}  // namespace exactdp::laws
