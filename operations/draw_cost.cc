#include <exactdp/operations/draw_cost.h>

#include <algorithm>
#include <cmath>

#include <exactdp/core/errors.h>

namespace exactdp::operations {
namespace {

std::string whole(double v) { return std::to_string(static_cast<unsigned long long>(v)); }

}  // namespace

void check_draw_cost(const laws::LawParameters& params, unsigned long long draws, const std::string& option,
                     const std::string& what) {
  check_draw_cost(params.as_text(), draws, option, what);
}

void check_draw_cost(const std::vector<std::pair<std::string, std::string>>& params, unsigned long long draws,
                     const std::string& option, const std::string& what) {
  double digits = 0;
  std::string largest;  // the parameter with the most digits, named in the refusal
  std::size_t largest_size = 0;
  for (const auto& [name, value] : params) {
    digits += static_cast<double>(value.size());
    if (value.size() > largest_size) largest = name, largest_size = value.size();
  }
  if (digits < 1000) return;
  // Fitted on the measurements above: ~d^0.7 up to 10^4 digits, ~d^1.5 beyond (GMP's products).
  const double per_draw = std::max(70e-6 * std::pow(digits / 1e3, 0.7), 350e-6 * std::pow(digits / 1e4, 1.5));
  const double most = std::floor(kMaxDrawSeconds / per_draw);
  if (static_cast<double>(draws) > most) {
    throw LimitError(option, what + " is over the cost limit for a law whose parameters have " + whole(digits) +
                                 " digits (" + largest + " " + std::to_string(largest_size) + "): allowed at most " +
                                 whole(most) + " draws (each takes about " + whole(per_draw * 1e6) + " us)");
  }
}

}  // namespace exactdp::operations
