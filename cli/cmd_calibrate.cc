// exactdp calibrate — placeholder until its issue lands.
#include <ostream>

#include "cli/commands.h"

namespace exactdp::cli {

int cmd_calibrate(Args /*args*/, Io& io) {
  io.err << "exactdp calibrate: not implemented yet\n";
  return 1;
}

}  // namespace exactdp::cli
