#include <exactdp/operations/draw_cost.h>

#include <algorithm>
#include <cmath>

#include <exactdp/core/errors.h>

namespace exactdp::operations {
namespace {

std::string whole(double v) { return std::to_string(static_cast<unsigned long long>(v)); }

// The digits of the parameters as exact text, and the one with the most.
struct Digits {
  double total = 0;
  std::string largest;
  std::size_t largest_size = 0;
};

Digits digits_of(const std::vector<std::pair<std::string, std::string>>& params) {
  Digits d;
  for (const auto& [name, value] : params) {
    d.total += static_cast<double>(value.size());
    if (value.size() > d.largest_size) d.largest = name, d.largest_size = value.size();
  }
  return d;
}

// Seconds per draw: fitted on the measurements of draw_cost.h, ~d^0.7 up to 10^4 digits, ~d^1.5
// beyond (GMP's products); below 1,000 digits the component draws' 0.25 us per 200 digits.
double seconds_per_draw(double digits) {
  if (digits < 1000) return 0.25e-6 * std::max(1.0, digits / 200);
  return std::max(70e-6 * std::pow(digits / 1e3, 0.7), 350e-6 * std::pow(digits / 1e4, 1.5));
}

}  // namespace

void check_draw_cost(const laws::LawParameters& params, unsigned long long draws, const std::string& option,
                     const std::string& what) {
  check_draw_cost(params.as_text(), draws, option, what);
}

void check_draw_cost(const std::vector<std::pair<std::string, std::string>>& params, unsigned long long draws,
                     const std::string& option, const std::string& what) {
  const Digits d = digits_of(params);
  if (d.total < 1000) return;
  const double per_draw = seconds_per_draw(d.total);
  const double most = std::floor(kMaxDrawSeconds / per_draw);
  if (static_cast<double>(draws) > most) {
    throw LimitError(option, what + " is over the cost limit for a law whose parameters have " + whole(d.total) +
                                 " digits (" + d.largest + " " + std::to_string(d.largest_size) + "): allowed at most " +
                                 whole(most) + " draws (each takes about " + whole(per_draw * 1e6) + " us)");
  }
}

void check_sample_cost(const laws::Law& law, const laws::LawParameters& params, unsigned long long samples,
                       const std::string& option, bool only_multi_draw) {
  const unsigned long long per_sample = law.draws_per_sample(params);
  const std::string what = option + " = " + std::to_string(samples);
  if (per_sample <= 1) {
    if (!only_multi_draw) check_draw_cost(params, samples, option, what);
    return;
  }
  const double per_draw = seconds_per_draw(digits_of(params.as_text()).total);
  const double most = std::floor(kMaxDrawSeconds / (per_draw * static_cast<double>(per_sample)));
  if (static_cast<double>(samples) > most) {
    throw LimitError(option, what + " is over the cost limit of " + law.name() + ": a sample is " +
                                 std::to_string(per_sample) + " draws (about " +
                                 std::to_string(per_draw * 1e6).substr(0, 4) + " us each): allowed at most " +
                                 whole(most) + " samples (" + whole(kMaxDrawSeconds) + " s)");
  }
}

}  // namespace exactdp::operations
