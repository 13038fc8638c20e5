#include <exactdp/laws/skellam/skellam_law.h>

#include <array>

#include <exactdp/core/rational.h>
#include <exactdp/laws/internal/params_sampler.h>
#include <exactdp/laws/skellam/skellam_privacy.h>
#include <exactdp/laws/skellam/skellam_reference.h>
#include <exactdp/samplers/skellam.h>

namespace exactdp::laws {
namespace {

class SkellamLawSampler final : public Sampler {
 public:
  SkellamLawSampler(SkellamParams params, std::string description)
      : Sampler(std::move(description)), params_(std::move(params)) {}
  void sample(BitSource& bits, mpz_class& out) const override { sample_skellam(bits, params_, out); }
  void sample_wide(BitSource& bits, std::int64_t* out, std::size_t n, std::vector<WideValue>& wide) const override {
    sample_skellam_wide(bits, params_, out, n, wide);
  }

 private:
  SkellamParams params_;
};

// CPU nanoseconds a draw by sample and audit (the most, x1.25, rounded up; bench/draw_cost_bench.py),
// flat in the digits of mu: its value picks the route. The table (mu <= 10^7, every audit: mu <=
// 10^6) takes 21-56 ns a draw at mu's exact text of 10 .. 10^5 characters (its build, 0.1-11 ms
// once a run, is not a draw); the envelope (mu > 10^7, mu's text at most ~2*10^4 characters)
// 1.34-1.47 us, which sets the points. An audit at mu = 10^6 also spends ~1.5 s on the exact
// masses of its reference law at any digits: 4 s of draws at the envelope's cost are ~0.1 s of
// the table's, which leaves room for it.
constexpr std::array<DrawCostPoint, 2> kDrawCosts{{{10, 1'850}, {100'000, 1'850}}};

const mpz_class kMaxMean = mpz_class(1) << 62;
const mpz_class kMaxSensitivity(1'000'000'000);
const mpq_class kMaxRho(500'000);

class Skellam final : public Law {
 public:
  Skellam()
      : Law("skellam", "Skellam, Poisson(mu) - Poisson(mu): distributed noise that sums (n clients: mu -> n mu)",
            {{"mu", ValueKind::kRational, Role::kNoise, std::nullopt, "0 < mu <= 10^15",
              "the Poisson rate of each side (variance 2 mu)"},
             {"mean", ValueKind::kInteger, Role::kSampling, "0", "|mean| < 2^62", "the centre"},
             {"sensitivity", ValueKind::kRational, Role::kPrivacy, "1", "1 <= sensitivity <= 10^9",
              "the integer query's (L2) sensitivity"},
             {"l1", ValueKind::kRational, Role::kPrivacy, "", "1 <= l1 <= 10^18",
              "its L1 sensitivity (default min(sqrt(dim) sensitivity, sensitivity^2))"},
             {"dim", ValueKind::kInteger, Role::kPrivacy, "1", "1 <= dim <= 10^9",
              "the vector dimension (Sk(mu) on each coordinate)"}},
            Capability::kSample | Capability::kAudit | Capability::kProfile | Capability::kEvent |
                Capability::kSubsample) {}

  std::unique_ptr<Sampler> make_sampler(const LawParameters& p, const std::optional<Hardening>& h) const override {
    if (h) unsupported("hardened sampler");
    return std::make_unique<SkellamLawSampler>(SkellamParams::make(p.rational("mu"), p.integer("mean")),
                                               internal::sampler_description(name(), p));
  }

  std::span<const DrawCostPoint> draw_costs() const override { return kDrawCosts; }

  std::unique_ptr<verification::ReferenceLaw> reference_law(const LawParameters& p) const override {
    return std::make_unique<SkellamReferenceLaw>(p.rational("mu"), p.integer("mean"));
  }

  accounting::PrivacyEvent privacy_event(const LawParameters& p) const override {
    return accounting::PrivacyEvent::of_law(skellam_privacy(p.rational("mu"), sensitivity_of(p)));
  }

 protected:
  void validate(LawParameters& p, Use use) const override {
    if (p.has("mu")) {
      const mpq_class& mu = p.rational("mu");
      if (sgn(mu) <= 0) throw ParameterError::out_of_range("mu", abbreviate(to_string(mu)), "0 < mu <= 10^15");
      if (mu > poisson_max_mu()) {
        throw LimitError("mu", "mu = " + abbreviate(to_string(mu)) + " is out of range: allowed 0 < mu <= 10^15");
      }
    }
    if (p.has("mean") && abs(p.integer("mean")) >= kMaxMean) {
      throw ParameterError::out_of_range("mean", abbreviate(to_string(p.integer("mean"))), "|mean| < 2^62");
    }
    check_vector_ranges(p);
    if (use == Use::kPrivacy) check_accountable(p);
  }

 private:
  static void check_vector_ranges(const LawParameters& p) {
    if (p.has("sensitivity")) {
      const mpq_class& d = p.rational("sensitivity");
      if (d < 1 || d > kMaxSensitivity) {
        throw ParameterError::out_of_range("sensitivity", abbreviate(to_string(d)), "1 <= sensitivity <= 10^9");
      }
    }
    if (p.has("l1")) {
      const mpq_class& l1 = p.rational("l1");
      if (l1 < 1 || l1 > mpq_class(kMaxSensitivity * kMaxSensitivity)) {
        throw ParameterError::out_of_range("l1", abbreviate(to_string(l1)), "1 <= l1 <= 10^18");
      }
    }
    if (p.has("dim") && (p.integer("dim") < 1 || p.integer("dim") > kMaxSensitivity)) {
      throw ParameterError::out_of_range("dim", abbreviate(p.integer("dim").get_str()), "1 <= dim <= 10^9");
    }
  }

  static SkellamSensitivity sensitivity_of(const LawParameters& p) {
    SkellamSensitivity s{p.rational("sensitivity"), std::nullopt, p.integer("dim")};
    if (p.has("l1")) s.l1 = p.rational("l1");
    return s;
  }

  // The event's rho at most 5 10^5 (the discrete Gaussian's range, sigma2 / D^2 >= 10^-6): below
  // that mu the loss is beyond every route of the accountant, and the event is no privacy at all.
  static void check_accountable(const LawParameters& p) {
    const SkellamPrivacy maps(p.rational("mu"), sensitivity_of(p));
    if (*maps.rho() > kMaxRho) {
      throw ParameterError("mu", "mu = " + abbreviate(to_string(p.rational("mu"))) + " is too small for sensitivity " +
                                     abbreviate(to_string(p.rational("sensitivity"))) +
                                     ": its rho-zCDP bound exceeds 5*10^5 (allowed: D^2 / (4 mu) + "
                                     "(2 D^2 + max(0, 6 D1 - D^2)) / (16 mu^2) <= 5*10^5, D1 the L1 bound)");
    }
  }
};

}  // namespace

const Law& skellam_law() {
  static const Skellam law;
  return law;
}

}  // namespace exactdp::laws
