// exact_linear_algebra.h — small dense symmetric integer systems solved exactly, for noisy_ols.h.
// Matrices are row-major p x p vectors of mpz_class. Fraction-free Gaussian elimination (Bareiss,
// "Sylvester's identity and multistep integer-preserving Gaussian elimination", 1968) without
// pivoting: after step k the pivot is the (k + 1)-th leading principal minor and every entry is an
// integer minor of at most p B bits (B: the bits of an entry), with no gcd anywhere (elimination
// in rationals spends most of its time on them: about 50 times slower at p = 100). Valid (no
// zero pivot) exactly for positive definite matrices (Sylvester's criterion: a symmetric matrix
// is positive definite iff every leading principal minor is > 0).
// Cost: p^3 / 3 products and exact divisions of integers of up to p B bits (estimation_cost.h).
// Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <vector>

namespace exactdp::mechanisms {

// True iff the symmetric p x p integer matrix m is positive definite (all leading minors > 0).
[[nodiscard]] bool is_positive_definite(std::vector<mpz_class> m, std::size_t p);

// The solution of m x = b for a symmetric positive definite integer m; nullopt when a leading
// minor is <= 0 (m not positive definite).
[[nodiscard]] std::optional<std::vector<mpq_class>> solve_positive_definite(std::vector<mpz_class> m,
                                                                           std::vector<mpz_class> b,
                                                                           std::size_t p);

}  // namespace exactdp::mechanisms
