// exactdp measure-gdp — placeholder until its issue lands.
#include <ostream>

#include "cli/commands.h"

namespace exactdp::cli {

int cmd_measure_gdp(Args /*args*/, Io& io) {
  io.err << "exactdp measure-gdp: not implemented yet\n";
  return 1;
}

}  // namespace exactdp::cli
