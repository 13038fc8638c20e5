// draw_cost.h — the cost limit of operations that draw many samples of one law: `audit` (its
// --samples), `audit-timing` (its --calls plus the warm-up calls), `release` (its cells), and a
// sample that is several draws (`sample -n`, Python's `size`, the C interface's buffer fill), for
// every face alike.
//
// A draw's work grows with the size of the law's parameters, not with their value, and differs
// from law to law. Each law states its own cost (Law::draw_costs: the CPU seconds of a draw at
// parameters of 10 .. 10^5 digits, measured by bench/draw_cost_bench.py through every command
// that draws, the value's handling included; the slowest command's median, x1.25): the discrete
// Gaussian's draw takes about 2.8 us at sigma2 = 10^1000, 0.13 ms at 10^10000 and 21 ms at
// 10^99999, the discrete Laplace's 7.4 us, 0.19 ms and 22 ms at scale = 10^1000, 10^10000 and
// 10^99999. The estimate of one draw is that curve at the digits of the parameters as exact
// text, interpolated linearly in log-log between the points (the cost is convex there: the chord
// lies above it) and extended beyond the last point along the last segment. A law without points
// is estimated by one law-independent model fitted on an older discrete Gaussian sampler (10^1000:
// 70 us, 10^10000: 0.35 ms, 10^100000: 11 ms), which over-estimates today's samplers. A run is
// refused up front (LimitError naming the option) when its draws are estimated over
// kMaxDrawSeconds: the estimate is 1.25-2.5x the measured time, so 4 s keeps a run under the 10 s
// budget of SECURITY.md, "Limits", even on a machine twice as slow. Laws whose parameters have
// fewer than kLimitedDigits digits in all are not limited here (the commands' own count limits
// are), unless a sample costs several draws.
//
// A sample of some laws is several draws of a component sampler (Law::draws_per_sample: the
// distributed discrete Gaussian draws one discrete Gaussian per surviving client, up to 10^4).
// check_sample_cost charges such a law samples * draws_per_sample draws at any digits, each at
// the law's own cost (the distributed discrete Gaussian's client draw: 0.035 us estimated at
// small sigma2, 0.011 us measured at sigma2 = 1/4, so 4 s allow 1.14*10^8 draws: 11,428 samples
// of 10^4 survivors). A one-draw law is charged as check_draw_cost.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <exactdp/laws/law.h>

namespace exactdp::operations {

inline constexpr double kMaxDrawSeconds = 4;
// The digits of a law's parameters in all (exact text) from which a one-draw law is limited.
inline constexpr double kLimitedDigits = 1000;

// The fixed cost of an audit that draws: its reference law and report (the masses of its cells,
// a few hundred at most, each a handful of erfc and exp at 256 bits of the 10^5-digit parameters).
// Measured on the discrete Gaussian (the slowest; the discrete Laplace's is a third) with 10^6
// samples given, the most cells (bench/draw_cost_bench.py's reference-ms lines): 0.20 s at 2*10^4
// digits, 0.40 s at 5*10^4, 0.84 s at 10^5; under 0.15 s below 2*10^4 digits, where it is not
// charged. Estimated 0.25 s at 2*10^4 digits to 1.1 s at 10^5 (linear in log-log), and charged by
// plan_audit with the draws: their most is (kMaxDrawSeconds - this) / the cost of a draw.
inline constexpr double kReferenceChargedDigits = 20'000;
// The digits of the parameters as exact text, in all.
[[nodiscard]] double parameter_digits(const laws::LawParameters& params);
[[nodiscard]] double estimated_audit_reference_seconds(double digits);

// The estimated CPU seconds of one draw of `law` at parameters of `digits` characters of exact
// text in all (its draw_costs, or the law-independent model when it has none).
[[nodiscard]] double estimated_draw_seconds(const laws::Law& law, double digits);

// Throws LimitError naming `option` when `draws` draws of `law` at parameters `params` are
// estimated over kMaxDrawSeconds (parameters under kLimitedDigits digits: never). `what` says what
// is counted in the message ("samples = 400", "calls = 1000 (plus 1000 warm-up calls)").
// `fixed_seconds` is estimated work of the run besides its draws (the audit's reference law),
// taken from the budget first.
void check_draw_cost(const laws::Law& law, const laws::LawParameters& params, unsigned long long draws,
                     const std::string& option, const std::string& what, double fixed_seconds = 0);

// The same for the law's parameters as (name, exact text): the noise of `release`, whose
// parameters are known only once it is calibrated.
void check_draw_cost(const laws::Law& law, const std::vector<std::pair<std::string, std::string>>& params,
                     unsigned long long draws, const std::string& option, const std::string& what,
                     double fixed_seconds = 0);

// The cost of `samples` samples of `law`, each law.draws_per_sample(params) draws: with one draw
// a sample, check_draw_cost(law, params, samples, ...) when `only_multi_draw` is false and nothing
// when it is true (sample's stream is bounded by its count alone); with several, LimitError
// naming `option` over kMaxDrawSeconds (less `fixed_seconds`), the message giving the most
// samples allowed.
void check_sample_cost(const laws::Law& law, const laws::LawParameters& params, unsigned long long samples,
                       const std::string& option, bool only_multi_draw, double fixed_seconds = 0);

}  // namespace exactdp::operations
