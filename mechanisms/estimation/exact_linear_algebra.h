// exact_linear_algebra.h — small dense symmetric systems in exact rationals, for noisy_ols.h.
// Matrices are row-major p x p vectors of mpq_class. Gaussian elimination without pivoting,
// which is valid (no zero pivot) exactly for positive definite matrices (Sylvester's criterion:
// every leading pivot of a symmetric positive definite matrix is > 0).
// Cost: O(p^3) rational operations. Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <vector>

namespace exactdp::mechanisms {

// True iff the symmetric p x p matrix m is positive definite (all leading pivots > 0), exactly.
[[nodiscard]] bool is_positive_definite(std::vector<mpq_class> m, std::size_t p);

// The solution of m x = b for a symmetric positive definite m; nullopt when a pivot is <= 0
// (m not positive definite).
[[nodiscard]] std::optional<std::vector<mpq_class>> solve_positive_definite(std::vector<mpq_class> m,
                                                                           std::vector<mpq_class> b,
                                                                           std::size_t p);

}  // namespace exactdp::mechanisms
