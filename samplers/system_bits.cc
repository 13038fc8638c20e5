#include <exactdp/samplers/system_bits.h>

#include <exactdp/samplers/internal/secret_page.h>

#include <sodium.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <set>

namespace exactdp {
namespace {

constexpr std::size_t kStateBytes = sizeof(BitBufferState);

// Fallback registry for kernels without MADV_WIPEONFORK: the child handler of pthread_atfork
// zeroes every live state, i.e. empties every buffer in the child.
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::set<BitBufferState*>& registry() {
  static std::set<BitBufferState*> states;
  return states;
}
void wipe_all_in_child() {
  // Only one thread exists in the child; no locking needed (and the mutex may be held).
  for (BitBufferState* s : registry()) sodium_memzero(s, kStateBytes);
}
void install_atfork_once() {
  static std::once_flag once;
  std::call_once(once, [] { pthread_atfork(nullptr, nullptr, wipe_all_in_child); });
}

void ensure_sodium() {
  if (sodium_init() < 0) {
    std::fputs("exactdp: fatal: libsodium could not be initialised (no entropy source)\n", stderr);
    std::abort();
  }
}

}  // namespace

SystemBits::SystemBits() : BitSource(nullptr) {
  ensure_sodium();
  // Anonymous, dump-excluded, mlock'ed where allowed; starts zeroed: an empty buffer.
  page_ = std::make_unique<internal::SecretPage>(kStateBytes);
  void* mem = page_->data();
  const std::size_t len = page_->size();
  state_ = static_cast<BitBufferState*>(mem);
#ifdef MADV_WIPEONFORK
  wipe_on_fork_ = madvise(mem, len, MADV_WIPEONFORK) == 0;
#else
  (void)len;
#endif
  if (!wipe_on_fork_) {
    install_atfork_once();
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().insert(state_);
  }
}

SystemBits::~SystemBits() {
  if (!wipe_on_fork_) {
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().erase(state_);
  }
  sodium_memzero(state_, kStateBytes);
  state_ = nullptr;
  page_.reset();  // wipes the whole page again, munlock, munmap
}

bool SystemBits::memory_locked() const noexcept { return page_->locked(); }
bool SystemBits::dump_excluded() const noexcept { return page_->dump_excluded(); }

void SystemBits::refill(unsigned char* out, std::size_t n) {
  randombytes_buf(out, n);  // aborts inside libsodium if the OS source fails
}

}  // namespace exactdp
