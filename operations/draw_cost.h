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
// limited here (the commands' own count limits are), unless a sample costs several draws.
//
// A sample of some laws is several draws of a component sampler (Law::draws_per_sample: the
// distributed discrete Gaussian draws one discrete Gaussian per surviving client, up to 10^4).
// check_sample_cost charges such a law samples * draws_per_sample draws: below 1,000 digits each
// draw is estimated at 0.25 us per 200 digits of the parameters (measured on one core: a discrete
// Gaussian at sigma2 = 10^197, about the largest value the law samples 10^4 survivors at, takes
// 0.20 us (1.95*10^7 draws: 3.98 s), at 10^500 0.37 us, at 10^900 0.78 us, at sigma2 = 1/4
// 10 ns), so 4 s allow 1.6*10^7 draws at small sigma2: 1,600 samples of 10^4 survivors, 16,000 of
// 1,000 (sigma2 = 1/4: 0.2 s). From 1,000 digits the one-draw estimate above is used per draw.
// A one-draw law is unchanged.
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

// The cost of `samples` samples of `law`, each law.draws_per_sample(params) draws: with one draw
// a sample, check_draw_cost(params, samples, ...) when `only_multi_draw` is false and nothing when
// it is true (sample's stream is bounded by its count alone); with several, LimitError naming
// `option` over kMaxDrawSeconds, the message giving the most samples allowed.
void check_sample_cost(const laws::Law& law, const laws::LawParameters& params, unsigned long long samples,
                       const std::string& option, bool only_multi_draw);

// The same for a law's parameters as (name, exact text): the noise of `release`, whose
// parameters are known only once it is calibrated.
void check_draw_cost(const std::vector<std::pair<std::string, std::string>>& params, unsigned long long draws,
                     const std::string& option, const std::string& what);

}  // namespace exactdp::operations
