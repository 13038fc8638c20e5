// measure_gdp.cc — the operation `measure-gdp` through the C++ facade (<exactdp/measure_gdp.h>):
// the public request into an operations::MeasureGdpRequest (operations/measure_gdp.h, shared
// with `exactdp measure-gdp` and exactdp.measure_gdp), its report into the public one.
#include <exactdp/measure_gdp.h>

#include <string>

#include <exactdp/accounting/gdp_measurement.h>
#include <exactdp/c_api/internal/law_calls.h>
#include <exactdp/operations/measure_gdp.h>

namespace exactdp {

MeasureGdpReport measure_gdp(const MeasureGdpRequest& request) {
  const internal::MpfrCacheRelease release;
  operations::MeasureGdpRequest r;
  r.mechanism = request.mechanism;
  r.parameters = request.parameters;
  r.eps_max = request.eps_max;
  r.tolerance = request.tolerance;
  r.mu_max = request.mu_max;
  if (request.seed) r.seed = std::to_string(*request.seed);
  r.naive = request.naive;
  r.spelling = internal::kFacadeSpelling;
  const accounting::GdpMeasurable m = operations::measure_gdp_mechanism(r);
  const operations::MeasureGdpReport report = operations::measure_gdp_report(m, operations::measure_gdp_options(r, m));
  const accounting::GdptResult& g = report.measured.result;
  const accounting::GdpTail& tail = report.measured.tail;
  return {report.mechanism.description, report.options.eps_max, report.options.tolerance, g.mu, g.bounded,
          report.measured.complete, report.algorithm, g.grid_points, g.binary_searches, g.profile_evaluations,
          g.gdp_evaluations, tail.limit, tail.limit_source, tail.ratios};
}

}  // namespace exactdp
