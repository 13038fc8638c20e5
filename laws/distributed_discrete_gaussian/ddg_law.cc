#include <exactdp/laws/distributed_discrete_gaussian/ddg_law.h>

#include <algorithm>
#include <array>

#include <exactdp/core/rational.h>
#include <exactdp/laws/distributed_discrete_gaussian/ddg_privacy.h>
#include <exactdp/laws/distributed_discrete_gaussian/ddg_reference.h>
#include <exactdp/laws/internal/params_sampler.h>
#include <exactdp/samplers/discrete_gaussian.h>

namespace exactdp::laws {
namespace {

const mpz_class kMaxClients(1'000'000);
const mpz_class kMaxSampledSurvivors(10'000);
const mpz_class kMaxMean = mpz_class(1) << 62;
const mpq_class kMaxSensitivity(1'000'000'000);
const mpz_class kMaxDim(1'000'000'000);
const mpq_class kMaxRho(500'000);
// CPU nanoseconds a client's discrete Gaussian takes within a sample (the sample's time over its
// survivors, x1.25, rounded up; bench/draw_cost_bench.py at 10 clients): sigma2 = 10^1000 1.2 us,
// 10^10000 96 us, 10^100000 3.0 ms (the discrete Gaussian's draw at 10^99999: 4.3 ms, charged);
// sigma2 = 1/4 with 10^4 clients 0.011 us.
constexpr std::array<DrawCostPoint, 5> kDrawCosts{
    {{10, 35}, {100, 240}, {1000, 1'500}, {10'000, 120'000}, {100'000, 5'400'000}}};

// m = ceil(n (1 - f)) = n - floor(n f).
mpz_class survivors_of(const LawParameters& p) {
  const mpq_class dropped = mpq_class(p.integer("clients")) * p.rational("dropout");
  return p.integer("clients") - dropped.get_num() / dropped.get_den();
}

class SumSampler final : public Sampler {
 public:
  SumSampler(DiscreteGaussianParams share, long survivors, mpz_class mean, std::string description)
      : Sampler(std::move(description)), share_(std::move(share)), survivors_(survivors), mean_(std::move(mean)) {}
  void sample(BitSource& bits, mpz_class& out) const override {
    out = mean_;
    mpz_class draw;
    for (long i = 0; i < survivors_; ++i) {
      sample_discrete_gaussian(bits, share_, draw);
      out += draw;
    }
  }

 private:
  DiscreteGaussianParams share_;
  long survivors_;
  mpz_class mean_;
};

void check_range(bool ok, const std::string& name, const mpq_class& value, const std::string& range) {
  if (!ok) throw ParameterError::out_of_range(name, abbreviate(to_string(value)), range);
}

class DistributedDiscreteGaussian final : public Law {
 public:
  DistributedDiscreteGaussian()
      : Law("distributed-discrete-gaussian",
            "sum of the surviving clients' discrete Gaussians N_Z(0, sigma2) (secure aggregation, KLS21)",
            {{"sigma2", ValueKind::kRational, Role::kNoise, std::nullopt, "sigma2 > 0", "each client's sigma2"},
             {"clients", ValueKind::kInteger, Role::kNoise, std::nullopt, "1 <= clients <= 10^6", "clients n"},
             {"dropout", ValueKind::kRational, Role::kNoise, "0", "0 <= dropout < 1",
              "fraction that may drop out: ceil(n (1 - dropout)) shares are summed"},
             {"mean", ValueKind::kInteger, Role::kSampling, "0", "|mean| < 2^62", "the centre"},
             {"sensitivity", ValueKind::kRational, Role::kPrivacy, "1", "0 < sensitivity <= 10^9",
              "the integer query's L2 sensitivity"},
             {"l1", ValueKind::kRational, Role::kPrivacy, "", "0 < l1 <= 10^18",
              "its L1 sensitivity (default min(sqrt(dim) sensitivity, sensitivity^2))"},
             {"dim", ValueKind::kInteger, Role::kPrivacy, "1", "1 <= dim <= 10^9", "the vector dimension"}},
            Capability::kSample | Capability::kAudit | Capability::kProfile | Capability::kEvent |
                Capability::kSubsample) {}

  std::unique_ptr<Sampler> make_sampler(const LawParameters& p, const std::optional<Hardening>& h) const override {
    if (h) unsupported("hardened sampler");
    return std::make_unique<SumSampler>(DiscreteGaussianParams::make(p.rational("sigma2")), survivors_of(p).get_si(),
                                        p.integer("mean"), internal::sampler_description(name(), p));
  }

  // The exact pmf of the sum (ddg_reference.h), within the convolution's range.
  std::unique_ptr<verification::ReferenceLaw> reference_law(const LawParameters& p) const override {
    return std::make_unique<DistributedDiscreteGaussianReferenceLaw>(p.rational("sigma2"), survivors_of(p).get_si(),
                                                                     p.integer("mean"));
  }

  // One discrete Gaussian per survivor (at most 10^4: check_sampling_cost).
  unsigned long long draws_per_sample(const LawParameters& p) const override { return survivors_of(p).get_ui(); }
  std::span<const DrawCostPoint> draw_costs() const override { return kDrawCosts; }

  accounting::PrivacyEvent privacy_event(const LawParameters& p) const override {
    return accounting::PrivacyEvent::of_law(std::make_shared<DistributedDiscreteGaussianPrivacy>(privacy_parameters(p)));
  }

 protected:
  void validate(LawParameters& p, Use use) const override {
    if (p.has("sigma2")) check_range(sgn(p.rational("sigma2")) > 0, "sigma2", p.rational("sigma2"), "sigma2 > 0");
    if (p.has("clients")) {
      const mpz_class n = p.integer("clients");
      check_range(n >= 1 && n <= kMaxClients, "clients", mpq_class(n), "1 <= clients <= 10^6");
    }
    if (p.has("dropout")) {
      const mpq_class& f = p.rational("dropout");
      check_range(sgn(f) >= 0 && f < 1, "dropout", f, "0 <= dropout < 1");
    }
    if (p.has("mean")) check_range(abs(p.integer("mean")) < kMaxMean, "mean", mpq_class(p.integer("mean")), "|mean| < 2^62");
    check_privacy_ranges(p);
    if (use == Use::kSample && p.has("sigma2") && p.has("clients")) check_sampling_cost(p);
    if (use == Use::kPrivacy) check_accountable(p);
  }

 private:
  static void check_privacy_ranges(const LawParameters& p) {
    if (p.has("sensitivity")) {
      const mpq_class& d = p.rational("sensitivity");
      check_range(sgn(d) > 0 && d <= kMaxSensitivity, "sensitivity", d, "0 < sensitivity <= 10^9");
    }
    if (p.has("l1")) {
      const mpq_class& l1 = p.rational("l1");
      check_range(sgn(l1) > 0 && l1 <= mpq_class(kMaxSensitivity * kMaxSensitivity), "l1", l1, "0 < l1 <= 10^18");
    }
    if (p.has("dim")) {
      const mpz_class d = p.integer("dim");
      check_range(d >= 1 && d <= kMaxDim, "dim", mpq_class(d), "1 <= dim <= 10^9");
    }
  }

  // A sample draws one discrete Gaussian per survivor, each costing more as sigma2 has more digits
  // (operations/draw_cost.h): survivors * max(1, digits / 100) <= 10^4, about 0.2 ms a sample.
  static void check_sampling_cost(const LawParameters& p) {
    const mpq_class& sigma2 = p.rational("sigma2");
    const std::size_t digits = mpz_sizeinbase(sigma2.get_num_mpz_t(), 10) + mpz_sizeinbase(sigma2.get_den_mpz_t(), 10);
    const mpz_class weight = survivors_of(p) * mpz_class(std::max<std::size_t>(1, digits / 100));
    if (weight > kMaxSampledSurvivors) {
      throw LimitError("clients", "clients: a sample draws one discrete Gaussian per surviving client; allowed "
                                  "survivors (ceil(clients (1 - dropout))) * max(1, digits of sigma2 / 100) <= "
                                  "10^4, not " + survivors_of(p).get_str() + " survivors at " +
                                      std::to_string(digits) + " digits");
    }
  }

  static DdgPrivacyParameters privacy_parameters(const LawParameters& p) {
    DdgPrivacyParameters out{p.rational("sigma2"), survivors_of(p), p.rational("sensitivity"), std::nullopt,
                             p.integer("dim")};
    if (p.has("l1")) out.l1 = p.rational("l1");
    return out;
  }

  // KLS21's range (sigma2 >= 1/4 with two or more survivors), and rho at most 5 10^5 (as skellam).
  static void check_accountable(const LawParameters& p) {
    if (survivors_of(p) >= 2 && p.rational("sigma2") < mpq_class(1, 4)) {
      throw ParameterError("sigma2", "sigma2 = " + abbreviate(to_string(p.rational("sigma2"))) +
                                         " is out of range for the privacy of two or more surviving clients: "
                                         "allowed sigma2 >= 1/4 (the KLS21 bound's range)");
    }
    const DistributedDiscreteGaussianPrivacy maps(privacy_parameters(p));
    if (*maps.rho() > kMaxRho) {
      throw ParameterError("sigma2", "sigma2 = " + abbreviate(to_string(p.rational("sigma2"))) +
                                         " is too small for this sensitivity and dim: the rho-zCDP bound "
                                         "(sensitivity / sqrt(m sigma2) + tau sqrt(dim))^2 / 2 exceeds 5*10^5");
    }
  }
};

}  // namespace

const Law& distributed_discrete_gaussian_law() {
  static const DistributedDiscreteGaussian law;
  return law;
}

}  // namespace exactdp::laws
