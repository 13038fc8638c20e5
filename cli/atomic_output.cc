#include "cli/atomic_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
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
mode_t output_mode(const OutputTarget& target) {
  if (target.exists) return target.mode;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

std::string system_error(const std::string& what) { return what + ": " + std::strerror(errno); }

}  // namespace

AtomicOutputFile::AtomicOutputFile(std::string option, std::string path)
    : option_(std::move(option)), path_(std::move(path)) {
  target_ = check_output_target(option_, path_);
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
  (void)::fchmod(fd_, output_mode(target_));
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
  replace_target();
  committed_ = true;
  const int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    (void)::fsync(dir);  // the rename itself durable; best effort (some file systems refuse)
    ::close(dir);
  }
}

// Renames the temporary over the target, replacing nothing but what was checked: a path that
// was new only if it still is (RENAME_NOREPLACE), an existing file by exchange_with_target.
void AtomicOutputFile::replace_target() {
  const std::string where = option_ + " " + abbreviate(path_);
  if (target_.exists) {
    exchange_with_target();
    return;
  }
  if (::renameat2(AT_FDCWD, temp_path_.c_str(), AT_FDCWD, path_.c_str(), RENAME_NOREPLACE) == 0) return;
  if (errno == EEXIST) {
    throw std::runtime_error(where + " was a new path and something appeared there during the run: left as it is "
                                     "and the output not written; run again");
  }
  if (errno != EINVAL && errno != ENOSYS) {
    throw std::runtime_error(system_error("cannot rename the temporary file onto " + where));
  }
  replace_after_recheck();
}

// An existing target: exchanged with the temporary, and exchanged back unless what came out is
// the file that was checked.
void AtomicOutputFile::exchange_with_target() {
  const std::string where = option_ + " " + abbreviate(path_);
  if (::renameat2(AT_FDCWD, temp_path_.c_str(), AT_FDCWD, path_.c_str(), RENAME_EXCHANGE) != 0) {
    if (errno == ENOENT) {  // removed during the run: now a new path
      target_.exists = false;
      replace_target();
      return;
    }
    if (errno == EINVAL || errno == ENOSYS) {
      replace_after_recheck();
      return;
    }
    throw std::runtime_error(system_error("cannot rename the temporary file onto " + where));
  }
  struct stat old {};  // what the target was, now under the temporary's name
  const bool examined = ::lstat(temp_path_.c_str(), &old) == 0;
  if (examined && S_ISREG(old.st_mode) && old.st_dev == target_.device && old.st_ino == target_.inode) {
    (void)::unlink(temp_path_.c_str());
    return;
  }
  const std::string was = examined ? file_kind(old.st_mode) : std::string("something else");
  if (::renameat2(AT_FDCWD, temp_path_.c_str(), AT_FDCWD, path_.c_str(), RENAME_EXCHANGE) != 0) {
    committed_ = true;  // the temporary's name holds the old target now: never remove it
    throw std::runtime_error(system_error(where + " became " + was + " during the run and could not be put back: it "
                                                  "is now at " + abbreviate(temp_path_)));
  }
  throw std::runtime_error(where + " became " + was + " (not the file checked) during the run: left as it is and "
                                   "the output not written; run again");
}

// Without RENAME_NOREPLACE / RENAME_EXCHANGE: the checks once more, then a plain rename.
void AtomicOutputFile::replace_after_recheck() {
  const std::string where = option_ + " " + abbreviate(path_);
  OutputTarget now;
  try {
    now = check_output_target(option_, path_);
  } catch (const ParameterError& e) {
    throw std::runtime_error(std::string(e.what()) + " (it changed during the run; the output is not written)");
  }
  // Still the file checked, or now a new path (removed during the run): renamed; anything else is left.
  if (now.exists && (!target_.exists || now.device != target_.device || now.inode != target_.inode)) {
    throw std::runtime_error(where + " changed during the run: left as it is and the output not written; run again");
  }
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    throw std::runtime_error(system_error("cannot rename the temporary file onto " + where));
  }
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

bool commit_outputs(AtomicOutputFile* table, AtomicOutputFile* json, const std::string& command, std::ostream& err) {
  try {
    if (table) table->commit();
    if (json) json->commit();
  } catch (const std::runtime_error& e) {
    err << "exactdp " << command << ": " << e.what() << "\n";
    return false;
  }
  return true;
}

}  // namespace exactdp::cli
