// ziv.h — the precision-growing driver (a Ziv loop) for certified interval computations.
//
// evaluate_to_tolerance(f, options) calls f(p) for p = initial_precision, 2p, 4p, ... where f
// computes a certified Interval at working precision p. Each result contains the true value, so
// the driver intersects them: the returned interval is contained in every interval it computed
// (raising the precision never widens the answer). It stops when
//   - the relative width is <= tolerance (tolerance_met = true), or
//   - the precision cap is reached, or the result cannot improve (its upper end underflowed
//     below 2^(emin / 2), about 2^(-2^61), or its relative width did not shrink over a doubling
//     while finite):
//     then the wider, still certified interval is returned with tolerance_met = false.
// A point interval (e.g. an exact 0) meets any tolerance.
//
// Cost: f's cost at each precision; with doubling the last call dominates.
// Errors: ZivOptions are validated (ParameterError naming "tolerance" or "precision");
// anything f throws propagates. Thread-safety: as safe as f.
#pragma once

#include <gmpxx.h>

#include <functional>

#include <exactdp/core/interval.h>

namespace exactdp::accounting {

// 2^-100, the default relative-width tolerance.
[[nodiscard]] mpq_class default_tolerance();
// 2^-10000: the smallest tolerance accepted (a tighter one could not be met under the cap).
[[nodiscard]] mpq_class minimum_tolerance();

struct ZivOptions {
  mpq_class tolerance = default_tolerance();  // relative width wanted, in [2^-10000, inf)
  mpfr_prec_t initial_precision = kDefaultPrecision;  // bits, >= 32
  mpfr_prec_t max_precision = kMaxPrecision;          // bits, in [initial, kMaxPrecision]

  // Throws ParameterError when a field is out of range.
  void validate() const;
};

// A certified interval and whether it met the requested tolerance.
struct Certified {
  Interval value;
  bool tolerance_met = false;
  mpfr_prec_t precision = 0;  // the last working precision used
};

[[nodiscard]] Certified evaluate_to_tolerance(const std::function<Interval(mpfr_prec_t)>& f,
                                              const ZivOptions& options = {});

// An upper bound on ceil(-log2(tolerance)) (at most 1 above it); 0 for tolerance >= 1. A
// search that stops once its bracket's relative width is below 2^-(tolerance_bits + 2) meets
// the tolerance without refining further (gdp_conversions.h).
[[nodiscard]] long tolerance_bits(const mpq_class& tolerance);

// The working precision a Ziv loop should start from to reach `tolerance`: at least
// options.initial_precision and at least -log2(tolerance) + 24 bits, capped at max_precision.
[[nodiscard]] mpfr_prec_t starting_precision(const ZivOptions& options);

}  // namespace exactdp::accounting
