#include "cli/input_check.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "cli/args.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::cli {

void check_stdin_readable() {
  struct stat st {};
  if (::fstat(STDIN_FILENO, &st) != 0) {
    throw ParameterError("stdin", std::string("stdin: standard input cannot be read (") + std::strerror(errno) +
                                      "): give the input on standard input, e.g. < input.csv");
  }
  if (S_ISDIR(st.st_mode)) {
    throw ParameterError("stdin", "stdin: standard input is a directory: give a file, e.g. < input.csv");
  }
}

void check_input_file(const std::string& option, const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw ParameterError(parameter_name(option), option + " = " + abbreviate(path) + " is a directory: give a file");
  }
}

}  // namespace exactdp::cli
