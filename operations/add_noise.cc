#include <exactdp/operations/add_noise.h>

#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/checked_count.h>
#include <exactdp/operations/draw_cost.h>

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
  check_add_noise_cost(plan, x.size());
  try {
    mechanisms::add_noise(plan.noise, x, y, seed, plan.threads);
  } catch (const ParameterError& e) {
    if (e.parameter() != "x" || plan.input == "x") throw;
    throw ParameterError(plan.input, plan.input + std::string(e.what()).substr(1));  // "x[17] ..." -> "in[17] ..."
  }
}

}  // namespace

// Only a given fine granularity makes the grid parameter long (the automatic one keeps it near
// 2^38): 10^6 values at k = 4096 and sigma = 10^9 took 14 s, 10^5 at k = -4096 and
// scale = 10^99999 about 15 minutes.
void check_add_noise_cost(const AddNoisePlan& plan, std::size_t values) {
  const mechanisms::GridNoise& g = plan.noise;
  const std::string name = g.law().name() == "discrete-laplace" ? "scale" : "sigma2";
  check_draw_cost(g.law(), {{name, g.grid_parameter().get_str()}}, values, "granularity",
                  "granularity 2^" + std::to_string(-g.granularity_exponent()) + " for " + std::to_string(values) +
                      " values (" + name + (name == "scale" ? " / g" : " / g^2") + " on the grid)");
}

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
