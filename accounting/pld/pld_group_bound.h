// pld/pld_group_bound.h — the upper end of the pld route under REPLACE-ONE for Poisson-
// subsampled events other than the Gaussian (whose +Delta/-Delta pair is a proven dominating
// pair, pld_replace_pair.h): the two add/remove steps through the data set in between (see
// docs/ACCOUNTING.md "Replace-one with subsampled events").
//
// Data sets D = S + {x} and D' = S + {x'} are replace-one neighbours; S is an add/remove
// neighbour of both. For every output set E of the composed mechanism M and all eps1, eps2:
//     M(D)(E) <= e^eps1 M(S)(E) + delta_R(eps1)      (D -> S removes x: the kRemove order)
//     M(S)(E) <= e^eps2 M(D')(E) + delta_A(eps2)     (S -> D' adds x': the kAdd order)
// so M(D)(E) <= e^(eps1 + eps2) M(D')(E) + delta_R(eps1) + e^eps1 delta_A(eps2), and the same
// with D and D' exchanged (x' is removed and x added the same way). With delta_R and delta_A the
// add/remove profiles of the composition (any upper bounds, here the connect-the-dots upper
// chains of the two pair orders, pld_accountant.h) this bounds the replace-one profile:
//     delta_replace(eps) <= min over eps1 + eps2 <= eps of delta_R(eps1) + e^eps1 delta_A(eps2).
// This is group privacy for a group of two changes, a THEOREM for every mechanism whose one
// record changes the subsampled query by at most the event's sensitivity (add/remove), and
// generally not tight (about twice the add/remove epsilon at DP-SGD settings).
//
// replace_one_delta_upper(remove, add, eps): the minimum over the grid losses eps1 = j/n,
//   eps2 = (floor(n eps) - j)/n, 0 <= j <= floor(n eps) (eps1 + eps2 <= eps, and delta is
//   decreasing in eps), every term rounded UP; at most 1.
// replace_one_epsilon_upper(remove, add, delta): the smallest (j + k)/n over grid pairs with
//   delta_R(j/n) + e^(j/n) delta_A(k/n) <= delta (upper ends), or nullopt when none qualifies.
// Both use delta_upper_curve (pld_composition.h), the delta of each chain at every grid loss.
// Requirements: both chains Side::kUpper, untilted, on one grid and scale (logic_error otherwise).
// Cost: O(points log points) MPFR operations. Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <optional>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/pld/discrete_pld.h>

namespace exactdp::accounting::pld {

[[nodiscard]] Real replace_one_delta_upper(const DiscretePld& remove, const DiscretePld& add, const mpq_class& epsilon);
[[nodiscard]] std::optional<mpq_class> replace_one_epsilon_upper(const DiscretePld& remove, const DiscretePld& add,
                                                                 const mpq_class& delta);

}  // namespace exactdp::accounting::pld
