// atomic_output.h — output files that appear whole or not at all, and never overwrite the input.
//
// AtomicOutputFile writes to a fresh temporary file in the SAME directory as the target
// (".NAME.exactdp-XXXXXX", created with mkstemp, then given the target's permissions or
// 0666 & ~umask), and commit() flushes it, fsyncs it, renames it over the target and fsyncs the
// directory. Until commit() the target is untouched: a run that fails (an exception, an early
// return: the destructor removes the temporary) leaves it byte for byte as it was. A run killed
// by SIGKILL may leave the hidden temporary behind, never a partial target.
//
// refuse_output_onto_input(option, path) refuses (ParameterError, exit 2, naming the option) an
// output path that is the same file (st_dev, st_ino) as standard input, so that
// `exactdp release --json t.csv < t.csv` cannot destroy the table it reads.
#pragma once

#include <memory>
#include <ostream>
#include <streambuf>
#include <string>

namespace exactdp::cli {

class AtomicOutputFile {
 public:
  // option: the user's option name ("--json"), used in error messages. Creates the temporary
  // now, so a missing directory or a read-only one is refused before any work (ParameterError).
  AtomicOutputFile(std::string option, std::string path);
  ~AtomicOutputFile();  // removes the temporary unless commit() succeeded
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  // The stream to write to (the temporary file).
  [[nodiscard]] std::ostream& stream() { return *stream_; }

  // Flush, fsync, rename into place, fsync the directory. Throws std::runtime_error (with the
  // option and path named) on any failure; the target is then unchanged.
  void commit();

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& temporary_path() const { return temp_path_; }

 private:
  std::string option_;
  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
  std::unique_ptr<std::streambuf> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

// Whether `path` names the same file as the open descriptor fd (false when path does not exist
// or fd is not open).
[[nodiscard]] bool same_file_as_fd(const std::string& path, int fd);

// Throws ParameterError naming `option` when `path` is the file open on standard input (fd 0).
void refuse_output_onto_input(const std::string& option, const std::string& path);

// Throws UsageError when two output options name the same file (the same path or the same
// existing file).
void refuse_same_output(const std::string& option_a, const std::string& path_a,
                        const std::string& option_b, const std::string& path_b);

}  // namespace exactdp::cli
