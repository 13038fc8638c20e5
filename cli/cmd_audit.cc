// exactdp audit — placeholder until its issue lands.
#include <ostream>

#include "cli/commands.h"

namespace exactdp::cli {

int cmd_audit(Args /*args*/, Io& io) {
  io.err << "exactdp audit: not implemented yet\n";
  return 1;
}

}  // namespace exactdp::cli
