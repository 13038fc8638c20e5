// mechanisms/internal/noise_drawer.h — internal::NoiseDrawer: one draw of the calibrated per-cell noise
// (release_calibration.h) from the registry law the calibration names (laws/registry.h): the
// exact discrete Gaussian or Laplace sampler, or its hardened variant (--hardened), added to a GMP
// integer. Shared by the CSV release, the vector release and aggregate (its releases and partition
// selection) so that, for the same seed, they draw the same values; in mechanisms/internal/ because
// it serves more than one mechanism folder.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <memory>
#include <vector>
#include <optional>
#include <string>

#include <exactdp/laws/registry.h>
#include <exactdp/mechanisms/release/release_calibration.h>
#include <exactdp/samplers/bit_source.h>

namespace exactdp::mechanisms::internal {

// One noise draw per call, from the sampler the calibration chose.
class NoiseDrawer {
 public:
  // Column `column`'s noise (ReleaseCalibration::noise_of; noise() for a hand-built calibration).
  explicit NoiseDrawer(const ReleaseCalibration& c, std::size_t column = 0) {
    const laws::Law& law = release_law(c.budget.mechanism, c.budget.hardened);
    const laws::LawParameters p = law.parse_values({{c.parameter, c.noise_of(column)}}, laws::Use::kSample);
    sampler_ = law.make_sampler(p, c.budget.hardened ? std::optional<Hardening>(Hardening{}) : std::nullopt);
  }
  // value += one draw.
  void add_noise(BitSource& bits, mpz_class& value) {
    sampler_->sample(bits, noise_);
    value += noise_;
  }

 private:
  std::unique_ptr<laws::Sampler> sampler_;
  mpz_class noise_;
};

// One drawer for each of `columns` columns of the calibration, in its column order.
inline std::vector<NoiseDrawer> column_drawers(const ReleaseCalibration& c, std::size_t columns) {
  std::vector<NoiseDrawer> out;
  out.reserve(columns);
  for (std::size_t i = 0; i < columns; ++i) out.emplace_back(c, i);
  return out;
}

}  // namespace exactdp::mechanisms::internal
