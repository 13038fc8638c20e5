#include <exactdp/accounting/composition_limits.h>

#include <optional>
#include <string>

#include <exactdp/accounting/accountant.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::accounting {
namespace {

unsigned long bits_of(const mpq_class& x) {
  return static_cast<unsigned long>(mpz_sizeinbase(x.get_num_mpz_t(), 2) +
                                    mpz_sizeinbase(x.get_den_mpz_t(), 2));
}

void check_size(const std::string& name, const mpq_class& x) {
  if (bits_of(x) > kMaxEventParameterBits) {
    throw LimitError(name, name + " = " + abbreviate(to_string(x)) +
                               " is over the size limit of composition accounting: allowed at most "
                               "1024 bits of numerator and denominator (about 300 digits)");
  }
}

// The noise parameter of an event with a closed-form noise: its name, value and sensitivity, and
// whether the range check divides by the sensitivity squared (sigma2).
struct NoiseParameter {
  std::string name;
  mpq_class value;
  mpq_class sensitivity;
  bool squared = false;
};

std::optional<NoiseParameter> noise_parameter(const LawPrivacy& m) {
  if (const auto g = m.gaussian_noise()) return NoiseParameter{"sigma", g->sigma, g->sensitivity};
  if (const auto g = m.discrete_gaussian_noise()) return NoiseParameter{"sigma2", g->sigma2, mpq_class(g->sensitivity), true};
  if (const auto l = m.laplace_noise()) return NoiseParameter{"scale", l->scale, l->sensitivity};
  if (const auto l = m.discrete_laplace_noise()) return NoiseParameter{"scale", l->scale, mpq_class(l->sensitivity)};
  return std::nullopt;
}

// A bare guarantee's one parameter (pure-dp, zcdp, gdp), by size.
void check_guarantee(const PrivacyEvent& e) {
  if (e.maps().is_noise_law()) return;
  if (e.is_pure()) {
    check_size("epsilon", e.pure_epsilon());
  } else if (e.is_gaussian_like()) {
    check_size("mu", e.exact_mu());
  } else if (e.has_rho()) {
    check_size("rho", e.rho());
  }
}

void check_noise(const NoiseParameter& n) {
  const std::string& name = n.name;
  check_size(name, n.value);
  check_size("sensitivity", n.sensitivity);
  const mpq_class delta_power = n.squared ? n.sensitivity * n.sensitivity : n.sensitivity;
  const mpq_class ratio = n.value / delta_power;
  const mpq_class smallest(1, 1'000'000);
  const mpq_class largest = mpq_class(mpz_class(1) << 128);
  if (ratio < smallest || ratio > largest) {
    const std::string what = name + (n.squared ? " / sensitivity^2" : " / sensitivity");
    throw LimitError(name, name + " = " + abbreviate(to_string(n.value)) + ": " + what +
                               " is out of the range of composition accounting: allowed 10^-6 <= " +
                               what + " <= 2^128 (below, no route can discretise or bound the "
                               "loss; above, the event is practically free)");
  }
}

void check_noise(const PrivacyEvent& e) {
  if (const std::optional<NoiseParameter> n = noise_parameter(e.maps())) return check_noise(*n);
  check_guarantee(e);
}

void check_rate(const mpq_class& q) {
  check_size("q", q);
  if (q < mpq_class(1, mpz_class(1) << 64)) {
    throw LimitError("q", "q = " + abbreviate(to_string(q)) +
                              " is out of the range of composition accounting: allowed q >= 2^-64 "
                              "(about 5.4e-20)");
  }
}

}  // namespace

void check_event_option_count(std::size_t events) {
  if (events > kMaxEventOptions) {
    throw LimitError("event", "event: " + std::to_string(events) +
                                  " --event options is over the limit: allowed at most 1000 (use "
                                  "--count for repeated events)");
  }
}

void check_compose_event_limits(const RdpComposition& events) {
  check_event_option_count(events.size());
  for (const auto& [e, n] : events) {
    if (const GaussianNoise* g = e.subsampled_gaussian()) {
      check_rate(e.subsampled_q());
      check_noise(NoiseParameter{"sigma", g->sigma, g->sensitivity});
    } else if (e.is_subsampled()) {
      check_rate(e.subsampled_q());
      check_noise(e.subsampled_base());
    } else {
      check_noise(e.plain_event());
    }
  }
}

void check_tolerance_bits(const ZivOptions& options, unsigned long max_bits) {
  if (options.tolerance < mpq_class(1, mpz_class(1) << max_bits)) {
    throw LimitError("tolerance", "tolerance = " + abbreviate(to_string(options.tolerance)) +
                                      " is below the cost limit of this command: allowed tolerance >= 2^-" +
                                      std::to_string(max_bits) + " (about 10^-" +
                                      std::to_string(max_bits * 30103 / 100000) +
                                      "; finer tolerances take minutes)");
  }
}

void check_event_tolerance(const ZivOptions& options) {
  check_tolerance_bits(options, kMaxEventToleranceBits);
}

void check_dp_sgd_limits(const mpq_class& q, const mpq_class& epsilon, const mpq_class& delta) {
  check_rate(q);
  check_size("epsilon", epsilon);
  check_size("delta", delta);
}

}  // namespace exactdp::accounting
