#include "cli/output_target.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/args.h"
#include "cli/atomic_output.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {

// "--json = report.json": how every refusal begins.
std::string named(const std::string& option, const std::string& path) { return option + " = " + abbreviate(path); }

[[noreturn]] void refuse(const std::string& option, const std::string& path, const std::string& why) {
  throw ParameterError(parameter_name(option), named(option, path) + " " + why);
}

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// Refuses an existing regular file the caller may not write. Root passes access(2) whatever the
// mode, so a file with no write bit at all is refused on its mode, for every user.
void refuse_read_only(const std::string& option, const std::string& path, mode_t mode) {
  if ((mode & 0222) == 0) {
    refuse(option, path, "is read-only (mode " + octal_mode(mode) +
                             "): refused (it would be replaced all the same); make it writable or write to "
                             "another file");
  }
  if (::geteuid() != 0 && ::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) != 0 && errno == EACCES) {
    refuse(option, path, "is not writable by this user (mode " + octal_mode(mode) +
                             "): refused (it would be replaced all the same); write to another file");
  }
}

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// Refuses an existing output that is the file on standard input or the file of an input option.
void refuse_input(const NamedPath& output, const struct stat& target, const std::vector<NamedPath>& inputs,
                  bool reads_stdin) {
  struct stat in {};
  if (reads_stdin && ::fstat(STDIN_FILENO, &in) == 0 && same_file(in, target)) {
    refuse(output.option, output.path,
           "is the file read on standard input: refused (it would replace the input); write to another file");
  }
  for (const NamedPath& input : inputs) {
    if (::stat(input.path.c_str(), &in) == 0 && same_file(in, target)) {
      refuse(output.option, output.path,
             "is the file given to " + input.option + ": refused (it would replace the input); write to another file");
    }
  }
}

}  // namespace

std::vector<NamedPath> named_paths(const ParsedArgs& parsed, std::initializer_list<const char*> options) {
  std::vector<NamedPath> out;
  for (const char* option : options) {
    if (const auto path = parsed.get(option)) out.push_back({option, *path});
  }
  return out;
}

std::string file_kind(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

OutputTarget check_output_target(const std::string& option, const std::string& path) {
  if (path.empty()) throw ParameterError(parameter_name(option), option + " needs a file name");
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return {};  // a new path (its directory is checked on creating the temporary)
    refuse(option, path, std::string("cannot be examined: ") + std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) {
    refuse(option, path, "is a symbolic link: refused (links are never followed or replaced); name the file "
                         "itself or a new path");
  }
  if (!S_ISREG(st.st_mode)) {
    refuse(option, path, "is " + file_kind(st.st_mode) +
                             ", not a regular file: refused (the output would replace it); name a regular file or a "
                             "new path");
  }
  refuse_read_only(option, path, st.st_mode);
  return {true, st.st_dev, st.st_ino, static_cast<mode_t>(st.st_mode & 07777)};
}

void check_output_paths(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs,
                        bool reads_stdin) {
  for (const NamedPath& output : outputs) {
    const OutputTarget target = check_output_target(output.option, output.path);
    if (!target.exists) continue;
    struct stat st {};
    st.st_dev = target.device;
    st.st_ino = target.inode;
    refuse_input(output, st, inputs, reads_stdin);
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      refuse_same_output(outputs[i].option, outputs[i].path, outputs[j].option, outputs[j].path);
    }
  }
}

}  // namespace exactdp::cli
