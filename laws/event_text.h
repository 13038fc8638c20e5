// event_text.h — a privacy event of the registry written as text, the form `exactdp compose
// --event` and exactdp.compose_events take:
//
//   kind:key=value,...      e.g. gaussian:sigma=2   poisson-gaussian:sigma=1,q=0.01
//
// kind is a law of the registry with Capability::kEvent (registry.h), or "poisson-<law>" for a
// law with Capability::kSubsample (then q=R, 0 < q <= 1, is required). The keys are the law's
// noise parameters, then q, then its privacy parameters (the sensitivity); a key with a
// fallback may be left out. Values are exact rationals / integers as the law parses them.
//
// Errors: ParameterError naming "event" for text that is not of this form, an unknown kind or
// key, a key given twice or a required key missing; the law's own ParameterError (naming the
// parameter) for a bad value; ParameterError naming "count" for a count outside 1..10^12.
// Thread-safety: pure functions (the registry is immutable).
#pragma once

#include <string>

#include <exactdp/accounting/rdp.h>

namespace exactdp::laws {

// The event the text names (plain, or Poisson-subsampled with rate q).
[[nodiscard]] accounting::RdpEvent parse_event_text(const std::string& text);

// "gaussian, laplace, ..., poisson-gaussian, ...": the kinds parse_event_text accepts.
[[nodiscard]] std::string event_kinds();

// A count of uses of an event, as text: an integer 1 <= count <= 10^12.
[[nodiscard]] unsigned long parse_event_count(const std::string& text);

}  // namespace exactdp::laws
