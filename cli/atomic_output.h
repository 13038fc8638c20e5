// atomic_output.h — output files that appear whole or not at all, and never replace what they
// should not.
//
// AtomicOutputFile first checks the target (cli/output_target.h: a new path or a writable
// regular file, never a device, pipe, socket, directory or symbolic link), then writes to a
// fresh temporary file in the SAME directory (".NAME.exactdp-XXXXXX", created with mkstemp,
// then given the target's permissions or 0666 & ~umask); commit() flushes it, fsyncs it,
// renames it over the target and fsyncs the directory. Until commit() the target is untouched:
// a run that fails (an exception, an early return: the destructor removes the temporary) leaves
// it byte for byte as it was. A run killed by SIGKILL may leave the hidden temporary behind,
// never a partial target.
//
// The target may change between the check and the rename. On Linux the rename is made so that
// it only ever replaces what was checked: a path that was new is renamed with RENAME_NOREPLACE
// (refused if anything appeared there meanwhile), and an existing file is exchanged with the
// temporary (RENAME_EXCHANGE) and exchanged back, untouched, unless what came out is the very
// file checked (same st_dev, st_ino). commit() then throws and the target is left as it is. On
// a file system without these renames (EINVAL) the target is checked again with lstat right
// before a plain rename: what remains is the short window between that lstat and the rename,
// open only to someone who can already write the target's directory. A rename never writes
// through a link or into a device: at worst it replaces a directory entry.
#pragma once

#include <memory>
#include <ostream>
#include <streambuf>
#include <string>

#include "cli/output_target.h"

namespace exactdp::cli {

class AtomicOutputFile {
 public:
  // option: the user's option name ("--json"), used in error messages. Checks the target
  // (check_output_target) and creates the temporary now, so a refused target, a missing
  // directory or a read-only one is refused before any work (ParameterError).
  AtomicOutputFile(std::string option, std::string path);
  ~AtomicOutputFile();  // removes the temporary unless commit() succeeded
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  // The stream to write to (the temporary file).
  [[nodiscard]] std::ostream& stream() { return *stream_; }

  // Flush, fsync, rename into place, fsync the directory. Throws std::runtime_error (with the
  // option and path named) on any failure, or when the target is no longer what was checked;
  // the target is then unchanged.
  void commit();

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& temporary_path() const { return temp_path_; }

 private:
  void replace_target();
  void exchange_with_target();
  void replace_after_recheck();

  std::string option_;
  std::string path_;
  OutputTarget target_;
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
  std::unique_ptr<std::streambuf> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

// Throws UsageError when two output options name the same file (the same path or the same
// existing file).
void refuse_same_output(const std::string& option_a, const std::string& path_a,
                        const std::string& option_b, const std::string& path_b);

// Commits a command's table file and then its --json file, each when given (null: not asked for).
// On a failure prints "exactdp COMMAND: <why>" to err and returns false (exit status 1); the
// target of the failed commit is unchanged.
bool commit_outputs(AtomicOutputFile* table, AtomicOutputFile* json, const std::string& command, std::ostream& err);

}  // namespace exactdp::cli
