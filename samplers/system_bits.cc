#include <exactdp/samplers/system_bits.h>

#include <exactdp/samplers/internal/chacha20.h>
#include <exactdp/samplers/internal/secret_page.h>

#include <sodium.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <mutex>
#include <new>
#include <set>

namespace exactdp {
namespace {

// Bytes of ChaCha20 keystream made under one fresh key from the OS (three AVX-512 passes): the
// most that keeps the whole state in one page of the lock budget.
constexpr std::size_t kStreamBytes = 3072;

// The layout of the protected page. All zero is the empty state: empty buffer, nothing made.
struct SystemState {
  BitBufferState buffer;
  alignas(64) unsigned char stream[kStreamBytes];
  std::size_t stream_left;  // the last stream_left bytes of `stream` are not yet handed out
  unsigned char key[32];    // the OS key, only while a stream is made; zero otherwise
};
constexpr std::size_t kStateBytes = sizeof(SystemState);
static_assert(kStateBytes <= 4096, "one page");

// Fallback registry for kernels without MADV_WIPEONFORK: the child handler of pthread_atfork
// zeroes every live state, i.e. empties every buffer and stream in the child.
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::set<SystemState*>& registry() {
  static std::set<SystemState*> states;
  return states;
}
void wipe_all_in_child() {
  // Only one thread exists in the child; no locking needed (and the mutex may be held).
  for (SystemState* s : registry()) sodium_memzero(s, kStateBytes);
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
  state_ = &static_cast<SystemState*>(mem)->buffer;
#ifdef MADV_WIPEONFORK
  wipe_on_fork_ = madvise(mem, len, MADV_WIPEONFORK) == 0;
#else
  (void)len;
#endif
  if (!wipe_on_fork_) {
    install_atfork_once();
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().insert(static_cast<SystemState*>(mem));
  }
}

SystemBits::~SystemBits() {
  if (!wipe_on_fork_) {
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().erase(static_cast<SystemState*>(page_->data()));
  }
  sodium_memzero(page_->data(), kStateBytes);
  state_ = nullptr;
  page_.reset();  // wipes the whole page again, munlock, munmap
}

bool SystemBits::memory_locked() const noexcept { return page_->locked(); }
bool SystemBits::dump_excluded() const noexcept { return page_->dump_excluded(); }

void SystemBits::refill(unsigned char* out, std::size_t n) {
  auto* st = static_cast<SystemState*>(page_->data());
  while (n > 0) {
    if (st->stream_left == 0) make_stream();
    unsigned char* from = st->stream + (kStreamBytes - st->stream_left);
    const std::size_t take = std::min(n, st->stream_left);
    std::memcpy(out, from, take);
    sodium_memzero(from, take);  // handed out: only the buffer keeps it
    st->stream_left -= take;
    out += take;
    n -= take;
  }
}

void SystemBits::make_stream() {
  auto* st = static_cast<SystemState*>(page_->data());
  randombytes_buf(st->key, sizeof st->key);  // aborts inside libsodium if the OS source fails
  const unsigned char nonce[12] = {0};      // each key makes one stream: the nonce never repeats
  internal::chacha20_keystream(st->stream, kStreamBytes, nonce, 0, st->key);
  sodium_memzero(st->key, sizeof st->key);
  st->stream_left = kStreamBytes;
}

}  // namespace exactdp
