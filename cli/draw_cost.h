// draw_cost.h — forwards to operations/draw_cost.h, where the draw-cost limit now lives so that
// every face gets it; kept until the commands that use it include that header directly.
#pragma once

#include <exactdp/operations/draw_cost.h>

namespace exactdp::cli {

using operations::check_draw_cost;
using operations::kMaxDrawSeconds;

}  // namespace exactdp::cli
