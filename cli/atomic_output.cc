#include "cli/atomic_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "cli/args.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>

namespace exactdp::cli {
namespace {

// A std::streambuf writing to a file descriptor through a 64 KiB buffer; a failed write makes
// the stream bad (and commit() then refuses to rename).
class FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd), buffer_(1 << 16) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    while (p < pptr()) {
      const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      p += n;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return true;
  }

  int fd_;
  std::vector<char> buffer_;
};

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The permissions a plain open(O_CREAT, 0666) would give, or the existing target's.
mode_t target_mode(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return st.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

std::string system_error(const std::string& what) { return what + ": " + std::strerror(errno); }

}  // namespace

AtomicOutputFile::AtomicOutputFile(std::string option, std::string path)
    : option_(std::move(option)), path_(std::move(path)) {
  if (path_.empty()) throw ParameterError(parameter_name(option_), option_ + " needs a file name");
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw ParameterError(parameter_name(option_),
                         option_ + " = " + abbreviate(path_) + " is a directory, not a file");
  }
  std::string pattern = directory_of(path_) + "/." + base_name_of(path_) + ".exactdp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) {
    throw ParameterError(parameter_name(option_),
                         option_ + " = " + abbreviate(path_) +
                             system_error(": cannot create a temporary file beside it"));
  }
  temp_path_.assign(name.data());
  (void)::fchmod(fd_, target_mode(path_));
  buffer_ = std::make_unique<FdBuffer>(fd_);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
}

AtomicOutputFile::~AtomicOutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void AtomicOutputFile::commit() {
  const std::string where = option_ + " " + abbreviate(path_);
  stream_->flush();
  if (!*stream_) throw std::runtime_error(system_error("error writing " + where));
  if (::fsync(fd_) != 0) throw std::runtime_error(system_error("error syncing " + where));
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw std::runtime_error(system_error("error closing " + where));
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    throw std::runtime_error(system_error("cannot rename the temporary file onto " + where));
  }
  committed_ = true;
  const int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    (void)::fsync(dir);  // the rename itself durable; best effort (some file systems refuse)
    ::close(dir);
  }
}

bool same_file_as_fd(const std::string& path, int fd) {
  struct stat a {};
  struct stat b {};
  if (::stat(path.c_str(), &a) != 0 || ::fstat(fd, &b) != 0) return false;
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

void refuse_output_onto_input(const std::string& option, const std::string& path) {
  if (!same_file_as_fd(path, STDIN_FILENO)) return;
  throw ParameterError(parameter_name(option),
                       option + " = " + abbreviate(path) +
                           " is the file read on standard input: refused (it would replace the "
                           "input); write to another file");
}

void refuse_same_output(const std::string& option_a, const std::string& path_a,
                        const std::string& option_b, const std::string& path_b) {
  struct stat a {};
  struct stat b {};
  const bool same_existing = ::stat(path_a.c_str(), &a) == 0 && ::stat(path_b.c_str(), &b) == 0 &&
                             a.st_dev == b.st_dev && a.st_ino == b.st_ino;
  if (path_a == path_b || same_existing) {
    throw UsageError(option_a + " and " + option_b + " name the same file ('" +
                     abbreviate(path_a) + "'): give two different files");
  }
}

}  // namespace exactdp::cli
