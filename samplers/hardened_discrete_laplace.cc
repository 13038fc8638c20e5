#include <exactdp/samplers/hardened_discrete_laplace.h>

#include <memory>
#include <string>

#include <exactdp/core/rational.h>
#include <exactdp/samplers/internal/constant_time.h>
#include <exactdp/samplers/internal/hardened_plans.h>
#include <exactdp/samplers/internal/hardened_setup.h>

namespace exactdp {
namespace {

// |X| = B (1 + G), then a fair sign (internal/hardened_tables.h, build_laplace_magnitude_table).
template <unsigned L>
std::int64_t draw(BitSource& bits, const internal::HardenedLaplacePlan& plan, std::int64_t mean) {
  const std::uint64_t* table = plan.magnitude.words.data();
  const unsigned top = plan.width.top_bits;
  const std::uint64_t nonzero = internal::draw_bernoulli<L>(bits, table, top);
  const std::uint64_t g =
      internal::draw_bernoulli_digits<L>(bits, table + L, plan.magnitude.entries - 1, top);
  const std::uint64_t negative = bits.bits(1);
  const auto magnitude = static_cast<std::int64_t>((g + 1) & (std::uint64_t{0} - nonzero));
  return mean + internal::ct_negate_if(magnitude, negative);
}

}  // namespace

HardenedDiscreteLaplaceParams HardenedDiscreteLaplaceParams::make(const mpq_class& scale_in,
                                                                  const mpz_class& mean,
                                                                  Hardening hardening) {
  const std::string range = "1/100 <= scale <= 2^" + std::to_string(kHardenedMaxScaleLog2);
  const internal::HardenedSetup setup = internal::prepare_hardened(
      "scale", scale_in, power_of_two(kHardenedMaxScaleLog2), range.c_str(), mean, hardening);
  HardenedDiscreteLaplaceParams out;
  out.scale_ = setup.value;
  out.mean_ = setup.mean;
  out.tau_bits_ = setup.tau_bits;
  auto plan = std::make_shared<internal::HardenedLaplacePlan>();
  plan->width = setup.width;
  // At most 58 entries of rounding error 2^-(W+1) and one tail of 2^-(tau_bits + 8); G < 2^57
  // (K <= 57 at scale <= 2^50), so every draw fits in int64.
  internal::CertifiedTable table = internal::build_laplace_magnitude_table(out.scale_, setup.width, setup.tail_log2);
  plan->magnitude = std::move(table.table);
  out.tau_upper_ = table.tv_upper;
  internal::require_tau_within_target(out.tau_upper_, setup.tau_bits);
  out.plan_ = std::move(plan);
  return out;
}

std::uint64_t HardenedDiscreteLaplaceParams::bits_per_sample() const noexcept {
  return plan_->magnitude.entries * std::uint64_t{plan_->width.width_bits} + 1;
}

std::int64_t sample_discrete_laplace(BitSource& bits, const HardenedDiscreteLaplaceParams& params) noexcept {
  const internal::HardenedLaplacePlan& plan = params.plan();
  return internal::with_limbs(plan.width.limbs, [&](auto limbs) { return draw<limbs()>(bits, plan, params.mean()); });
}

}  // namespace exactdp
