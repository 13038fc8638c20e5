// denoise.h — post-processing of a released vector (Balle–Wang, "Improving the Gaussian
// mechanism", section 4): James–Stein shrinkage and soft thresholding. These act on values
// ALREADY released, so they cost no privacy (post-processing) and need not be exact; they are
// computed in exact rational arithmetic anyway (no float), which makes results reproducible.
//
//  james_stein(y, s2):   (1 - (d - 2) s2 / ||y||^2)_+ y   (positive-part James–Stein, Stein
//                        1956; s2 = the noise variance per coordinate of y), y unchanged for d < 3
//                        and 0 when ||y|| = 0.
//  soft_threshold(y, l): sign(y_j) max(|y_j| - l, 0) per coordinate (Donoho 1995), l >= 0.
//  universal_threshold(s2, d): a rational upper bound (within 2^-60 relative) of
//                        sqrt(2 s2 ln d), Donoho's universal threshold (0 for d <= 1).
// Errors: std::invalid_argument for negative s2 or l. Thread-safety: pure functions.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <vector>

namespace exactdp::mechanisms {

[[nodiscard]] std::vector<mpq_class> james_stein(const std::vector<mpq_class>& y, const mpq_class& s2);
[[nodiscard]] std::vector<mpq_class> soft_threshold(const std::vector<mpq_class>& y, const mpq_class& l);
[[nodiscard]] mpq_class universal_threshold(const mpq_class& s2, std::size_t d);
// ||a - b||_2^2, exact.
[[nodiscard]] mpq_class squared_distance(const std::vector<mpq_class>& a, const std::vector<mpq_class>& b);

}  // namespace exactdp::mechanisms
