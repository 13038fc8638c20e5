// convert_compose.cc — the operations `convert` and `compose pure-dp` through the C++ facade
// (<exactdp/convert.h>, <exactdp/compose.h>): the public requests into operations::ConvertRequest
// and operations::ComposePureDpRequest (operations/convert.h, operations/compose.h, shared with
// the command line and Python), their reports into the public ones.
#include <exactdp/compose.h>
#include <exactdp/convert.h>

#include <optional>
#include <string>

#include <exactdp/c_api/internal/law_calls.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/checked_count.h>
#include <exactdp/operations/compose.h>
#include <exactdp/operations/convert.h>

namespace exactdp {

ConvertReport convert(const ConvertRequest& request) {
  const internal::MpfrCacheRelease release;
  operations::ConvertRequest r;
  r.source = request.source;
  r.rho = operations::optional_rational("rho", request.rho);
  r.mu = operations::optional_rational("mu", request.mu);
  r.epsilon = operations::optional_rational("epsilon", request.epsilon);
  r.delta = operations::optional_rational("delta", request.delta);
  r.tolerance = operations::optional_rational("tolerance", request.tolerance);
  r.spelling = internal::kFacadeSpelling;
  const operations::ConvertReport c = operations::convert(r);
  return {c.source, c.result, c.value.value, c.value.tolerance_met, c.alpha, c.rho, c.route, c.meaning};
}

ComposePureDpReport compose_pure_dp(const ComposePureDpRequest& request) {
  const internal::MpfrCacheRelease release;
  operations::ComposePureDpRequest r;
  r.epsilon = parse_rational("epsilon", request.epsilon);
  r.k = request.k;
  r.delta = parse_rational("delta", request.delta);
  r.method = request.method;
  r.tolerance = operations::optional_rational("tolerance", request.tolerance);
  r.spelling = internal::kFacadeSpelling;
  const operations::ComposePureDpReport c = operations::compose_pure_dp(r);
  ComposePureDpReport out{c.epsilon, c.k, c.delta, {}};
  for (const operations::ComposedEpsilon& m : c.results) out.results.push_back({m.method, m.epsilon, m.tolerance_met, m.route});
  return out;
}

}  // namespace exactdp
