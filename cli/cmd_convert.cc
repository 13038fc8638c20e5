// exactdp convert — placeholder until its issue lands.
#include <ostream>

#include "cli/commands.h"

namespace exactdp::cli {

int cmd_convert(Args /*args*/, Io& io) {
  io.err << "exactdp convert: not implemented yet\n";
  return 1;
}

}  // namespace exactdp::cli
