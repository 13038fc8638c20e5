// draw_cost.h — the cost limit of operations that draw many samples of one law: `audit` (its
// --samples), `audit-timing` (its --calls plus the warm-up calls) and `release` (its cells), for
// every face alike.
//
// A draw's work grows with the size of the law's parameters, not with their value (sigma2 =
// 10^100000: ~11 ms a draw; 10^10000: 0.35 ms; 10^1000: 70 us). The cost of one draw is estimated
// from the digits of the parameters as exact text, and a run is refused up front (LimitError
// naming the option) when its draws would take over kMaxDrawSeconds (400 draws at 10^100000 took
// 7.8 s: the estimate is optimistic by up to 2x, so 4 s keeps a run under the 10 s budget of
// SECURITY.md, "Limits"). Laws whose parameters have fewer than 1,000 digits in all are not
// limited here (the commands' own count limits are).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <exactdp/laws/law.h>

namespace exactdp::operations {

inline constexpr double kMaxDrawSeconds = 4;

// Throws LimitError naming `option` when `draws` draws of a law with parameters `params` are
// estimated over kMaxDrawSeconds. `what` says what is counted in the message ("samples = 400",
// "calls = 1000 (plus 1000 warm-up calls)").
void check_draw_cost(const laws::LawParameters& params, unsigned long long draws, const std::string& option,
                     const std::string& what);

// The same for a law's parameters as (name, exact text): the noise of `release`, whose
// parameters are known only once it is calibrated.
void check_draw_cost(const std::vector<std::pair<std::string, std::string>>& params, unsigned long long draws,
                     const std::string& option, const std::string& what);

}  // namespace exactdp::operations
