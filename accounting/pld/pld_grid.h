// pld/pld_grid.h — the small pieces every discretisation shares (pld_events.cc, pld_atoms.cc):
// fixed-point rounding of an MPFR value, saturating mass accumulation, loss -> grid index, and
// an empty chain on a grid.
//   to_fixed(v, s, up): v 2^s rounded UP (up) or DOWN to an integer; 0 for v <= 0; capped at
//     2^63 (a mass that large is already a bound above 1). `scratch` (any precision >= v's)
//     avoids an allocation per call when given.
//   to_fixed_wide(v, s, up): the same without the cap, as a GMP integer (wide_pld.h).
//   add_mass(m, i, v): m[i] += v, saturating at 2^64 - 1 (still a bound on the same side).
//   grid_index(l, n, RNDD|RNDU): floor / ceil of l n; LimitError naming "pld-step" when it does
//     not fit a long.
//   floor_div(a, b): floor(a / b) for b > 0.
//   gaussian_truncation(tail_bits, tail): x0, the least multiple of 1/4 from 1 with
//     Phi(-x0) <= 2^-tail_bits (certified), and tail = Phi(-x0) enclosed at 128 bits.
#pragma once

#include <mpfr.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <gmpxx.h>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/pld/discrete_pld.h>

namespace exactdp::accounting::pld {

[[nodiscard]] std::uint64_t to_fixed(mpfr_srcptr value, unsigned scale_bits, bool up, mpfr_ptr scratch = nullptr);
[[nodiscard]] mpz_class to_fixed_wide(mpfr_srcptr value, unsigned scale_bits, bool up);
void add_mass(std::vector<std::uint64_t>& m, std::size_t i, std::uint64_t v);
[[nodiscard]] long grid_index(mpfr_srcptr l, unsigned long n, mpfr_rnd_t direction);
[[nodiscard]] inline long floor_div(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
[[nodiscard]] mpq_class gaussian_truncation(unsigned tail_bits, Interval& tail);
[[nodiscard]] DiscretePld empty_chain(Side side, unsigned long n, unsigned scale_bits, long first, std::size_t points);

}  // namespace exactdp::accounting::pld
