// speed_bench — the speed table of BENCHMARKS.md ("Speed in ChaCha20 blocks"): ns, ChaCha20
// blocks and random bits per sample for the plain and hardened samplers, with the cost of one
// 64-byte ChaCha20 block (libsodium crypto_stream_chacha20) measured in the same run,
// interleaved with every case.
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DEXACTDP_BUILD_BENCH=ON -DEXACTDP_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target speed_bench
//   ./build-bench/bench/speed_bench [--reps R] [--ms MS] [--json FILE] [--plot]
// Each case runs R repetitions; each repetition times a ChaCha20 run, then the sampler, then
// ChaCha20 again (thread CPU time), and its block ratio is ns per sample / ns per block of that
// repetition. Reported: medians over the repetitions (robust to other load on the machine).
// --plot adds the sigma2 sweep 10^-2 .. 10^100 (plain and hardened) that scripts/speed-plot draws.
// Integers only (the repository keeps floating point out of its C++); scripts/speed-plot turns
// the JSON into the table and the SVG.
#include <sodium.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <exactdp/exactdp.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

using namespace exactdp;

std::uint64_t thread_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

// ns for `blocks` 64-byte ChaCha20 blocks: crypto_stream_chacha20 over a 4096-byte buffer (64
// blocks per call, libsodium's bulk code path), the amortised cost of one block. One call per
// 64-byte block costs several times more (key setup per call); the bulk figure is the
// conservative unit (it makes every ratio larger).
std::uint64_t chacha_ns(std::uint64_t blocks) {
  unsigned char key[crypto_stream_chacha20_KEYBYTES] = {1};
  unsigned char nonce[crypto_stream_chacha20_NONCEBYTES] = {2};
  static unsigned char buf[4096];
  const std::uint64_t t0 = thread_ns();
  for (std::uint64_t i = 0; i < blocks; i += 64) {
    nonce[0] = static_cast<unsigned char>(i);
    crypto_stream_chacha20(buf, sizeof buf, nonce, key);
    __asm__ __volatile__("" : : "r"(buf) : "memory");
  }
  return thread_ns() - t0;
}

// A case: run(n) draws n samples and returns the bits consumed.
struct Case {
  std::string kind;    // "gaussian", "gaussian-hardened", "laplace", ...
  std::string param;   // sigma2 / scale as given
  std::string api;     // "int64", "mpz", "batch", "c-api", "c-api-batch"
  std::function<std::uint64_t(std::uint64_t)> run;
};

struct Result {
  std::uint64_t samples = 0;         // per repetition
  std::vector<std::uint64_t> ps;     // picoseconds per sample, per repetition
  std::vector<std::uint64_t> block;  // picoseconds per ChaCha20 block, per repetition
  std::vector<std::uint64_t> ratio;  // per-sample cost in 1/1000 blocks, per repetition
  std::uint64_t bits = 0;            // total bits over all repetitions
  std::uint64_t total_samples = 0;
};

std::uint64_t median(std::vector<std::uint64_t> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::string milli(std::uint64_t v) {  // v / 1000 with 2 decimals
  char b[64];
  std::snprintf(b, sizeof b, "%llu.%02llu", static_cast<unsigned long long>(v / 1000),
                static_cast<unsigned long long>((v % 1000) / 10));
  return b;
}

Result measure(const Case& c, int reps, std::uint64_t target_ns) {
  // Calibrate: samples for about target_ns.
  std::uint64_t n = 64;
  for (;;) {
    const std::uint64_t t0 = thread_ns();
    c.run(n);
    const std::uint64_t dt = thread_ns() - t0;
    if (dt >= target_ns / 8 || n >= (1ULL << 26)) {
      n = std::max<std::uint64_t>(64, n * target_ns / std::max<std::uint64_t>(dt, 1));
      break;
    }
    n *= 4;
  }
  const std::uint64_t blocks = 1 << 18;  // multiple of 64
  Result r;
  r.samples = n;
  for (int i = 0; i < reps; ++i) {
    const std::uint64_t b1 = chacha_ns(blocks);
    const std::uint64_t t0 = thread_ns();
    r.bits += c.run(n);
    const std::uint64_t dt = thread_ns() - t0;
    const std::uint64_t b2 = chacha_ns(blocks);
    const std::uint64_t block_ps = (b1 + b2) * 1000 / (2 * blocks);
    const std::uint64_t ps = dt * 1000 / n;
    r.ps.push_back(ps);
    r.block.push_back(block_ps);
    r.ratio.push_back(ps * 1000 / std::max<std::uint64_t>(block_ps, 1));
    r.total_samples += n;
  }
  return r;
}

template <class Draw>
std::function<std::uint64_t(std::uint64_t)> seeded(Draw draw) {
  auto bits = std::make_shared<SeededBits>(Seed{});
  return [bits, draw](std::uint64_t n) {
    const std::uint64_t before = bits->bits_consumed();
    for (std::uint64_t i = 0; i < n; ++i) draw(*bits);
    return bits->bits_consumed() - before;
  };
}

void add_gaussian(std::vector<Case>& cases, const std::string& s, bool hardened) {
  const mpq_class sigma2 = parse_rational("sigma2", s);
  const auto params = std::make_shared<DiscreteGaussianParams>(DiscreteGaussianParams::make(sigma2));
  if (sigma2 <= mpq_class(mpz_class("1000000000000000000000000"))) {
    cases.push_back({"gaussian", s, "int64", seeded([params](BitSource& b) {
                       auto v = sample_discrete_gaussian_int64(b, *params);
                       __asm__ __volatile__("" : : "r"(&v) : "memory");
                     })});
  } else {
    auto out = std::make_shared<mpz_class>();
    cases.push_back({"gaussian", s, "mpz", seeded([params, out](BitSource& b) {
                       sample_discrete_gaussian(b, *params, *out);
                     })});
  }
  if (!hardened) return;
  try {
    const auto h = std::make_shared<HardenedDiscreteGaussianParams>(HardenedDiscreteGaussianParams::make(sigma2));
    cases.push_back({"gaussian-hardened", s, "int64", seeded([h](BitSource& b) {
                       auto v = sample_discrete_gaussian(b, *h);
                       __asm__ __volatile__("" : : "r"(&v) : "memory");
                     })});
  } catch (const std::exception&) {
    // outside the hardened sampler's range: no point
  }
}

// The C interface, n values per call.
Case c_api_case(const char* sigma2, std::uint64_t per_call) {
  exactdp_sampler* sampler = nullptr;
  exactdp_bits* bits = nullptr;
  unsigned char seed[32] = {1};  // any fixed key but the all-zero one, which the C interface refuses
  if (exactdp_discrete_gaussian_new(sigma2, 0, &sampler) != EXACTDP_OK || exactdp_bits_seeded(seed, &bits) != EXACTDP_OK) {
    std::fprintf(stderr, "speed_bench: C interface: %s\n", exactdp_last_error());
    std::exit(1);
  }
  auto buf = std::make_shared<std::vector<std::int64_t>>(per_call);
  std::shared_ptr<exactdp_sampler> s(sampler, exactdp_sampler_free);
  std::shared_ptr<exactdp_bits> bb(bits, exactdp_bits_free);
  return {"gaussian", sigma2, per_call == 1 ? "c-api" : "c-api-batch",
          [s, bb, buf, per_call](std::uint64_t n) {
            std::uint64_t before = 0, after = 0;
            exactdp_bits_consumed(bb.get(), &before);
            for (std::uint64_t done = 0; done < n;) {
              const std::uint64_t k = std::min(per_call, n - done);
              if (exactdp_sample_int64(s.get(), bb.get(), buf->data(), k) != EXACTDP_OK) std::abort();
              done += k;
            }
            exactdp_bits_consumed(bb.get(), &after);
            return after - before;
          }};
}

}  // namespace

namespace {

struct Options {
  int reps = 7;
  std::uint64_t ms = 40;
  const char* json = nullptr;
  bool plot = false;
};

// The command line; false (after the usage line) on anything else.
bool parse_options(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) o.reps = std::atoi(argv[++i]);
    else if (a == "--ms" && i + 1 < argc) o.ms = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--json" && i + 1 < argc) o.json = argv[++i];
    else if (a == "--plot") o.plot = true;
    else {
      std::fprintf(stderr, "usage: speed_bench [--reps R] [--ms MS] [--json FILE] [--plot]\n");
      return false;
    }
  }
  return true;
}

// The single-draw cases: the samplers, and CKS20 Algorithm 3 alone as it was before the table
// and bucket samplers (what every sigma2 used), in the same run.
void add_single_draw_cases(std::vector<Case>& cases) {
  for (const char* s : {"1", "100", "1e12", "1e100"}) add_gaussian(cases, s, false);
  for (const char* s : {"1", "100", "1e12", "1e100"}) {
    const auto p = std::make_shared<DiscreteGaussianParams>(DiscreteGaussianParams::make(parse_rational("sigma2", s)));
    auto out = std::make_shared<mpz_class>();
    cases.push_back({"gaussian", s, "cks20-before", seeded([p, out](BitSource& b) {
                       *out = sample_discrete_gaussian_cks20(b, *p);
                     })});
  }
  for (const char* s : {"10", "1", "1e6"}) {
    const auto p = std::make_shared<DiscreteLaplaceParams>(DiscreteLaplaceParams::make(parse_rational("scale", s)));
    cases.push_back({"laplace", s, "int64", seeded([p](BitSource& b) {
                       auto v = sample_discrete_laplace_int64(b, *p);
                       __asm__ __volatile__("" : : "r"(&v) : "memory");
                     })});
  }
  const auto p = std::make_shared<DiscreteLaplaceParams>(DiscreteLaplaceParams::make(10));
  auto out = std::make_shared<mpz_class>();
  cases.push_back({"laplace", "10", "cks20-before", seeded([p, out](BitSource& b) {
                     *out = sample_discrete_laplace_cks20(b, *p);
                   })});
}

// sample_n in calls of 10^6 values; 10^12 too, where the batch goes through the bucket
// sampler rather than the table (compare with the single int64 calls). Then the C interface.
void add_batch_cases(std::vector<Case>& cases) {
  for (const char* s : {"100", "1e12"}) {
    const auto p = std::make_shared<DiscreteGaussianParams>(DiscreteGaussianParams::make(parse_rational("sigma2", s)));
    auto buf = std::make_shared<std::vector<std::int64_t>>(1000000);
    auto bits = std::make_shared<SeededBits>(Seed{});
    cases.push_back({"gaussian", s, "batch", [p, buf, bits](std::uint64_t n) {
                       const std::uint64_t before = bits->bits_consumed();
                       for (std::uint64_t done = 0; done < n;) {
                         const std::uint64_t k = std::min<std::uint64_t>(n - done, buf->size());
                         if (sample_n(*bits, *p, buf->data(), k) != k) std::abort();
                         done += k;
                       }
                       return bits->bits_consumed() - before;
                     }});
  }
  cases.push_back(c_api_case("100", 1));
  cases.push_back(c_api_case("100", 1000000));
}

// --plot: the sigma2 sweep, and the hardened sampler at the four main sigma2.
void add_plot_cases(std::vector<Case>& cases) {
  for (const char* s : {"1e-2", "1e-1", "1e1", "1e3", "1e4", "1e5", "1e6", "1e8", "1e10", "1e14", "1e16",
                        "1e20", "1e30", "1e40", "1e50", "1e60", "1e70", "1e80", "1e90"}) {
    add_gaussian(cases, s, true);
  }
  for (const char* s : {"1", "100", "1e12", "1e100"}) {
    std::vector<Case> h;
    add_gaussian(h, s, true);
    for (auto& c : h) {
      if (c.kind == "gaussian-hardened") cases.push_back(std::move(c));
    }
  }
}

// Measures every case, printing a table row each (and a JSON record each to o.json if given).
void run_cases(const std::vector<Case>& cases, const Options& o) {
  std::FILE* js = o.json != nullptr ? std::fopen(o.json, "w") : nullptr;
  if (js != nullptr) std::fprintf(js, "{\"reps\": %d, \"cases\": [\n", o.reps);
  std::printf("%-18s %-8s %-12s %10s %12s %10s %12s\n", "kind", "param", "api", "ns", "block ns", "blocks", "bits");
  bool first = true;
  for (const Case& c : cases) {
    const Result r = measure(c, o.reps, o.ms * 1000000);
    const std::uint64_t mbits = r.bits * 1000 / std::max<std::uint64_t>(r.total_samples, 1);
    std::printf("%-18s %-8s %-12s %10s %12s %10s %12s\n", c.kind.c_str(), c.param.c_str(), c.api.c_str(),
                milli(median(r.ps)).c_str(), milli(median(r.block)).c_str(), milli(median(r.ratio)).c_str(),
                milli(mbits).c_str());
    std::fflush(stdout);
    if (js != nullptr) {
      std::fprintf(js,
                   "%s  {\"kind\": \"%s\", \"param\": \"%s\", \"api\": \"%s\", \"samples_per_rep\": %llu, "
                   "\"ps_per_sample_median\": %llu, \"ps_per_block_median\": %llu, "
                   "\"milliblocks_median\": %llu, \"millibits_per_sample\": %llu}",
                   first ? "" : ",\n", c.kind.c_str(), c.param.c_str(), c.api.c_str(),
                   static_cast<unsigned long long>(r.samples), static_cast<unsigned long long>(median(r.ps)),
                   static_cast<unsigned long long>(median(r.block)),
                   static_cast<unsigned long long>(median(r.ratio)), static_cast<unsigned long long>(mbits));
      first = false;
    }
  }
  if (js != nullptr) {
    std::fprintf(js, "\n]}\n");
    std::fclose(js);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse_options(argc, argv, o)) return 2;
  if (sodium_init() < 0) return 1;
  std::vector<Case> cases;
  add_single_draw_cases(cases);
  add_batch_cases(cases);
  if (o.plot) add_plot_cases(cases);
  run_cases(cases, o);
  return 0;
}
