// exactdp sample — placeholder, written next.
#include <ostream>

#include "cli/commands.h"

namespace exactdp::cli {

int cmd_sample(Args /*args*/, Io& io) {
  io.err << "exactdp sample: not implemented yet\n";
  return 1;
}

}  // namespace exactdp::cli
