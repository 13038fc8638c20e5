// exactdp profile — placeholder until its issue lands.
#include <ostream>

#include "cli/commands.h"

namespace exactdp::cli {

int cmd_profile(Args /*args*/, Io& io) {
  io.err << "exactdp profile: not implemented yet\n";
  return 1;
}

}  // namespace exactdp::cli
