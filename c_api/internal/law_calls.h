// law_calls.h — the registry calls of the C interface (exactdp.h) and the C++ facade
// (<exactdp/sampler.h>, <exactdp/laws.h>): a law with the capability a call needs and a
// certified profile with an optional hardened charge (both faces); the sampler a handle holds;
// the facade's calibration (the C interface calibrates through the operation `calibrate`, and both
// make their samplers through the operation `sample`, operations/, as the command line does).
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <exactdp/core/interval.h>
#include <exactdp/laws/law.h>

namespace exactdp::internal {

// Releases this thread's MPFR caches (constants such as pi) on every exit, so that a thread
// calling the accounting functions leaks nothing when it ends.
struct MpfrCacheRelease {
  MpfrCacheRelease() = default;
  MpfrCacheRelease(const MpfrCacheRelease&) = delete;
  MpfrCacheRelease& operator=(const MpfrCacheRelease&) = delete;
  ~MpfrCacheRelease() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
};

// Parameters by name as decimal text, as the caller gave them.
using NamedText = std::vector<std::pair<std::string, std::string>>;

// A registry law's ready sampler: the law, its validated parameters, its laws::Sampler (plain,
// or hardened; fixed when made): what the operation `sample` plans (operations/sample.h), held by
// a C handle or a facade Sampler.
struct LawSampler {
  const laws::Law* law = nullptr;
  laws::LawParameters parameters;
  std::shared_ptr<const laws::Sampler> sampler;
};

// The law of that name with capability c (UnsupportedError naming "law" and the laws that have
// it, `what` naming the capability: "certified profile", "calibration").
[[nodiscard]] const laws::Law& law_with(std::string_view name, laws::Capability c, const char* what);

// ParameterError naming "epsilon" unless epsilon >= 0 (`text`: the value as the caller wrote it).
void require_epsilon(const mpq_class& epsilon, std::string_view text);

// The law's certified delta(epsilon) at p (noise and privacy parameters), plus
// (1 + e^epsilon) tau_upper when tau_upper is given (a hardened sampler's charge).
[[nodiscard]] Interval certified_delta(const laws::Law& law, const laws::LawParameters& p, const mpq_class& epsilon,
                                       const mpq_class* tau_upper);

// The law's calibration map at (epsilon, delta) and its privacy parameters by name.
[[nodiscard]] laws::NoiseCalibration calibrate_law(std::string_view law, const NamedText& given,
                                                   const mpq_class& epsilon, const mpq_class& delta);

}  // namespace exactdp::internal
