// exactdp compose — placeholder until its issue lands.
#include <ostream>

#include "cli/commands.h"

namespace exactdp::cli {

int cmd_compose(Args /*args*/, Io& io) {
  io.err << "exactdp compose: not implemented yet\n";
  return 1;
}

}  // namespace exactdp::cli
