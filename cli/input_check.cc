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

void check_stdout_is_not_stdin() {
  struct stat in {};
  struct stat out {};
  if (::fstat(STDIN_FILENO, &in) != 0 || ::fstat(STDOUT_FILENO, &out) != 0) return;
  if (!S_ISREG(in.st_mode) || in.st_dev != out.st_dev || in.st_ino != out.st_ino) return;
  throw ParameterError("stdout", "stdout: standard output is the file read on standard input: refused (the table "
                                 "would overwrite the input while it is read); write to another file or use --output");
}

void check_input_file(const std::string& option, const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw ParameterError(parameter_name(option), option + " = " + abbreviate(path) + " is a directory: give a file");
  }
}

}  // namespace exactdp::cli
