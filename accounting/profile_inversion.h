// profile_inversion.h — epsilon at a target delta from a certified profile delta(eps), by
// certified bisection: a point moves the upper end only when delta(point) <= delta is PROVEN
// (upper end of its enclosure) and the lower end only when delta(point) > delta is proven (lower
// end), so the answer [lo, hi] has delta(hi) <= delta proven: hi is a valid epsilon for a
// profile that is an upper bound on the true one (a law's delta_at(), law_privacy.h). The
// profile is assumed non-increasing in eps (every profile is; a bound's lower end then says only
// that the bound's own epsilon is at least lo).
//
// profile_epsilon(f, delta, options): nullopt when no eps <= 10^6 has delta(eps) <= delta proven
// (the route does not apply); [0, 0] when delta(0) <= delta. Working precision:
// starting_precision(options); at most tolerance_bits(tolerance) + 100 bisection steps; tolerance_met when the bracket's
// relative width is within options.tolerance. Errors: ParameterError naming delta unless 0 < delta < 1.
// Thread-safety: as safe as f.
#pragma once

#include <gmpxx.h>

#include <functional>
#include <optional>

#include <exactdp/accounting/ziv.h>
#include <exactdp/core/interval.h>

namespace exactdp::accounting {

[[nodiscard]] std::optional<Certified> profile_epsilon(const std::function<Interval(const mpq_class&, mpfr_prec_t)>& f,
                                                       const mpq_class& delta, const ZivOptions& options = {});

}  // namespace exactdp::accounting
