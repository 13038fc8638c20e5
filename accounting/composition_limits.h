// composition_limits.h — the cost limits of event composition (event_composition.h: `compose
// --event`, exactdp.compose_events) and of DP-SGD calibration (dp_sgd_calibration.h), checked on the
// parsed events before any route runs, so that a request either answers within about 10 s and
// 1 GiB or is refused at once (ParameterError / LimitError naming the parameter: exit 2, nothing
// on stdout) instead of running for minutes, failing inside a route ("internal error") or
// reaching GMP's abort.
//
// The limits (SECURITY.md, "Limits"; the compose and calibrate --help texts):
//  * at most kMaxEventOptions --event options;
//  * every rational of an event (noise, sensitivity, q, epsilon, rho, mu) at most
//    kMaxEventParameterBits bits of numerator plus denominator (about 300 digits): the routes'
//    work grows with these sizes (a 9,999-digit sigma took 57 s);
//  * the noise relative to the sensitivity — sigma / Delta, scale / Delta, sigma2 / Delta^2 —
//    in [10^-6, 2^128]: below, the loss support is wider than any grid and the accountant had no
//    route; above, the mechanism is practically perfectly private and the routes' numbers are
//    all tiny (sigma = 10^100000 cost 83 ms an event);
//  * a sampling rate q >= 2^-64 (q = 10^-40 failed inside the pld route, 10^-5000 too).
#pragma once

#include <gmpxx.h>

#include <cstddef>

#include <exactdp/accounting/rdp_accountant.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

inline constexpr std::size_t kMaxEventOptions = 1000;
inline constexpr unsigned long kMaxEventParameterBits = 1024;
// The routes run Ziv loops per event and order (a subsampled Gaussian: 7.9 s at a tolerance of
// 10^-300, 38 s at 10^-600): tolerances below 2^-700 (about 10^-210) are refused.
inline constexpr unsigned long kMaxEventToleranceBits = 700;

// LimitError naming "event" when more than kMaxEventOptions --event options are given; called
// before the events are parsed (2,000 events of sigma = 10^100000 took 9 s just to parse).
void check_event_option_count(std::size_t events);

// Throws ParameterError / LimitError naming the first parameter over a limit above.
void check_compose_event_limits(const RdpComposition& events);

// LimitError naming "tolerance" when options.tolerance < 2^-max_bits (a command's cost limit on
// the tolerance: finer tolerances take minutes).
void check_tolerance_bits(const ZivOptions& options, unsigned long max_bits);

// check_tolerance_bits(options, kMaxEventToleranceBits).
void check_event_tolerance(const ZivOptions& options);

// calibrate dp-sgd: q, epsilon and delta at most kMaxEventParameterBits bits each (a q of 5,000
// nines took 33 s), q >= 2^-64. LimitError naming the parameter.
void check_dp_sgd_limits(const mpq_class& q, const mpq_class& epsilon, const mpq_class& delta);

}  // namespace exactdp::accounting
