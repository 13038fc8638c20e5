// Placeholder until the event discretisations land (issue 17): every event is refused.
#include <exactdp/accounting/pld/pld_events.h>

#include <exactdp/samplers/errors.h>

namespace exactdp::accounting::pld {

DiscretePld discretize(const RdpEvent& event, PairOrder, Side, Neighbouring,
                       const DiscretizationOptions&) {
  throw ParameterError("route", "route: the pld route cannot discretise " + event.describe() + " yet");
}

}  // namespace exactdp::accounting::pld
