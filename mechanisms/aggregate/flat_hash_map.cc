#include <exactdp/mechanisms/aggregate/flat_hash_map.h>

#include <sodium.h>

#include <stdexcept>

namespace exactdp::mechanisms::internal {

static_assert(crypto_shorthash_KEYBYTES == sizeof(HashKey::bytes));
static_assert(crypto_shorthash_BYTES == sizeof(std::uint64_t));

HashKey random_hash_key() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
  HashKey key;
  randombytes_buf(key.bytes.data(), key.bytes.size());
  return key;
}

std::uint64_t text_hash(std::string_view s, const HashKey& key) noexcept {
  unsigned char out[crypto_shorthash_BYTES];
  crypto_shorthash(out, reinterpret_cast<const unsigned char*>(s.data()), s.size(), key.bytes.data());
  std::uint64_t h = 0;
  for (int i = 7; i >= 0; --i) h = (h << 8) | out[i];
  return h;
}

}  // namespace exactdp::mechanisms::internal
