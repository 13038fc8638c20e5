// laplace_profile.h — the exact privacy profile of the (continuous) Laplace mechanism.
//
// Adding Lap(b) noise (density exp(-|x|/b) / (2b)) to a query of L1 sensitivity Delta gives
//   delta(eps) = 1 - exp((eps - Delta/b) / 2)   for 0 <= eps < Delta/b,   0 for eps >= Delta/b.
// Derivation: with P = Lap(0, b), Q = Lap(Delta, b), delta(eps) = int (p - e^eps q)_+. The
// ratio p/q is e^(Delta/b) on x <= 0, exp((Delta - 2x)/b) on [0, Delta], e^(-Delta/b) beyond,
// so p > e^eps q exactly on x < x* = (Delta - eps b)/2 (when eps < Delta/b). Then
//   P[X < x*] = 1 - exp(-x*/b)/2,   e^eps Q[X < x*] = e^eps exp(-(Delta - x*)/b)/2,
// and with x*/b = (Delta/b - eps)/2 both exponentials equal exp((eps - Delta/b)/2)/2 — hence the
// formula. (Check: b = 2, Delta = 4, eps = 0.5 gives 1 - e^-0.75 = 0.5276334473..., the
// dp_accounting test value.) Evaluated as -expm1((eps - Delta/b)/2): one rounding per end, no
// cancellation; exactly 0 (a point interval) for eps >= Delta/b.
//
// Errors: ParameterError for eps < 0, scale <= 0, sensitivity <= 0. Pure functions.
#pragma once

#include <gmpxx.h>

#include <exactdp/core/interval.h>
#include <exactdp/accounting/ziv.h>

namespace exactdp::accounting {

[[nodiscard]] Interval laplace_delta_at(const mpq_class& epsilon, const mpq_class& scale,
                                        const mpq_class& sensitivity, mpfr_prec_t precision);
[[nodiscard]] Certified laplace_delta(const mpq_class& epsilon, const mpq_class& scale,
                                      const mpq_class& sensitivity,
                                      const ZivOptions& options = {});

}  // namespace exactdp::accounting
