#include <exactdp/laws/discrete_laplace/discrete_laplace_law.h>

#include <array>

#include <exactdp/core/rational.h>
#include <exactdp/laws/discrete_laplace/discrete_laplace_privacy.h>
#include <exactdp/laws/internal/samplers_layer_law.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>

namespace exactdp::laws {
namespace {

struct Ops {
  static constexpr auto calibrate = &calibration::laplace_scale;  // noise_calibration.h
  static constexpr auto check_calibration = &calibration::check_laplace;
  static constexpr const char* kNoise = "scale";
  static constexpr ReleaseRoute kReleaseRoute = ReleaseRoute::kPureL1;
  // CPU nanoseconds a draw by audit, audit-timing, release and sample (the most of them, x1.25,
  // rounded up; bench/draw_cost_bench.py): scale = 10^1000 7.4 us, 10^10000 185 us; at 100,000
  // digits 7.2-7.6 ms (sample-mantissa: a 10^4-digit mantissa times 10^90000; release 6.6, audit
  // 4.8-6.6, sample of 10^100000 6.0-6.5; measured again after the audit's reference law stopped
  // costing per value: the earlier 22 ms was its tally): this point is 1.18-1.25x that.
  static constexpr std::array<DrawCostPoint, 5> kDrawCosts{
      {{10, 400}, {100, 1'600}, {1000, 9'300}, {10'000, 240'000}, {100'000, 9'000'000}}};
  using Params = DiscreteLaplaceParams;
  using Hardened = HardenedDiscreteLaplaceParams;
  static void draw(BitSource& bits, const Params& p, mpz_class& out) { sample_discrete_laplace(bits, p, out); }
  static std::int64_t draw_hardened(BitSource& bits, const Hardened& p) noexcept {
    return sample_discrete_laplace(bits, p);
  }
  static void draw_hardened_n(BitSource& bits, const Hardened& p, std::int64_t* out, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) out[i] = sample_discrete_laplace(bits, p);
  }
  static std::unique_ptr<verification::ReferenceLaw> reference(const mpq_class& scale, const mpz_class& mean) {
    return std::make_unique<verification::DiscreteLaplaceLaw>(scale, mean);
  }
  static accounting::PrivacyEvent event(const mpq_class& scale, const mpz_class& sensitivity) {
    return discrete_laplace_event(scale, sensitivity);
  }
  static TimingUnit timing(const mpq_class& scale) { return {scale * scale, "scale = " + abbreviate(to_string(scale))}; }
};

}  // namespace

const Law& discrete_laplace_law() {
  static const internal::SamplersLayerLaw<Ops> law("discrete-laplace",
                                                   "exact discrete Laplace, P[x] ~ exp(-|x - mean| / scale)",
                                                   "scale > 0", "the scale t");
  return law;
}

}  // namespace exactdp::laws
