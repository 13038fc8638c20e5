// Bit sources: the bit-stream contract, ChaCha20 known answers, the defined end of the 32-bit
// block counter, fork safety of SystemBits (with a real fork), and seed parsing.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <sodium.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>

namespace exactdp {
namespace {

Seed zero_seed() { return Seed{}; }

std::vector<unsigned char> read_bytes(BitSource& bits, std::size_t n) {
  std::vector<unsigned char> out(n);
  for (auto& b : out) b = static_cast<unsigned char>(bits.bits(8));
  return out;
}

std::vector<unsigned char> chacha_block(const Seed& key, std::uint64_t nonce_index, std::uint32_t counter) {
  std::vector<unsigned char> out(64, 0);
  unsigned char nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {0};
  for (int i = 0; i < 8; ++i) nonce[i] = static_cast<unsigned char>(nonce_index >> (8 * i));
  crypto_stream_chacha20_ietf_xor_ic(out.data(), out.data(), 64, nonce, counter, key.data());
  return out;
}

TEST(SeededBits, MatchesRfc8439KeystreamVector) {
  // RFC 8439 appendix A.1, test vector #1: all-zero key and nonce, block counter 0.
  const std::array<unsigned char, 16> expected = {0x76, 0xb8, 0xe0, 0xad, 0xa0, 0xf1, 0x3d, 0x90,
                                                  0x40, 0x5d, 0x6a, 0xe5, 0x53, 0x86, 0xbd, 0x28};
  SeededBits bits(zero_seed());
  const auto got = read_bytes(bits, 16);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), got.begin()));
  EXPECT_EQ(bits.bits_consumed(), 128u);
}

TEST(SeededBits, StreamContinuesWithNextNonceAtCounterEnd) {
  Seed key{};
  key[0] = 7;
  const uint128 last_block_of_nonce0 = (uint128{1} << 32) - 1;
  SeededBits bits(key, last_block_of_nonce0);
  const auto got = read_bytes(bits, 192);
  const auto a = chacha_block(key, 0, 0xffffffffu);
  const auto b = chacha_block(key, 1, 0);
  const auto c = chacha_block(key, 1, 1);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), got.begin()));
  EXPECT_TRUE(std::equal(b.begin(), b.end(), got.begin() + 64));
  EXPECT_TRUE(std::equal(c.begin(), c.end(), got.begin() + 128));
  EXPECT_NE(a, b);
}

// The stream made ahead in 16-block passes, read across many passes and across a nonce switch
// that falls inside a pass (start 21 blocks before the end of nonce 0): libsodium's keystream,
// nonce by nonce, byte for byte.
TEST(SeededBits, LongStreamAcrossPassesAndANonceSwitchIsLibsodiumsKeystream) {
  Seed key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<unsigned char>(5 * i + 11);
  const std::uint32_t first = 0xffffffffu - 20;
  SeededBits bits(key, first);
  const auto got = read_bytes(bits, 64 * 60);
  std::vector<unsigned char> expected;
  for (std::uint32_t c = first; c != 0; ++c) {  // 21 blocks: the rest of nonce 0
    const auto block = chacha_block(key, 0, c);
    expected.insert(expected.end(), block.begin(), block.end());
  }
  for (std::uint32_t c = 0; c < 39; ++c) {
    const auto block = chacha_block(key, 1, c);
    expected.insert(expected.end(), block.begin(), block.end());
  }
  EXPECT_EQ(got, expected);
}

// seek(b) mid-stream (here mid-word, then mid-buffer) continues exactly as a fresh source
// started at block b; a source that skipped seek (the deliberately wrong variant) does not.
TEST(SeededBits, SeekRestartsAtTheBlockLikeAFreshSource) {
  Seed key{};
  key[3] = 9;
  SeededBits moved(key);
  (void)moved.bits(13);
  const uint128 target = (uint128{5} << 64) + 3;
  moved.seek(target);
  SeededBits fresh(key, target);
  EXPECT_EQ(read_bytes(moved, 700), read_bytes(fresh, 700));
  (void)moved.bits(5);
  moved.seek(0);
  SeededBits start(key), unmoved(key, target);
  EXPECT_EQ(read_bytes(moved, 100), read_bytes(start, 100));
  SeededBits start_again(key);
  EXPECT_NE(read_bytes(unmoved, 100), read_bytes(start_again, 100));
}

TEST(SeededBits, SameSeedSameStreamDifferentSeedDifferentStream) {
  Seed other{};
  other[31] = 1;
  SeededBits a(zero_seed()), b(zero_seed()), c(other);
  EXPECT_EQ(read_bytes(a, 1000), read_bytes(b, 1000));
  SeededBits d(zero_seed());
  EXPECT_NE(read_bytes(c, 64), read_bytes(d, 64));
}

// Drawing k1 then k2 bits reads the same stream positions as drawing k1 + k2 bits.
RC_GTEST_PROP(BitSource, ChunksAreAPlainBitStream, ()) {
  const auto widths = *rc::gen::container<std::vector<unsigned>>(rc::gen::inRange(0u, 65u));
  SeededBits chunked(zero_seed()), single(zero_seed());
  std::uint64_t total = 0;
  for (unsigned k : widths) {
    const std::uint64_t v = chunked.bits(k);
    if (k < 64) RC_ASSERT(v < (std::uint64_t{1} << k));
    std::uint64_t w = 0;
    for (unsigned i = 0; i < k; ++i) w = (w << 1) | (single.bit() ? 1 : 0);
    RC_ASSERT(v == w);
    total += k;
  }
  RC_ASSERT(chunked.bits_consumed() == total);
  RC_ASSERT(single.bits_consumed() == total);
}

// Reads the first `start` bits of both sources (equal streams), 32 at a time.
void read_both(SeededBits& a, SeededBits& b, unsigned start) {
  for (unsigned done = 0; done < start; done += 32) {
    const unsigned k = std::min(32U, start - done);
    RC_ASSERT(a.bits(k) == b.bits(k));
  }
}

// A Reader reads its source's stream: k-bit reads through it, calls on the source through
// with_source and peeks (which read nothing) give the bits that single-bit reads give, across
// refills (the start is anywhere in the first buffer), and the source counts every bit.
RC_GTEST_PROP(BitSource, ReaderReadsTheSourcesStream, ()) {
  const auto start = *rc::gen::inRange(0u, 8u * 512u);
  const auto steps = *rc::gen::container<std::vector<unsigned>>(rc::gen::inRange(0u, 3u * 65u));
  SeededBits via_reader(zero_seed()), single(zero_seed());
  read_both(via_reader, single, start);
  std::uint64_t total = start;
  {
    BitSource::Reader reader(via_reader);
    for (unsigned step : steps) {
      const unsigned k = step % 65;
      std::uint64_t peeked = 0;
      if (step >= 130 && k >= 1 && k <= BitSource::kOneLoadBits) peeked = reader.peek(0, k);
      const std::uint64_t v =
          step >= 65 && step < 130 ? reader.with_source([k](BitSource& b) { return b.bits(k); }) : reader.bits(k);
      std::uint64_t w = 0;
      for (unsigned i = 0; i < k; ++i) w = (w << 1) | (single.bit() ? 1 : 0);
      RC_ASSERT(v == w);
      RC_ASSERT(peeked == 0 || peeked == w);  // 0: not buffered (or the bits are 0)
      total += k;
    }
  }
  RC_ASSERT(via_reader.bits_consumed() == total);
  RC_ASSERT(via_reader.bits(64) == single.bits(64));  // the position was handed back
}

// Reader::words gives the words that 64-bit reads give: from byte-aligned starts and from starts
// inside a byte, for counts that end inside the buffer, exactly at its end and several refills on.
RC_GTEST_PROP(BitSource, ReaderWordsAreSixtyFourBitReads, ()) {
  const auto start = *rc::gen::oneOf(rc::gen::map(rc::gen::inRange(0u, 512u), [](unsigned b) { return 8 * b; }),
                                     rc::gen::inRange(0u, 8u * 512u));
  const auto counts = *rc::gen::container<std::vector<unsigned>>(rc::gen::inRange(0u, 200u));
  SeededBits via_reader(zero_seed()), single(zero_seed());
  read_both(via_reader, single, start);
  std::uint64_t total = start;
  {
    BitSource::Reader reader(via_reader);
    std::vector<std::uint64_t> words;
    for (unsigned count : counts) {
      words.assign(count + 1, 0x5a5a5a5a5a5a5a5aULL);
      reader.words(words.data(), count);
      for (unsigned i = 0; i < count; ++i) RC_ASSERT(words[i] == single.bits(64));
      RC_ASSERT(words[count] == 0x5a5a5a5a5a5a5a5aULL);  // nothing written past count
      total += 64ULL * count;
    }
  }
  RC_ASSERT(via_reader.bits_consumed() == total);
  RC_ASSERT(via_reader.bits(64) == single.bits(64));
}

// Bit i of `bytes` in stream order: bit 7 - i % 8 of bytes[i / 8].
unsigned stream_bit(const std::vector<unsigned char>& bytes, std::size_t i) { return (bytes[i / 8] >> (7 - i % 8)) & 1; }

// What Reader::stream_bytes(out, count) wrote, checked for its shape: ceil((first + count) / 8)
// bytes (first, 0 .. 7, is returned and must be the place of the reader's position in its byte),
// the bits before first and after the read zero, nothing written past them. bit(i) is bit i of
// the read, for checking against the stream.
struct StreamCopy {
  std::vector<unsigned char> bytes;
  unsigned first = 0;
  [[nodiscard]] unsigned bit(std::size_t i) const { return stream_bit(bytes, first + i); }
};
constexpr unsigned char kUnwritten = 0x5a;
StreamCopy copy_stream(BitSource::Reader& reader, std::uint64_t position, std::size_t count) {
  StreamCopy c;
  c.bytes.assign(count / 8 + 16, kUnwritten);
  c.first = reader.stream_bytes(c.bytes.data(), count);
  const std::size_t end = c.first + count, written = (end + 7) / 8;
  RC_ASSERT(c.first == position % 8);
  for (std::size_t i = 0; i < c.first; ++i) RC_ASSERT(stream_bit(c.bytes, i) == 0U);
  for (std::size_t i = end; i < 8 * written; ++i) RC_ASSERT(stream_bit(c.bytes, i) == 0U);
  for (std::size_t i = written; i < c.bytes.size(); ++i) RC_ASSERT(c.bytes[i] == kUnwritten);
  return c;
}

// Reader::stream_bytes copies the stream as it is: from byte-aligned starts and starts inside a
// byte, with reads of a few bits between the copies, for counts that end inside the buffer, on its
// end and one or two refills on, the copy holds the bits that single-bit reads give.
RC_GTEST_PROP(BitSource, ReaderStreamBytesAreTheStream, ()) {
  const auto start = *rc::gen::oneOf(rc::gen::map(rc::gen::inRange(0u, 512u), [](unsigned b) { return 8 * b; }),
                                     rc::gen::inRange(0u, 8u * 512u));
  const auto counts = *rc::gen::container<std::vector<unsigned>>(rc::gen::inRange(0u, 9000u));
  const auto skips = *rc::gen::container<std::vector<unsigned>>(counts.size(), rc::gen::inRange(0u, 12u));
  SeededBits via_reader(zero_seed()), single(zero_seed());
  read_both(via_reader, single, start);
  std::uint64_t total = start;
  {
    BitSource::Reader reader(via_reader);
    for (std::size_t c = 0; c < counts.size(); ++c) {
      RC_ASSERT(reader.bits(skips[c]) == single.bits(skips[c]));
      total += skips[c];
      const StreamCopy copy = copy_stream(reader, total, counts[c]);
      for (unsigned i = 0; i < counts[c]; ++i) RC_ASSERT(copy.bit(i) == (single.bit() ? 1U : 0U));
      total += counts[c];
    }
  }
  RC_ASSERT(via_reader.bits_consumed() == total);
  RC_ASSERT(via_reader.bits(64) == single.bits(64));  // the position was handed back
}

// A source whose byte n is (37 n + 11) mod 256, filled in pieces of the buffer's size like any
// source: a known stream that is not ChaCha20's.
class CountingBytes final : public BitSource {
 public:
  CountingBytes() : BitSource(&state_) {}
  static unsigned bit_at(std::size_t i) { return (((37 * (i / 8) + 11) % 256) >> (7 - i % 8)) & 1; }

 protected:
  void refill(unsigned char* out, std::size_t n) override {
    for (std::size_t i = 0; i < n; ++i, ++next_) out[i] = static_cast<unsigned char>((37 * next_ + 11) % 256);
  }

 private:
  BitBufferState state_{};
  std::size_t next_ = 0;
};

// stream_bytes on a source that is not SeededBits: every start inside the first bytes, counts
// around a byte, the buffer's size and past two refills, each against the known stream.
TEST(BitSource, ReaderStreamBytesOnAnotherSource) {
  for (unsigned skip = 0; skip < 19; ++skip) {
    for (const std::size_t count : {0U, 1U, 7U, 8U, 9U, 63U, 1000U, 4095U, 4096U, 4097U, 9000U}) {
      SCOPED_TRACE("skip " + std::to_string(skip) + ", count " + std::to_string(count));
      CountingBytes source;
      {
        BitSource::Reader reader(source);
        ASSERT_EQ(reader.bits(skip), [&] {
          std::uint64_t w = 0;
          for (std::size_t i = 0; i < skip; ++i) w = (w << 1) | CountingBytes::bit_at(i);
          return w;
        }());
        const StreamCopy copy = copy_stream(reader, skip, count);
        for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(copy.bit(i), CountingBytes::bit_at(skip + i)) << "bit " << i;
      }
      EXPECT_EQ(source.bits_consumed(), skip + count);
      std::uint64_t next = 0;  // the position was handed back
      for (std::size_t i = skip + count; i < skip + count + 13; ++i) next = (next << 1) | CountingBytes::bit_at(i);
      EXPECT_EQ(source.bits(13), next);
    }
  }
}

// The system source (its bits are random: only the copy's shape is checked), across a refill.
TEST(BitSource, ReaderStreamBytesOnSystemBits) {
  SystemBits source;
  {
    BitSource::Reader reader(source);
    (void)reader.bits(3);
    const StreamCopy copy = copy_stream(reader, 3, 5000);  // past the first buffer
    EXPECT_NE(std::vector<unsigned char>(copy.bytes.begin(), copy.bytes.begin() + 32),
              std::vector<unsigned char>(32, 0));
  }
  EXPECT_EQ(source.bits_consumed(), 5003U);
}

TEST(SystemBits, TwoSourcesDiffer) {
  SystemBits a, b;
  EXPECT_NE(read_bytes(a, 32), read_bytes(b, 32));  // false alarm probability 2^-256
}

// Draws skip_bytes bytes and one bit in the parent (filling its buffer), forks, and returns the next 32 bytes drawn
// by the parent and by the child from the same source object.
std::pair<std::vector<unsigned char>, std::vector<unsigned char>> draw_after_fork(BitSource& bits,
                                                                                    std::size_t skip_bytes = 0) {
  (void)read_bytes(bits, skip_bytes);
  (void)bits.bit();
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    const auto child = read_bytes(bits, 32);
    const ssize_t w = write(fds[1], child.data(), child.size());
    _exit(w == 32 ? 0 : 1);
  }
  close(fds[1]);
  auto parent = read_bytes(bits, 32);
  std::vector<unsigned char> child(32);
  std::size_t got = 0;
  while (got < child.size()) {
    const ssize_t r = read(fds[0], child.data() + got, child.size() - got);
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got != child.size() || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("child did not report its bytes");
  }
  return {parent, child};
}

// A child created by fork() must not replay the parent's buffered bytes. If the child reused
// the 512-byte buffer both sides would draw the same 256 bits (certainly); with a fresh buffer
// they agree with probability 2^-256.
TEST(SystemBits, ForkedChildDoesNotReuseParentBuffer) {
  SystemBits bits;
  const auto [parent, child] = draw_after_fork(bits);
  EXPECT_NE(parent, child) << "child replayed the parent's buffered random bytes";
}

// The same past the first 512-byte buffer: the child must not refill its buffer from the
// keystream the parent made ahead (3 KiB a key) either.
TEST(SystemBits, ForkedChildDoesNotReuseTheStreamMadeAhead) {
  SystemBits bits;
  const auto [parent, child] = draw_after_fork(bits, 1000);
  EXPECT_NE(parent, child) << "child replayed keystream the parent made ahead";
}

// Companion: the fork comparison can fail. A deterministic stream (SeededBits) continues
// identically in parent and child, which the same comparison detects.
TEST(SystemBits, ForkComparisonDetectsAReplayedBuffer) {
  SeededBits bits(zero_seed());
  const auto [parent, child] = draw_after_fork(bits);
  EXPECT_EQ(parent, child);
}

TEST(ParseSeedHex, AcceptsExactly64HexDigits) {
  const Seed s = parse_seed_hex("seed", std::string(62, '0') + "aF");
  EXPECT_EQ(s[31], 0xaf);
  EXPECT_THROW((void)parse_seed_hex("seed", "00"), ParameterError);
  EXPECT_THROW((void)parse_seed_hex("seed", std::string(63, '0') + "g"), ParameterError);
  EXPECT_THROW((void)parse_seed_hex("seed", std::string(66, '0')), ParameterError);
}

}  // namespace
}  // namespace exactdp
