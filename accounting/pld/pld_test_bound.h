// pld/pld_test_bound.h — the lower end of the pld route: a hypothesis test on the composed
// pair, evaluated exactly enough to be a proof (docs/ACCOUNTING.md "pld route").
//
// Every pair (P, Q) and every event S satisfy P(S) - e^eps Q(S) <= delta(eps) (the hockey-stick
// divergence is the supremum over S), and post-processing cannot increase delta. Map each
// outcome of each composed event to the index of its loss cell (pld_events.h, test_p/test_q)
// and take S = {sum of the indices >= t}. P(S) and Q(S) are tails of the convolutions of the
// cell masses, which the chains test_p (masses rounded DOWN, composed with Side::kLower) and
// test_q (rounded UP, Side::kUpper: truncated high tails at +infinity, low tails raised onto
// the first kept index) bound from the safe side, so for every t
//     P_low(I >= t) - e^eps Q_up(I >= t) <= P(S) - e^eps Q(S) <= delta(eps).
// Unlike rounding every loss down to the grid (which loses about h/2 per composed step: 5 in
// epsilon after 10^5 steps at h = 10^-4), this only loses what the cell index forgets about
// the loss inside its cell, a fluctuation of order sqrt(steps) h.
//
// test_delta_lower(p, q, eps): max over t of that bound (>= 0), rounded DOWN.
// test_epsilon_lower(p, q, delta): the true epsilon(delta) is >= log((P_low(I >= t) - delta) /
//   Q_up(I >= t)) for every t with P_low(I >= t) > delta (at any smaller eps that t's bound
//   exceeds delta); the maximum over t, rounded DOWN, or 0 when no t qualifies.
// Requirements: p.side == kLower, q.side == kUpper (tilted or not), same grid and scale
// (logic_error otherwise).
// Cost: O(points) MPFR operations (about 0.1 s per 10^6 points). Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/pld/discrete_pld.h>

namespace exactdp::accounting::pld {

[[nodiscard]] Real test_delta_lower(const DiscretePld& p, const DiscretePld& q, const mpq_class& epsilon,
                                    mpfr_prec_t precision = kDefaultPrecision);
[[nodiscard]] Real test_epsilon_lower(const DiscretePld& p, const DiscretePld& q, const mpq_class& delta,
                                      mpfr_prec_t precision = kDefaultPrecision);

}  // namespace exactdp::accounting::pld
