#include <exactdp/operations/add_noise.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/checked_count.h>

namespace exactdp::operations {
namespace {

mechanisms::GridNoise grid_noise_of(const AddNoiseRequest& r) {
  mechanisms::GridNoiseSpec spec;
  spec.law = r.law;
  spec.parameter = r.parameter;
  spec.value = parse_rational(r.parameter, r.value);
  spec.granularity_exponent = r.granularity_exponent;
  if (r.hardened) spec.hardening = Hardening{};
  return mechanisms::GridNoise::make(spec);
}

// The mechanism names the input array "x"; the face may call it otherwise ("in" in C).
template <class Float>
void add_noise_named(const AddNoisePlan& plan, std::span<const Float> x, std::span<Float> y,
                     const std::optional<Seed>& seed) {
  try {
    mechanisms::add_noise(plan.noise, x, y, seed, plan.threads);
  } catch (const ParameterError& e) {
    if (e.parameter() != "x" || plan.input == "x") throw;
    throw ParameterError(plan.input, plan.input + std::string(e.what()).substr(1));  // "x[17] ..." -> "in[17] ..."
  }
}

}  // namespace

AddNoisePlan plan_add_noise(const AddNoiseRequest& request) {
  AddNoisePlan plan{grid_noise_of(request), 1, request.input};
  plan.threads = static_cast<unsigned>(checked_count("threads", request.threads, 1, mechanisms::kMaxGridNoiseThreads));
  return plan;
}

void add_noise(const AddNoisePlan& plan, std::span<const double> x, std::span<double> y,
               const std::optional<Seed>& seed) {
  add_noise_named(plan, x, y, seed);
}

void add_noise(const AddNoisePlan& plan, std::span<const float> x, std::span<float> y,
               const std::optional<Seed>& seed) {
  add_noise_named(plan, x, y, seed);
}

}  // namespace exactdp::operations
