#include <exactdp/operations/draw_cost.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include <exactdp/core/errors.h>

namespace exactdp::operations {
namespace {

std::string whole(double v) { return std::to_string(static_cast<unsigned long long>(v)); }

// v to two significant digits ("0.035", "3.5", "1.1").
std::string two_digits(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", v);
  return text;
}

// "0.035 us", "3.5 us", "160 us": two significant digits below 10 us.
std::string microseconds(double seconds) {
  const double us = seconds * 1e6;
  return (us >= 10 ? whole(std::round(us)) : two_digits(us)) + " us";
}

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

// The law-independent model (draw_cost.h), for a law without measured points: ~d^0.7 up to 10^4
// digits, ~d^1.5 beyond (GMP's products); below 1,000 digits 0.25 us per 200 digits.
double legacy_seconds_per_draw(double digits) {
  if (digits < 1000) return 0.25e-6 * std::max(1.0, digits / 200);
  return std::max(70e-6 * std::pow(digits / 1e3, 0.7), 350e-6 * std::pow(digits / 1e4, 1.5));
}

// The measured points (increasing digits) interpolated linearly in log-log, flat below the first
// point, extended beyond the last along the last segment.
double interpolated(std::span<const laws::DrawCostPoint> points, double digits) {
  const auto x = [&](std::size_t i) { return static_cast<double>(points[i].digits); };
  const auto y = [&](std::size_t i) { return static_cast<double>(points[i].nanoseconds) * 1e-9; };
  if (points.size() == 1 || digits <= x(0)) return y(0);
  std::size_t i = 1;
  while (i + 1 < points.size() && x(i) < digits) ++i;
  const double slope = std::log(y(i) / y(i - 1)) / std::log(x(i) / x(i - 1));
  return y(i - 1) * std::pow(digits / x(i - 1), slope);
}

// The budget left for the draws, and its note in a refusal.
double draw_budget(double fixed_seconds) { return kMaxDrawSeconds - fixed_seconds; }

std::string fixed_note(double fixed_seconds) {
  if (fixed_seconds <= 0) return "";
  return ", after about " + two_digits(fixed_seconds) + " s for the audit's reference law";
}

}  // namespace

double parameter_digits(const laws::LawParameters& params) { return digits_of(params.as_text()).total; }

double estimated_audit_reference_seconds(double digits) {
  if (digits < kReferenceChargedDigits) return 0;
  // The measured points x1.25-1.3: 0.25 s at 2*10^4 digits, 1.1 s at 10^5, linear in log-log.
  return 0.25 * std::pow(digits / kReferenceChargedDigits, std::log(4.4) / std::log(5.0));
}

double estimated_draw_seconds(const laws::Law& law, double digits) {
  const std::span<const laws::DrawCostPoint> points = law.draw_costs();
  return points.empty() ? legacy_seconds_per_draw(digits) : interpolated(points, digits);
}

void check_draw_cost(const laws::Law& law, const laws::LawParameters& params, unsigned long long draws,
                     const std::string& option, const std::string& what, double fixed_seconds) {
  check_draw_cost(law, params.as_text(), draws, option, what, fixed_seconds);
}

void check_draw_cost(const laws::Law& law, const std::vector<std::pair<std::string, std::string>>& params,
                     unsigned long long draws, const std::string& option, const std::string& what,
                     double fixed_seconds) {
  const Digits d = digits_of(params);
  if (d.total < kLimitedDigits) return;
  const double per_draw = estimated_draw_seconds(law, d.total);
  const double most = std::floor(draw_budget(fixed_seconds) / per_draw);
  if (static_cast<double>(draws) > most) {
    throw LimitError(option, what + " is over the cost limit of " + law.name() + " at parameters of " +
                                 whole(d.total) + " digits (" + d.largest + " " + std::to_string(d.largest_size) +
                                 "): allowed at most " + whole(most) + " draws (each takes about " +
                                 microseconds(per_draw) + fixed_note(fixed_seconds) + ")");
  }
}

void check_sample_cost(const laws::Law& law, const laws::LawParameters& params, unsigned long long samples,
                       const std::string& option, bool only_multi_draw, double fixed_seconds) {
  const unsigned long long per_sample = law.draws_per_sample(params);
  if (per_sample <= 1 && only_multi_draw) return;  // no text made: the C buffer fill calls this per batch
  const std::string what = option + " = " + std::to_string(samples);
  if (per_sample <= 1) return check_draw_cost(law, params, samples, option, what, fixed_seconds);
  const double per_draw = estimated_draw_seconds(law, parameter_digits(params));
  const double most = std::floor(draw_budget(fixed_seconds) / (per_draw * static_cast<double>(per_sample)));
  if (static_cast<double>(samples) > most) {
    throw LimitError(option, what + " is over the cost limit of " + law.name() + ": a sample is " +
                                 std::to_string(per_sample) + " draws (about " + microseconds(per_draw) +
                                 " each" + fixed_note(fixed_seconds) + "): allowed at most " + whole(most) +
                                 " samples (" + whole(kMaxDrawSeconds) + " s)");
  }
}

}  // namespace exactdp::operations
