// internal/hardened_plans.h — the tables of one hardened sampler (not installed): built once by
// HardenedDiscreteGaussianParams::make / HardenedDiscreteLaplaceParams::make, read by every
// draw, and read by the tests, which compute the exact law of the hardened sampler from them
// (docs/HARDENED.md). The public headers hold them behind a pointer (params.plan()).
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <memory>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/internal/hardened_rejection.h>
#include <exactdp/samplers/internal/hardened_scan.h>
#include <exactdp/samplers/internal/hardened_tables.h>

namespace exactdp::internal {

// hardened_discrete_gaussian.h: X = mean + Z_0 + m Z_1 + ... + m^(L-1) Z_(L-1) + m^L Z_base.
struct HardenedGaussianPlan {
  FixedWidth width;
  std::int64_t m = 4;
  unsigned levels = 0;      // L
  mpq_class fine_sigma2;    // s (unused when levels == 0)
  mpq_class base_sigma2;    // v_L
  ThresholdTable fine;      // magnitude table of D_{Z, sqrt(s)}
  ThresholdTable base;      // magnitude table of D_{Z, sqrt(v_L)}
  ScanTable fine_scan;      // the same tables in the layout of the draws (hardened_scan.h)
  ScanTable base_scan;
  // Set when the rejection method draws instead (internal/hardened_rejection.h): then the fields
  // above are unused (levels = 0, empty tables).
  std::shared_ptr<const HardenedRejectionPlan> rejection;
};

// One isochronous draw of X from `plan` (what sample_discrete_gaussian does with the plan of
// its parameters; tests also draw from deliberately broken plans). |X - mean| < 2^61.
[[nodiscard]] std::int64_t draw_hardened_gaussian(BitSource& bits, const HardenedGaussianPlan& plan,
                                                  std::int64_t mean) noexcept;

// hardened_discrete_laplace.h: X = mean + S B (1 + G).
struct HardenedLaplacePlan {
  FixedWidth width;
  ThresholdTable magnitude;  // entry 0: B; entry 1 + i: digit i of G, i < K
};

}  // namespace exactdp::internal
