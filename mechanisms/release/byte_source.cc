#include <exactdp/mechanisms/release/byte_source.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace exactdp::mechanisms {
namespace {

[[noreturn]] void fail(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace

std::unique_ptr<TwoPassInput> TwoPassInput::from_fd(int fd) {
  std::unique_ptr<TwoPassInput> input(new TwoPassInput());
  input->fd_ = fd;
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    const off_t at = lseek(fd, 0, SEEK_CUR);
    if (at >= 0) {
      input->in_place_ = true;
      input->start_offset_ = static_cast<long long>(at);
    }
  }
  if (!input->in_place_) {
    input->spool_ = std::tmpfile();
    if (input->spool_ == nullptr) fail("cannot create a temporary file to spool the input");
  }
  return input;
}

std::unique_ptr<TwoPassInput> TwoPassInput::from_stream(std::istream& in) {
  std::unique_ptr<TwoPassInput> input(new TwoPassInput());
  input->stream_ = &in;
  input->spool_ = std::tmpfile();
  if (input->spool_ == nullptr) fail("cannot create a temporary file to spool the input");
  return input;
}

TwoPassInput::~TwoPassInput() {
  if (spool_ != nullptr) std::fclose(spool_);
}

std::size_t TwoPassInput::read_source(char* out, std::size_t n) {
  if (stream_ != nullptr) {
    stream_->read(out, static_cast<std::streamsize>(n));
    const std::streamsize got = stream_->gcount();
    if (got == 0 && stream_->bad()) fail("error reading the input");
    return static_cast<std::size_t>(got);
  }
  for (;;) {
    const ssize_t got = ::read(fd_, out, n);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) fail("error reading the input");
  }
}

std::size_t TwoPassInput::read(char* out, std::size_t n) {
  if (n == 0) return 0;
  if (second_pass_ && !in_place_) {
    const std::size_t got = std::fread(out, 1, n, spool_);
    if (got == 0 && std::ferror(spool_)) fail("error reading the spooled input");
    return got;
  }
  const std::size_t got = read_source(out, n);
  if (!second_pass_ && !in_place_ && got > 0 && std::fwrite(out, 1, got, spool_) != got) {
    fail("error writing the temporary copy of the input (disk full?)");
  }
  return got;
}

void TwoPassInput::rewind() {
  second_pass_ = true;
  if (in_place_) {
    if (lseek(fd_, static_cast<off_t>(start_offset_), SEEK_SET) < 0) fail("cannot re-read the input");
    return;
  }
  if (std::fflush(spool_) != 0) fail("error writing the temporary copy of the input (disk full?)");
  if (std::fseek(spool_, 0, SEEK_SET) != 0) fail("cannot re-read the spooled input");
}

}  // namespace exactdp::mechanisms
