// flat_hash_map.h — the two hash tables of the contribution bounder (contribution_bounder.h):
// open addressing with linear probing in one flat array (no node per entry, no allocation per
// look-up), the capacity a power of two, doubled when the load would pass 3/4.
//   TextIds       interns texts: the id of a text is the number of distinct texts seen before
//                 it (0, 1, 2, ... in order of first sight); text(id) gives it back.
//   FlatU64Map<V> a 64-bit key (any value whose high 32 bits are not all ones) to a V (trivially
//                 copyable, value-initialised on insertion). The key is kept as two 32-bit
//                 halves, so an entry with a 4-byte V takes 12 bytes.
// Hashes, keyed so that an input cannot make look-ups slow (with an unkeyed hash, texts built to
// collide make every look-up linear in their number; std::hash has such collisions): texts by
// SipHash-2-4 under a random 128-bit key; 64-bit keys by the splitmix64 finaliser of the key xor
// a random 64-bit secret (the bounder's pair keys are ids it assigns, not bytes of the input).
// Ids, values and every result of the bounder are independent of the hashes, of their keys and
// of the table layout: only the speed depends on them. Iteration order (for_each) is the
// table's: use it for sums only. The default keys (all zero) are for tests.
// Memory: TextIds 32 bytes a slot (a text shorter than 20 bytes is compared there, without
// touching its std::string) plus one std::string per text; FlatU64Map 8 + sizeof(V) bytes
// (aligned to 4) a slot, so between 4/3 and 8/3 of that per entry, and during a doubling the
// old table too; capacity_bytes() is what the table holds now.
// Thread-safety: none (one per thread).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace exactdp::mechanisms::internal {

// The splitmix64 finaliser: a bijection of 64-bit words with full avalanche.
[[nodiscard]] inline std::uint64_t mix64(std::uint64_t x) noexcept {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// The secret of the keyed hashes: one random key per table (random_hash_key()), so that an input
// cannot choose texts or pairs that collide.
struct HashKey {
  std::array<unsigned char, 16> bytes{};
};

// Sixteen bytes from the operating system's generator (libsodium's randombytes_buf).
[[nodiscard]] HashKey random_hash_key();

// SipHash-2-4 of `s` under `key` (libsodium's crypto_shorthash): a keyed pseudorandom function.
[[nodiscard]] std::uint64_t text_hash(std::string_view s, const HashKey& key) noexcept;

class TextIds {
 public:
  explicit TextIds(const HashKey& key = {}) : key_(key) {}
  // The id of `text`; a new text gets the next id and sets `fresh`.
  [[nodiscard]] std::uint32_t intern(std::string_view text, bool& fresh) {
    if ((texts_.size() + 1) * 4 > slots_.size() * 3) grow();
    const std::uint64_t h = text_hash(text, key_);
    for (std::size_t at = h & mask_;; at = (at + 1) & mask_) {
      Slot& s = slots_[at];
      if (s.id_plus_one == 0) {
        s.id_plus_one = static_cast<std::uint32_t>(texts_.size() + 1);
        s.size = static_cast<std::uint32_t>(text.size() < kInline ? text.size() : kInline);
        if (s.size > 0) std::memcpy(s.head, text.data(), s.size);
        s.tag = static_cast<std::uint32_t>(h >> 32);
        texts_.emplace_back(text);
        fresh = true;
        return s.id_plus_one - 1;
      }
      if (matches(s, text, h)) {
        fresh = false;
        return s.id_plus_one - 1;
      }
    }
  }
  [[nodiscard]] const std::string& text(std::uint32_t id) const { return texts_[id]; }
  [[nodiscard]] std::size_t size() const noexcept { return texts_.size(); }
  [[nodiscard]] std::size_t capacity_bytes() const noexcept { return slots_.size() * sizeof(Slot); }
  // The std::string objects of the texts (their heap blocks, past 15 bytes, are the caller's to count).
  [[nodiscard]] std::size_t text_bytes() const noexcept { return texts_.size() * sizeof(std::string); }
  [[nodiscard]] std::size_t text_capacity() const noexcept { return texts_.capacity(); }

 private:
  // A text of fewer than kInline bytes is compared in its slot (one cache line touched); a longer
  // one by its first kInline bytes there, then whole in texts_.
  static constexpr std::size_t kInline = 20;
  struct Slot {
    std::uint32_t id_plus_one = 0;  // 0: empty
    std::uint32_t size = 0;         // min(text size, kInline): kInline means "look in texts_"
    std::uint32_t tag = 0;          // the hash's high 32 bits
    char head[kInline] = {};
  };
  bool matches(const Slot& s, std::string_view text, std::uint64_t h) const {
    if (s.tag != static_cast<std::uint32_t>(h >> 32)) return false;
    if (text.size() < kInline) return s.size == text.size() && (s.size == 0 || std::memcmp(s.head, text.data(), s.size) == 0);
    return s.size == kInline && std::memcmp(s.head, text.data(), kInline) == 0 && texts_[s.id_plus_one - 1] == text;
  }
  void grow() {
    std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(slots_.empty() ? 16 : 2 * slots_.size()));
    mask_ = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.id_plus_one == 0) continue;
      std::size_t at = text_hash(texts_[s.id_plus_one - 1], key_) & mask_;
      while (slots_[at].id_plus_one != 0) at = (at + 1) & mask_;
      slots_[at] = s;
    }
  }
  HashKey key_;
  std::vector<Slot> slots_;
  std::vector<std::string> texts_;
  std::size_t mask_ = 0;
};

template <typename V>
class FlatU64Map {
 public:
  explicit FlatU64Map(std::uint64_t secret = 0) : secret_(secret) {}
  // The value of `key`, inserted (value-initialised) when absent; the bool says it was inserted.
  // The pointer is valid until the next insertion.
  [[nodiscard]] std::pair<V*, bool> try_emplace(std::uint64_t key) {
    if ((size_ + 1) * 4 > entries_.size() * 3) grow();
    const Entry wanted = split(key);
    for (std::size_t at = slot_of(key);; at = (at + 1) & mask_) {
      Entry& e = entries_[at];
      if (e.high == wanted.high && e.low == wanted.low) return {&e.value, false};
      if (e.high == kEmptyHigh) {
        e = wanted;
        ++size_;
        return {&e.value, true};
      }
    }
  }
  // The value of `key`, or null.
  [[nodiscard]] V* find(std::uint64_t key) {
    if (entries_.empty()) return nullptr;
    const Entry wanted = split(key);
    for (std::size_t at = slot_of(key);; at = (at + 1) & mask_) {
      Entry& e = entries_[at];
      if (e.high == wanted.high && e.low == wanted.low) return &e.value;
      if (e.high == kEmptyHigh) return nullptr;
    }
  }
  // f(key, value) for every entry, in table order.
  template <typename F>
  void for_each(F&& f) const {
    for (const Entry& e : entries_) {
      if (e.high != kEmptyHigh) f((std::uint64_t{e.high} << 32) | e.low, e.value);
    }
  }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t capacity_bytes() const noexcept { return entries_.size() * sizeof(Entry); }

 private:
  static constexpr std::uint32_t kEmptyHigh = ~std::uint32_t{0};
  struct Entry {
    std::uint32_t high = kEmptyHigh;
    std::uint32_t low = 0;
    V value{};
  };
  [[nodiscard]] std::size_t slot_of(std::uint64_t key) const noexcept { return mix64(key ^ secret_) & mask_; }
  static Entry split(std::uint64_t key) {
    return {static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key), V{}};
  }
  void grow() {
    std::vector<Entry> old = std::exchange(entries_, std::vector<Entry>(entries_.empty() ? 16 : 2 * entries_.size()));
    mask_ = entries_.size() - 1;
    for (const Entry& e : old) {
      if (e.high == kEmptyHigh) continue;
      std::size_t at = slot_of((std::uint64_t{e.high} << 32) | e.low);
      while (entries_[at].high != kEmptyHigh) at = (at + 1) & mask_;
      entries_[at] = e;
    }
  }
  std::uint64_t secret_;
  std::vector<Entry> entries_;
  std::size_t size_ = 0;
  std::size_t mask_ = 0;
};

}  // namespace exactdp::mechanisms::internal
