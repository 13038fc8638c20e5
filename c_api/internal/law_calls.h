// law_calls.h — the registry calls of the C interface (exactdp.h) and the C++ facade
// (<exactdp/sampler.h>, <exactdp/laws.h>): a law with the capability a call needs, the sampler a
// handle holds, and the calibration both faces make through the operation `calibrate`. Both
// evaluate profiles through the operation `law delta` (operations/law_delta.h) and make their
// samplers through the operation `sample` (operations/sample.h), as the command line does.
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <exactdp/laws/law.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::internal {

// Releases this thread's MPFR caches (constants such as pi) on every exit, so that a thread
// calling the accounting functions leaks nothing when it ends.
struct MpfrCacheRelease {
  MpfrCacheRelease() = default;
  MpfrCacheRelease(const MpfrCacheRelease&) = delete;
  MpfrCacheRelease& operator=(const MpfrCacheRelease&) = delete;
  ~MpfrCacheRelease() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
};

// How the C++ facade's operations (<exactdp/operations.h>) name a parameter in a message: as the
// C interface does ("missing required parameter sigma"), a flag as its field ("hardened = true").
inline const operations::Spelling kFacadeSpelling{"", "parameter", "", false, " = true"};

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

// The law's calibration map at (epsilon, delta) and its privacy parameters by name: the law
// (law_with), the parameters' names (the law's parser refuses any but the sensitivity), then the
// operation `calibrate` (operations/calibrate.h: epsilon, delta and the sensitivity checked as the
// command line and Python check them) at the law's default tolerance.
[[nodiscard]] laws::NoiseCalibration calibrate_law(std::string_view law, const NamedText& given,
                                                   const mpq_class& epsilon, const mpq_class& delta,
                                                   const operations::Spelling& spelling);

}  // namespace exactdp::internal
