// c_api_law.cc — the generic sampler constructor of the C interface (exactdp.h), which the
// per-law constructors (c_api_sampler.cc) call at a fixed law: exactdp_sampler_new builds any law
// of the registry (laws/registry.h) from its parameters by name as decimal text, and hands back the law's own laws::Sampler in the opaque handle, so
// every registry law with a sampler (the staircase included) is drawable from C with
// exactdp_sample_int64 / exactdp_sample_decimal. exactdp_sampler_laws lists those laws.
//
// Order of checks: pointers (EXACTDP_E_NULL), flags, then the operation `sample`'s
// (operations/sample.h, the same checks and messages as the command line's and Python's, in the
// C spelling): the law's name (a law without a sampler: EXACTDP_E_PARAM naming "law"), tau_bits,
// the parameters' names, EXACTDP_HARDENED for a law without a hardened sampler (naming
// "hardened"), the values (naming the parameter) and the hardened range; then the sampler is
// built. Nothing is drawn and *out is written only on success.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <exactdp/exactdp.h>
#include <exactdp/laws/law.h>
#include <exactdp/laws/registry.h>
#include <exactdp/c_api/internal/c_api_support.h>
#include <exactdp/c_api/internal/law_calls.h>
#include <exactdp/core/errors.h>
#include <exactdp/operations/sample.h>
#include <exactdp/core/rational.h>

namespace exactdp::internal {

std::vector<std::pair<std::string, std::string>> named_values(const char* const* names, const char* const* values,
                                                              std::size_t count) {
  std::vector<std::pair<std::string, std::string>> given;
  if (count == 0) return given;
  require_non_null(names, "names");
  require_non_null(values, "values");
  given.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string index = "[" + std::to_string(i) + "]";
    require_non_null(names[i], ("names" + index).c_str());
    require_non_null(values[i], ("values" + index).c_str());
    given.emplace_back(names[i], values[i]);
  }
  return given;
}

std::unique_ptr<exactdp_sampler> make_sampler(const char* law_name,
                                              const std::vector<std::pair<std::string, std::string>>& given,
                                              bool hardened, const std::optional<std::string>& tau_bits) {
  const MpfrCacheRelease release;  // building a sampler uses MPFR (the hardened tau, a law's tables)
  operations::SampleRequest request{law_name, given, hardened, tau_bits, kCSpelling};
  operations::SamplePlan plan = operations::plan_sample(request);
  auto s = std::make_unique<exactdp_sampler>();
  s->law = plan.law;
  s->parameters = std::move(plan.params);
  s->sampler = std::move(plan.sampler);
  return s;
}

}  // namespace exactdp::internal

using exactdp::internal::guard;
using exactdp::internal::require_non_null;
namespace internal = exactdp::internal;

extern "C" {

int exactdp_sampler_new(const char* law, const char* const* names, const char* const* values, size_t count,
                        int flags, exactdp_sampler** out) {
  return guard([&] {
    require_non_null(out, "out");
    require_non_null(law, "law");
    const auto given = internal::named_values(names, values, count);
    const bool hardened = internal::hardened_flag(flags);
    *out = internal::make_sampler(law, given, hardened, std::nullopt).release();  // the last step: nothing after it can fail
    return EXACTDP_OK;
  });
}

int exactdp_sampler_laws(char* buf, size_t len) {
  return guard([&] {
    require_non_null(buf, "buf");
    internal::write_text(exactdp::laws::law_names_with(exactdp::laws::Capability::kSample), buf, len, "buf");
    return EXACTDP_OK;
  });
}

}  // extern "C"
