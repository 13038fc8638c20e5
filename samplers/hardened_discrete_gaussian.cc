#include <exactdp/samplers/hardened_discrete_gaussian.h>

#include <memory>

#include <exactdp/samplers/internal/constant_time.h>
#include <exactdp/samplers/internal/hardened_plans.h>
#include <exactdp/samplers/internal/hardened_setup.h>

namespace exactdp {
namespace {

template <unsigned L>
std::int64_t draw(BitSource& bits, const internal::HardenedGaussianPlan& plan, std::int64_t mean) {
  const unsigned top = plan.width.top_bits;
  std::int64_t x = 0;
  std::int64_t weight = 1;  // m^j
  for (unsigned j = 0; j < plan.levels; ++j) {
    x += weight * internal::draw_symmetric_table<L>(bits, plan.fine.words.data(), plan.fine.entries, top);
    weight *= plan.m;
  }
  x += weight * internal::draw_symmetric_table<L>(bits, plan.base.words.data(), plan.base.entries, top);
  return x + mean;
}

}  // namespace

HardenedDiscreteGaussianParams HardenedDiscreteGaussianParams::make(const mpq_class& sigma2_in,
                                                                    const mpz_class& mean,
                                                                    Hardening hardening) {
  const internal::HardenedSetup setup = internal::prepare_hardened(
      "sigma2", sigma2_in, mpq_class(1'000'000'000'000L), "1/100 <= sigma2 <= 10^12", mean, hardening);
  HardenedDiscreteGaussianParams out;
  out.sigma2_ = setup.value;
  out.mean_ = setup.mean;
  out.tau_bits_ = setup.tau_bits;
  auto built = std::make_shared<internal::HardenedGaussianPlan>();
  internal::HardenedGaussianPlan& plan = *built;
  plan.width = setup.width;
  const long tail_log2 = setup.tail_log2;
  plan.fine_sigma2 = internal::convolution_fine_sigma2(setup.tau_bits, plan.m);
  const mpq_class direct_limit = 3 * plan.fine_sigma2;
  mpq_class tau = 0;
  mpq_class v = out.sigma2_;
  while (v > direct_limit) {  // v shrinks by m^2 per step: at most 9 steps below 10^12
    tau += internal::convolution_tv_upper(v, plan.fine_sigma2, plan.m);
    v = (v - plan.fine_sigma2) / (plan.m * plan.m);
    ++plan.levels;
  }
  plan.base_sigma2 = v;
  internal::CertifiedTable base = internal::build_gaussian_magnitude_table(v, plan.width, tail_log2);
  plan.base = std::move(base.table);
  tau += base.tv_upper;
  if (plan.levels > 0) {
    internal::CertifiedTable fine =
        internal::build_gaussian_magnitude_table(plan.fine_sigma2, plan.width, tail_log2);
    plan.fine = std::move(fine.table);
    tau += plan.levels * fine.tv_upper;
  }
  internal::require_tau_within_target(tau, setup.tau_bits);
  out.tau_upper_ = tau;
  out.plan_ = std::move(built);
  return out;
}

std::uint64_t HardenedDiscreteGaussianParams::bits_per_sample() const noexcept {
  return (plan_->levels + 1) * std::uint64_t{plan_->width.width_bits + 1};
}

std::int64_t sample_discrete_gaussian(BitSource& bits, const HardenedDiscreteGaussianParams& params) noexcept {
  const internal::HardenedGaussianPlan& plan = params.plan();
  return internal::with_limbs(plan.width.limbs, [&](auto limbs) { return draw<limbs()>(bits, plan, params.mean()); });
}

}  // namespace exactdp
