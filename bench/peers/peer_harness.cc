// peer_harness.cc — exactdp side by side with Karney's exrandom (Algorithm D of "Sampling
// exactly from the normal distribution", 2016), built and run only by scripts/compare-peers
// (never by CMake or CI). Both samplers get ChaCha20 randomness from libsodium: exactdp through
// its own SeededBits, exrandom through the small ChaChaUrng adapter below (a
// UniformRandomBitGenerator over crypto_stream_chacha20 refilled 4 KiB at a time; SeededBits
// refills 512 bytes, measured no slower per sample in docs/BENCHMARK_HISTORY.md). Rounds interleave
// exactdp, exrandom and a bare ChaCha20 run of 4 KiB (the block unit of bench/speed_bench), each
// timed with the thread's CPU clock; the medians over the rounds are printed, so a loaded
// machine shifts all three alike.
//
// Output: one tab-separated line per case:
//   case  exactdp_ns  exrandom_ns|-  block_ns  exactdp_bits  exrandom_bits|-
// Build with -DEXACTDP_PEER_EXRANDOM and exrandom's include/ on the path to get the exrandom
// columns (exrandom takes sigma as a ratio of machine ints: sigma2 = 1, 100, 10^4, 10^6, 10^12 here).
#include <sodium.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>

#ifdef EXACTDP_PEER_EXRANDOM
#include <exrandom/discrete_normal_distribution.hpp>
#endif

namespace {

double thread_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// A UniformRandomBitGenerator of 32-bit words over the ChaCha20 keystream (libsodium), keyed by
// a fixed test key; counts the words handed out.
class ChaChaUrng {
 public:
  using result_type = std::uint32_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return 0xffffffffU; }
  ChaChaUrng() {
    key_.fill(7);
    refill();
  }
  result_type operator()() {
    if (pos_ == buf_.size()) refill();
    ++words_;
    return buf_[pos_++];
  }
  [[nodiscard]] std::uint64_t words() const { return words_; }

 private:
  void refill() {
    std::array<unsigned char, 8> nonce{};
    std::memcpy(nonce.data(), &block_, sizeof block_);
    crypto_stream_chacha20(reinterpret_cast<unsigned char*>(buf_.data()), buf_.size() * 4, nonce.data(),
                           key_.data());
    ++block_;
    pos_ = 0;
  }
  std::array<unsigned char, crypto_stream_chacha20_KEYBYTES> key_{};
  std::array<std::uint32_t, 1024> buf_{};
  std::size_t pos_ = 0;
  std::uint64_t block_ = 0, words_ = 0;
};

struct Case {
  std::string name;
  std::function<void(std::size_t)> exactdp;   // n draws
  std::function<void(std::size_t)> exrandom;  // n draws, or empty
  std::function<std::uint64_t()> exactdp_bits;
  std::function<std::uint64_t()> exrandom_bits;
};

volatile std::int64_t sink = 0;

}  // namespace

namespace {

// The discrete Gaussian cases (exrandom's discrete_normal_distribution beside them where built
// with it; it has no case for sigma2 = 1e100) and the discrete Laplace case, all seeded alike.
std::vector<Case> make_cases(const exactdp::Seed& seed) {
  std::vector<Case> cases;
  const std::array<std::pair<const char*, int>, 6> gaussians{
      {{"1", 1}, {"100", 10}, {"1e4", 100}, {"1e6", 1000}, {"1e12", 1000000}, {"1e100", 0}}};
  for (const auto& [s2, sigma] : gaussians) {
    auto params = std::make_shared<exactdp::DiscreteGaussianParams>(
        exactdp::DiscreteGaussianParams::make(exactdp::parse_rational("sigma2", s2)));
    auto bits = std::make_shared<exactdp::SeededBits>(seed);
    Case c;
    c.name = std::string("discrete Gaussian sigma2 = ") + s2;
    if (sigma != 0) {
      c.exactdp = [params, bits](std::size_t k) {
        for (std::size_t i = 0; i < k; ++i) sink = sink + *exactdp::sample_discrete_gaussian_int64(*bits, *params);
      };
    } else {
      auto out = std::make_shared<mpz_class>();
      c.exactdp = [params, bits, out](std::size_t k) {
        for (std::size_t i = 0; i < k; ++i) exactdp::sample_discrete_gaussian(*bits, *params, *out);
      };
    }
    c.exactdp_bits = [bits] { return bits->bits_consumed(); };
#ifdef EXACTDP_PEER_EXRANDOM
    if (sigma != 0) {
      auto urng = std::make_shared<ChaChaUrng>();
      auto dist = std::make_shared<exrandom::discrete_normal_distribution>(0, 1, sigma, 1);
      c.exrandom = [urng, dist](std::size_t k) {
        for (std::size_t i = 0; i < k; ++i) sink = sink + (*dist)(*urng);
      };
      c.exrandom_bits = [urng] { return urng->words() * 32; };
    }
#endif
    cases.push_back(std::move(c));
  }
  auto params = std::make_shared<exactdp::DiscreteLaplaceParams>(exactdp::DiscreteLaplaceParams::make(10));
  auto bits = std::make_shared<exactdp::SeededBits>(seed);
  Case c;
  c.name = "discrete Laplace scale 10";
  c.exactdp = [params, bits](std::size_t k) {
    for (std::size_t i = 0; i < k; ++i) sink = sink + *exactdp::sample_discrete_laplace_int64(*bits, *params);
  };
  c.exactdp_bits = [bits] { return bits->bits_consumed(); };
  cases.push_back(std::move(c));
  return cases;
}

// libsodium's ChaCha20 in 4 KiB calls, the keystream cost both sides pay.
struct KeystreamProbe {
  std::array<unsigned char, 4096> stream{};
  std::array<unsigned char, 8> nonce{};
  std::array<unsigned char, crypto_stream_chacha20_KEYBYTES> key{};
  void run_once() { crypto_stream_chacha20(stream.data(), stream.size(), nonce.data(), key.data()); }
};

// One case: `rounds` rounds of n draws each side and 16 KiB of keystream, per-draw thread-CPU
// medians printed as a tab-separated row (name, exactdp ns, exrandom ns, ns a 64-byte block,
// bits a draw each side).
void measure_case(Case& c, int rounds, std::size_t n, KeystreamProbe& probe) {
  std::vector<double> ours, theirs, block;
  const std::uint64_t ours_bits0 = c.exactdp_bits();
  const std::uint64_t theirs_bits0 = c.exrandom_bits ? c.exrandom_bits() : 0;
  std::size_t drawn = 0;
  for (int r = 0; r < rounds; ++r) {
    double t0 = thread_ns();
    c.exactdp(n);
    ours.push_back((thread_ns() - t0) / static_cast<double>(n));
    if (c.exrandom) {
      t0 = thread_ns();
      c.exrandom(n);
      theirs.push_back((thread_ns() - t0) / static_cast<double>(n));
    }
    t0 = thread_ns();
    for (int j = 0; j < 16; ++j) {
      probe.run_once();
      sink = sink + probe.stream[static_cast<std::size_t>(j)];
    }
    block.push_back((thread_ns() - t0) / (16.0 * 64.0));
    drawn += n;
  }
  const double d = static_cast<double>(drawn);
  std::printf("%s\t%.1f\t", c.name.c_str(), median(ours));
  if (c.exrandom) {
    std::printf("%.1f\t", median(theirs));
  } else {
    std::printf("-\t");
  }
  std::printf("%.2f\t%.1f\t", median(block), static_cast<double>(c.exactdp_bits() - ours_bits0) / d);
  if (c.exrandom_bits) {
    std::printf("%.1f\n", static_cast<double>(c.exrandom_bits() - theirs_bits0) / d);
  } else {
    std::printf("-\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (sodium_init() < 0) return 1;
  int rounds = 101;
  std::size_t n = 2000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--n") == 0) n = static_cast<std::size_t>(std::atol(argv[i + 1]));
  }
  exactdp::Seed seed{};
  seed.fill(1);
  std::vector<Case> cases = make_cases(seed);
  KeystreamProbe probe;
  // Warm-up, untimed: every case a few rounds and some ChaCha20, so that the first case is not
  // measured while the core's clock ramps up and the code and tables come into the caches.
  for (int r = 0; r < 5; ++r) {
    for (Case& c : cases) {
      c.exactdp(n);
      if (c.exrandom) c.exrandom(n);
    }
    for (int j = 0; j < 256; ++j) probe.run_once();
  }
  for (Case& c : cases) measure_case(c, rounds, n, probe);
  return 0;
}
