// output_target.h — which paths an output option may replace: a regular file the caller may
// write, or a new path; never a device, a pipe, a socket, a directory, a symbolic link, a
// read-only file or a file the same run reads.
//
// Every output file is written to a temporary beside it and renamed over the target
// (cli/atomic_output.h). rename(2) replaces whatever directory entry the path names, so without
// these checks `--json /dev/null` (as root) would replace the device node with a regular file,
// `--json k.csv --keys k.csv` would replace the keys it reads, and a 0444 file would be replaced
// because renaming needs only the directory's permission. So, before any work, each output is
// refused (ParameterError, exit 2, naming the option, the path and what it is) when:
//   - it exists and is not a regular file: a character or block device, a named pipe (FIFO), a
//     socket, a directory, or a symbolic link (refused outright, even to a regular file: name
//     the file itself; a link is never followed or replaced);
//   - it is read-only: no write bit in its mode (checked on the mode bits, so root is refused
//     too, although root bypasses access(2)), or, for other users, not writable by the caller;
//   - it is an input of the run: the file on standard input, or the file of an input option
//     (--keys, --seed-file, ...), compared by st_dev and st_ino (so a hard link is caught; a new
//     path is never an input);
//   - two outputs name the same file (UsageError).
// The checks happen again right before the rename (AtomicOutputFile::commit): see there for
// what the rename does if the target changed during the run.
#pragma once

#include <sys/types.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace exactdp::cli {

class ParsedArgs;

// A path given to an option: {"--keys", "k.csv"}.
struct NamedPath {
  std::string option;
  std::string path;
};

// The paths of those of `options` that were given, in that order.
[[nodiscard]] std::vector<NamedPath> named_paths(const ParsedArgs& parsed, std::initializer_list<const char*> options);

// What an output path named when it was checked: nothing (a new path) or a regular file.
struct OutputTarget {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  mode_t mode = 0;  // the permission bits of an existing target
};

// The checks that need no knowledge of the run: not a new path nor a writable regular file ->
// ParameterError naming `option`. Returns what the path names now.
OutputTarget check_output_target(const std::string& option, const std::string& path);

// Every check above for each of `outputs`: its kind and mode, not one of `inputs`, not the file
// on standard input when reads_stdin, and no two outputs the same file. Call it before any work:
//   check_output_paths(named_paths(parsed, {"--output", "--json"}),
//                      named_paths(parsed, {"--keys", "--seed-file"}), real_stdin);
void check_output_paths(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs,
                        bool reads_stdin);

// "a character device", "a symbolic link", "a regular file", ... for a st_mode.
[[nodiscard]] std::string file_kind(mode_t mode);

}  // namespace exactdp::cli
