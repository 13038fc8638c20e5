// compose_events.h — the event-list forms of compose and calibrate (docs/DESIGN.md,
// "Command-line contract"): cmd_compose_events.cc and cmd_calibrate_dp_sgd.cc, hooked in by
// cmd_compose.cc / cmd_calibrate.cc. They read options and print; the computation is the
// library's (accounting/event_composition.h, accounting/dp_sgd_calibration.h):
//
//   exactdp compose --event EVENT [--count N] [--event EVENT [--count N] ...]
//                   (--delta R | --epsilon R) [--route auto|gdp|kov|basic|zcdp|rdp]
//                   [--neighbouring add-remove|replace-one] [--json] [--digits D] [--tolerance R]
//   exactdp calibrate dp-sgd --q R --steps N --epsilon R --delta R [--json] [--digits D]
//
// EVENT is kind:key=value,... (see kEventHelp in cmd_compose_events.cc). Every answer names the
// neighbouring relation and the route.
#pragma once

#include "cli/commands.h"

namespace exactdp::cli {

// Whether the compose arguments use the event-list form (some argument is --event or
// --event=...).
[[nodiscard]] bool compose_uses_events(Args args);
int cmd_compose_events(Args args, Io& io);

// `exactdp calibrate dp-sgd ...`: args are those after "dp-sgd".
int cmd_calibrate_dp_sgd(Args args, Io& io);

}  // namespace exactdp::cli
