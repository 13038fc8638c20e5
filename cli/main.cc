// exactdp — the command-line tool. Thin: run_exactdp parses, calls the library and prints.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && (args[0] == "--version" || args[0] == "-V")) {
    std::cout << "exactdp " EXACTDP_VERSION_STRING "\n";  // the project version (cli/CMakeLists.txt)
    std::cout.flush();
    return std::cout ? 0 : 1;
  }
  exactdp::cli::Io io{std::cin, std::cout, std::cerr, isatty(STDERR_FILENO) == 1};
  const int status = exactdp::cli::run_exactdp(args, io);
  std::cout.flush();
  if (!std::cout && status == 0) {  // a command that already failed has said why
    std::cerr << "exactdp: error writing output\n";
    return 1;
  }
  return status;
}
