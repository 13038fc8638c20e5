// byte_source.h — the input of `exactdp release`, read twice in bounded memory.
//
// A release reads its input twice: pass 1 validates every record and counts the rows (nothing
// is written), pass 2 writes the noisy table. TwoPassInput gives both passes the same bytes:
//   - from a seekable regular file: read it, then seek back to where it started and read it
//     again (no copy). The file must not change in between: pass 2 re-parses every record and a
//     structural difference from pass 1 is reported (ReleaseInputChanged, release_table.h), but
//     by then part of the table may have been written, so do not edit the file while it is
//     released;
//   - from anything else (a pipe, a terminal, a socket, a std::istream): pass 1 copies every
//     byte it reads to an anonymous temporary file (tmpfile(3): $TMPDIR or /tmp, unlinked at
//     once, gone when the process ends) and pass 2 reads that copy.
// Memory: one 64 KiB buffer either way; disk: one copy of the input when spooling.
// Errors: std::system_error for a read or temporary-file failure (exit 1 in the CLI).
// Thread-safety: one object per thread.
#pragma once

#include <cstddef>
#include <cstdio>
#include <istream>
#include <memory>

namespace exactdp::mechanisms {

// Something bytes are read from.
class ByteReader {
 public:
  virtual ~ByteReader() = default;
  // Up to n bytes into out; 0 at the end of the input.
  [[nodiscard]] virtual std::size_t read(char* out, std::size_t n) = 0;
};

class TwoPassInput : public ByteReader {
 public:
  // Reads file descriptor fd (not owned; e.g. 0 for stdin).
  [[nodiscard]] static std::unique_ptr<TwoPassInput> from_fd(int fd);
  // Reads a stream (always spooled: a stream's seekability says nothing about its source).
  [[nodiscard]] static std::unique_ptr<TwoPassInput> from_stream(std::istream& in);
  ~TwoPassInput() override;

  std::size_t read(char* out, std::size_t n) override;
  // Ends pass 1 and starts pass 2 at the first byte again. Call once.
  void rewind();
  // True when the input is re-read in place, false when pass 2 reads the spooled copy.
  [[nodiscard]] bool rereads_in_place() const noexcept { return in_place_; }

 private:
  TwoPassInput() = default;
  std::size_t read_source(char* out, std::size_t n);

  int fd_ = -1;                   // the source when reading a descriptor
  std::istream* stream_ = nullptr;  // the source when reading a stream
  long long start_offset_ = 0;    // where the input started, for the in-place rewind
  bool in_place_ = false;
  bool second_pass_ = false;
  std::FILE* spool_ = nullptr;    // the copy made in pass 1 (not in place)
};

}  // namespace exactdp::mechanisms
