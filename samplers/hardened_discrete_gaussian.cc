#include <exactdp/samplers/hardened_discrete_gaussian.h>

#include <memory>
#include <stdexcept>
#include <string>

#include <exactdp/core/rational.h>
#include <exactdp/samplers/internal/constant_time.h>
#include <exactdp/samplers/internal/hardened_batch.h>
#include <exactdp/samplers/internal/hardened_plans.h>
#include <exactdp/samplers/internal/hardened_setup.h>

namespace exactdp {
namespace {

template <unsigned L>
std::int64_t draw(BitSource& bits, const internal::HardenedGaussianPlan& plan, std::int64_t mean) noexcept {
  const unsigned top = plan.width.top_bits;
  std::int64_t x = 0;
  std::int64_t weight = 1;  // m^j
  for (unsigned j = 0; j < plan.levels; ++j) {
    x += weight * internal::draw_symmetric_scan<L>(bits, plan.fine_scan, top);
    weight *= plan.m;
  }
  x += weight * internal::draw_symmetric_scan<L>(bits, plan.base_scan, top);
  return x + mean;
}

// The largest |X - mean| the plan can produce: sum_j m^j K_fine + m^L K_base (a table draw's
// magnitude is at most its number of entries). std::logic_error unless it is below 2^61, so that
// every draw, and mean + draw with |mean| <= 2^62, fits in int64 (the range guarantees it).
void require_noise_fits_int64(const internal::HardenedGaussianPlan& plan) {
  mpz_class largest = 0;
  mpz_class weight = 1;
  for (unsigned j = 0; j < plan.levels; ++j) {
    largest += weight * static_cast<unsigned long>(plan.fine.entries);
    weight *= plan.m;
  }
  largest += weight * static_cast<unsigned long>(plan.base.entries);
  if (largest >= mpz_class(1) << 61) throw std::logic_error("hardened Gaussian: draws may leave int64");
  const std::size_t per_sample = (plan.levels + 1) * std::size_t{plan.width.width_bits + 1};
  if (per_sample > internal::kMaxHardenedBitsPerSample) {
    throw std::logic_error("hardened Gaussian: more bits per draw than the batch buffer holds");
  }
}

}  // namespace

HardenedDiscreteGaussianParams HardenedDiscreteGaussianParams::make(const mpq_class& sigma2_in,
                                                                    const mpz_class& mean,
                                                                    Hardening hardening) {
  const std::string range = "1/100 <= sigma2 <= 2^" + std::to_string(kHardenedMaxSigma2Log2);
  const internal::HardenedSetup setup = internal::prepare_hardened(
      "sigma2", sigma2_in, power_of_two(kHardenedMaxSigma2Log2), range.c_str(), mean, hardening);
  HardenedDiscreteGaussianParams out;
  out.sigma2_ = setup.value;
  out.mean_ = setup.mean;
  out.tau_bits_ = setup.tau_bits;
  auto built = std::make_shared<internal::HardenedGaussianPlan>();
  internal::HardenedGaussianPlan& plan = *built;
  plan.width = setup.width;
  if (hardening.method == HardenedMethod::kRejection && internal::rejection_covers(out.sigma2_, setup.tau_bits)) {
    auto rejection = std::make_shared<internal::HardenedRejectionPlan>(internal::make_rejection_plan(out.sigma2_));
    internal::require_tau_within_target(rejection->tau_upper, setup.tau_bits);
    out.tau_upper_ = rejection->tau_upper;
    plan.rejection = std::move(rejection);
    out.plan_ = std::move(built);
    return out;
  }
  const long tail_log2 = setup.tail_log2;
  plan.fine_sigma2 = internal::convolution_fine_sigma2(setup.tau_bits, plan.m);
  const mpq_class direct_limit = 3 * plan.fine_sigma2;
  mpq_class tau = 0;
  mpq_class v = out.sigma2_;
  while (v > direct_limit) {  // v shrinks by m^2 per step: at most 24 steps below 2^100
    tau += internal::convolution_tv_upper(v, plan.fine_sigma2, plan.m);
    v = (v - plan.fine_sigma2) / (plan.m * plan.m);
    ++plan.levels;
  }
  plan.base_sigma2 = v;
  internal::CertifiedTable base = internal::build_gaussian_magnitude_table(v, plan.width, tail_log2);
  plan.base = std::move(base.table);
  plan.base_scan = internal::make_scan_table(plan.base, plan.width);
  tau += base.tv_upper;
  if (plan.levels > 0) {
    internal::CertifiedTable fine =
        internal::build_gaussian_magnitude_table(plan.fine_sigma2, plan.width, tail_log2);
    plan.fine = std::move(fine.table);
    plan.fine_scan = internal::make_scan_table(plan.fine, plan.width);
    tau += plan.levels * fine.tv_upper;
  }
  internal::require_tau_within_target(tau, setup.tau_bits);
  require_noise_fits_int64(plan);
  out.tau_upper_ = tau;
  out.plan_ = std::move(built);
  return out;
}

std::uint64_t HardenedDiscreteGaussianParams::bits_per_sample() const noexcept {
  if (plan_->rejection) return 0;  // varies: 81 + j bits a proposal
  return (plan_->levels + 1) * std::uint64_t{plan_->width.width_bits + 1};
}

namespace internal {

std::int64_t draw_hardened_gaussian(BitSource& bits, const HardenedGaussianPlan& plan, std::int64_t mean) noexcept {
  if (plan.rejection) return draw_hardened_rejection(bits, *plan.rejection, mean);
  return with_limbs(plan.width.limbs, [&](auto limbs) { return draw<limbs()>(bits, plan, mean); });
}

}  // namespace internal

std::int64_t sample_discrete_gaussian(BitSource& bits, const HardenedDiscreteGaussianParams& params) noexcept {
  return internal::draw_hardened_gaussian(bits, params.plan(), params.mean());
}

void sample_discrete_gaussian_n(BitSource& bits, const HardenedDiscreteGaussianParams& params, std::int64_t* out,
                                std::size_t n) noexcept {
  if (params.plan().rejection) {
    internal::draw_hardened_rejection_n(bits, *params.plan().rejection, params.mean(), out, n);
    return;
  }
  internal::draw_hardened_gaussian_n(bits, params.plan(), params.mean(), out, n);
}

}  // namespace exactdp
