#include <exactdp/samplers/internal/secret_page.h>

#include <sodium.h>
#include <sys/mman.h>
#include <unistd.h>

#include <new>

namespace exactdp::internal {
namespace {

std::size_t page_rounded(std::size_t n) {
  const long page = sysconf(_SC_PAGESIZE);
  const std::size_t p = page > 0 ? static_cast<std::size_t>(page) : 4096;
  return (n + p - 1) / p * p;
}

}  // namespace

SecretPage::SecretPage(std::size_t bytes) : size_(page_rounded(bytes == 0 ? 1 : bytes)) {
  void* mem = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
  data_ = mem;  // anonymous pages start zeroed
#ifdef MADV_DONTDUMP
  dump_excluded_ = madvise(mem, size_, MADV_DONTDUMP) == 0;
#endif
  // Best effort: over RLIMIT_MEMLOCK (EPERM/ENOMEM/EAGAIN) the page is merely swappable.
  locked_ = mlock(mem, size_) == 0;
}

SecretPage::~SecretPage() {
  sodium_memzero(data_, size_);
  if (locked_) munlock(data_, size_);
  munmap(data_, size_);
}

}  // namespace exactdp::internal
