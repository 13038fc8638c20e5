// The in-repository ChaCha20 (samplers/internal/chacha20.h): every path this CPU can run, forced
// one at a time, against RFC 8439's vectors and byte for byte against libsodium's
// crypto_stream_chacha20_ietf_xor_ic on random keys, nonces, counters (up to the end of the
// 32-bit counter) and lengths (0 to a few KiB, odd ones included).
#include <gtest/gtest.h>
#include <sodium.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <exactdp/samplers/internal/chacha20.h>

namespace exactdp::internal {
namespace {

using Bytes = std::vector<unsigned char>;

Bytes from_hex(const std::string& hex) {
  Bytes out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<unsigned char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

Bytes ours(std::size_t len, const Bytes& nonce, std::uint32_t counter, const Bytes& key, ChaCha20Path path) {
  Bytes out(len + 1, 0xA5);  // one guard byte past the end: must stay untouched
  chacha20_keystream(out.data(), len, nonce.data(), counter, key.data(), path);
  EXPECT_EQ(out[len], 0xA5) << "wrote past " << len << " bytes";
  out.pop_back();
  return out;
}

Bytes libsodium(std::size_t len, const Bytes& nonce, std::uint32_t counter, const Bytes& key) {
  Bytes out(len + 1, 0);  // never empty: libsodium's pointers must not be null, even for len 0
  crypto_stream_chacha20_ietf_xor_ic(out.data(), out.data(), len, nonce.data(), counter, key.data());
  out.pop_back();
  return out;
}

class ChaCha20PathTest : public ::testing::TestWithParam<ChaCha20Path> {
 protected:
  void SetUp() override {
    ASSERT_GE(sodium_init(), 0);
    if (!chacha20_path_available(GetParam())) GTEST_SKIP() << "this CPU lacks " << chacha20_path_name(GetParam());
  }
};

TEST_P(ChaCha20PathTest, MatchesRfc8439Vectors) {
  const Bytes zero_key(32, 0), zero_nonce(12, 0);
  // Appendix A.1, test vectors #1 and #2: all-zero key and nonce, block counters 0 and 1.
  EXPECT_EQ(ours(64, zero_nonce, 0, zero_key, GetParam()),
            from_hex("76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
                     "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"));
  EXPECT_EQ(ours(64, zero_nonce, 1, zero_key, GetParam()),
            from_hex("9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
                     "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"));
  // Section 2.3.2: key 00..1f, nonce 000000090000004a00000000, block counter 1.
  Bytes key(32);
  for (int i = 0; i < 32; ++i) key[i] = static_cast<unsigned char>(i);
  EXPECT_EQ(ours(64, from_hex("000000090000004a00000000"), 1, key, GetParam()),
            from_hex("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                     "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"));
}

TEST_P(ChaCha20PathTest, MatchesLibsodiumOnRandomInputs) {
  std::mt19937_64 rng(20260401);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int trial = 0; trial < 300; ++trial) {
    Bytes key(32), nonce(12);
    for (auto& b : key) b = static_cast<unsigned char>(byte(rng));
    for (auto& b : nonce) b = static_cast<unsigned char>(byte(rng));
    // Lengths 0..5000 (most not a whole number of blocks), every length 0..130 in the first trials.
    const std::size_t len = trial <= 130 ? static_cast<std::size_t>(trial) : rng() % 5001;
    const std::uint64_t blocks = (len + 63) / 64;
    // Counters anywhere, and ranges that end exactly at the last block of the 32-bit counter.
    const auto counter = trial % 3 == 0 ? static_cast<std::uint32_t>((std::uint64_t{1} << 32) - blocks)
                                        : static_cast<std::uint32_t>(rng() % ((std::uint64_t{1} << 32) - blocks + 1));
    ASSERT_EQ(ours(len, nonce, counter, key, GetParam()), libsodium(len, nonce, counter, key))
        << chacha20_path_name(GetParam()) << " len " << len << " counter " << counter;
  }
}

// Every block position of a vector pass (16, 8 and 4 lanes) and each path's remainder: lengths of
// whole passes plus 0..17 blocks plus a partial block.
TEST_P(ChaCha20PathTest, MatchesLibsodiumAcrossPassBoundaries) {
  Bytes key(32), nonce(12);
  for (int i = 0; i < 32; ++i) key[i] = static_cast<unsigned char>(3 * i + 1);
  for (int i = 0; i < 12; ++i) nonce[i] = static_cast<unsigned char>(200 - i);
  for (std::size_t blocks = 0; blocks <= 49; ++blocks) {
    for (const std::size_t extra : {std::size_t{0}, std::size_t{1}, std::size_t{63}}) {
      const std::size_t len = 64 * blocks + extra;
      ASSERT_EQ(ours(len, nonce, 0xfffffe00u, key, GetParam()), libsodium(len, nonce, 0xfffffe00u, key))
          << chacha20_path_name(GetParam()) << " len " << len;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllPaths, ChaCha20PathTest,
                         ::testing::Values(ChaCha20Path::kScalar, ChaCha20Path::kVec128, ChaCha20Path::kAvx2,
                                           ChaCha20Path::kAvx512),
                         [](const auto& path_info) { return std::string(chacha20_path_name(path_info.param)); });

TEST(ChaCha20, FastestPathIsAvailableAndAnUnavailablePathFallsBackToScalar) {
  ASSERT_GE(sodium_init(), 0);
  EXPECT_TRUE(chacha20_path_available(chacha20_fastest_path()));
  EXPECT_TRUE(chacha20_path_available(ChaCha20Path::kScalar));
  const Bytes key(32, 9), nonce(12, 4);
  for (const auto path : {ChaCha20Path::kAvx2, ChaCha20Path::kAvx512}) {  // either way, same bytes
    EXPECT_EQ(ours(1000, nonce, 5, key, path), libsodium(1000, nonce, 5, key));
  }
}

// Past block 2^32 the block functions carry into the first nonce word (chacha20.h): words 12 and 13
// are one 64-bit counter, as in the original ChaCha20 of libsodium's crypto_stream_chacha20 (64-bit
// counter, 64-bit nonce in words 14 and 15). 32 blocks from counter 2^32 - 10 on: the carry falls
// inside a 16-block AVX-512 pass, an 8-block AVX2 pass and a 4-block 128-bit pass. Every path's
// block function, called directly, gives libsodium's bytes and leaves the counter at 2^32 + 22.
TEST(ChaCha20, BlockFunctionsCarryTheCounterIntoTheNextWord) {
  ASSERT_GE(sodium_init(), 0);
  Bytes key(32), nonce64(8);
  for (int i = 0; i < 32; ++i) key[i] = static_cast<unsigned char>(7 * i + 5);
  for (int i = 0; i < 8; ++i) nonce64[i] = static_cast<unsigned char>(90 + i);
  constexpr std::uint64_t kFirst = (std::uint64_t{1} << 32) - 10;
  constexpr std::size_t kBlocks = 32;
  Bytes want(64 * kBlocks, 0);
  crypto_stream_chacha20_xor_ic(want.data(), want.data(), want.size(), nonce64.data(), kFirst, key.data());
  const auto word = [](const unsigned char* p) {
    return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
  };
  using BlockFn = void (*)(std::uint32_t*, unsigned char*, std::size_t) noexcept;
  const std::pair<ChaCha20Path, BlockFn> paths[] = {{ChaCha20Path::kScalar, chacha20_blocks_scalar},
                                                    {ChaCha20Path::kVec128, chacha20_blocks_vec128},
                                                    {ChaCha20Path::kAvx2, chacha20_blocks_avx2},
                                                    {ChaCha20Path::kAvx512, chacha20_blocks_avx512}};
  for (const auto& [path, blocks_fn] : paths) {
    if (!chacha20_path_available(path)) continue;
    std::uint32_t state[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int i = 0; i < 8; ++i) state[4 + i] = word(key.data() + 4 * i);
    state[12] = static_cast<std::uint32_t>(kFirst);
    state[13] = static_cast<std::uint32_t>(kFirst >> 32);
    state[14] = word(nonce64.data());
    state[15] = word(nonce64.data() + 4);
    Bytes got(64 * kBlocks, 0);
    blocks_fn(state, got.data(), kBlocks);
    EXPECT_EQ(got, want) << chacha20_path_name(path);
    EXPECT_EQ(state[12], 22U) << chacha20_path_name(path);
    EXPECT_EQ(state[13], 1U) << chacha20_path_name(path);
  }
}

// The 128-bit path runs on every CPU, so the one-block-at-a-time loop is never the default: CPUs
// without AVX2 (and EXACTDP_CPU_LEVEL=baseline) get the 128-bit path.
TEST(ChaCha20, Vec128IsAlwaysAvailableAndTheDefaultWithoutAvx2) {
  EXPECT_TRUE(chacha20_path_available(ChaCha20Path::kVec128));
  EXPECT_NE(chacha20_fastest_path(), ChaCha20Path::kScalar);
  if (!chacha20_path_available(ChaCha20Path::kAvx2)) {
    EXPECT_EQ(chacha20_fastest_path(), ChaCha20Path::kVec128);
  }
}

}  // namespace
}  // namespace exactdp::internal
