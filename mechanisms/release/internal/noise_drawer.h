// noise_drawer.h — internal::NoiseDrawer: one draw of the calibrated per-cell noise
// (release_calibration.h) from the sampler it names: the exact discrete Gaussian or Laplace, or
// their hardened variants (--hardened), added to a GMP integer. Shared by the CSV release and
// the vector release so that, for the same seed, both draw the same values.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <optional>

#include <exactdp/mechanisms/release/release_calibration.h>
#include <exactdp/samplers/bit_source.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>

namespace exactdp::mechanisms::internal {

// One noise draw per call, from the sampler the calibration chose.
class NoiseDrawer {
 public:
  explicit NoiseDrawer(const ReleaseCalibration& c) {
    const bool laplace = c.budget.mechanism == NoiseMechanism::kDiscreteLaplace;
    if (c.budget.hardened) {
      if (laplace) {
        hardened_laplace_.emplace(HardenedDiscreteLaplaceParams::make(c.scale));
      } else {
        hardened_gaussian_.emplace(HardenedDiscreteGaussianParams::make(c.sigma2));
      }
    } else if (laplace) {
      laplace_.emplace(DiscreteLaplaceParams::make(c.scale));
    } else {
      gaussian_.emplace(DiscreteGaussianParams::make(c.sigma2));
    }
  }
  // value += one draw.
  void add_noise(BitSource& bits, mpz_class& value) {
    std::int64_t small = 0;
    if (hardened_laplace_) {
      small = sample_discrete_laplace(bits, *hardened_laplace_);
    } else if (hardened_gaussian_) {
      small = sample_discrete_gaussian(bits, *hardened_gaussian_);
    } else {
      if (laplace_) {
        sample_discrete_laplace(bits, *laplace_, noise_);
      } else {
        sample_discrete_gaussian(bits, *gaussian_, noise_);
      }
      value += noise_;
      return;
    }
    mpz_class s;
    mpz_set_si(s.get_mpz_t(), static_cast<long>(small));
    value += s;
  }

 private:
  std::optional<DiscreteGaussianParams> gaussian_;
  std::optional<DiscreteLaplaceParams> laplace_;
  std::optional<HardenedDiscreteGaussianParams> hardened_gaussian_;
  std::optional<HardenedDiscreteLaplaceParams> hardened_laplace_;
  mpz_class noise_;
};

}  // namespace exactdp::mechanisms::internal
