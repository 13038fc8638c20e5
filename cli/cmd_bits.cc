// exactdp bits — placeholder until its issue lands.
#include <ostream>

#include "cli/commands.h"

namespace exactdp::cli {

int cmd_bits(Args /*args*/, Io& io) {
  io.err << "exactdp bits: not implemented yet\n";
  return 1;
}

}  // namespace exactdp::cli
