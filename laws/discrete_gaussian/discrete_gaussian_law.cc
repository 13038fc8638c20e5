#include <exactdp/laws/discrete_gaussian/discrete_gaussian_law.h>

#include <array>

#include <exactdp/core/rational.h>
#include <exactdp/laws/discrete_gaussian/discrete_gaussian_privacy.h>
#include <exactdp/laws/internal/samplers_layer_law.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>

namespace exactdp::laws {
namespace {

struct Ops {
  static constexpr auto calibrate = &calibration::discrete_gaussian;  // noise_calibration.h
  static constexpr auto check_calibration = &calibration::check_discrete_gaussian;
  static constexpr const char* kNoise = "sigma2";
  static constexpr ReleaseRoute kReleaseRoute = ReleaseRoute::kRenyi;
  // CPU nanoseconds a draw by audit, audit-timing, release and sample (the most of them, x1.25,
  // rounded up; bench/draw_cost_bench.py): sigma2 = 10^1000 2.8 us, 10^10000 128 us; at 100,000
  // digits 4.9 ms (audit-mantissa: a 10^4-digit mantissa times 10^90000; 10^99999 and 10^100000 4.5 ms,
  // release 3.8, sample 3.7-4.2; measured again after the audit's reference law stopped costing
  // per value: the earlier 21 ms was its tally).
  static constexpr std::array<DrawCostPoint, 5> kDrawCosts{
      {{10, 210}, {100, 520}, {1000, 3'500}, {10'000, 160'000}, {100'000, 6'200'000}}};
  using Params = DiscreteGaussianParams;
  using Hardened = HardenedDiscreteGaussianParams;
  static void draw(BitSource& bits, const Params& p, mpz_class& out) { sample_discrete_gaussian(bits, p, out); }
  static std::int64_t draw_hardened(BitSource& bits, const Hardened& p) noexcept {
    return sample_discrete_gaussian(bits, p);
  }
  static void draw_hardened_n(BitSource& bits, const Hardened& p, std::int64_t* out, std::size_t n) noexcept {
    sample_discrete_gaussian_n(bits, p, out, n);  // the values and bits of n draw_hardened calls
  }
  static std::unique_ptr<verification::ReferenceLaw> reference(const mpq_class& sigma2, const mpz_class& mean) {
    return std::make_unique<verification::DiscreteGaussianLaw>(sigma2, mean);
  }
  static accounting::PrivacyEvent event(const mpq_class& sigma2, const mpz_class& sensitivity) {
    return discrete_gaussian_event(sigma2, sensitivity);
  }
  static TimingUnit timing(const mpq_class& sigma2) {
    return {sigma2, "sqrt(sigma2) = sqrt(" + abbreviate(to_string(sigma2)) + ")"};
  }
};

}  // namespace

const Law& discrete_gaussian_law() {
  static const internal::SamplersLayerLaw<Ops> law(
      "discrete-gaussian", "exact discrete Gaussian, P[x] ~ exp(-(x - mean)^2 / (2 sigma2))", "sigma2 > 0",
      "the variance parameter");
  return law;
}

}  // namespace exactdp::laws
