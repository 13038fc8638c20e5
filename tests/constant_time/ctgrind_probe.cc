// ctgrind_probe.cc — the valgrind constant-time test of the hardened samplers (the ctgrind
// technique of Adam Langley, 2010, used for crypto code).
//
// memcheck tracks, bit by bit, which values are "defined". We mark the 32-byte seed of a
// SeededBits source undefined (VALGRIND_MAKE_MEM_UNDEFINED): ChaCha20 is pure arithmetic, so
// every keystream bit, and everything a sampler computes from those bits, is undefined too. A
// branch or a conditional move on such a value is reported as "Conditional jump or move depends
// on uninitialised value(s)", a memory address computed from it as "Use of uninitialised value".
// So a sampler whose draws raise no report has no branch, conditional move or address that
// depends on the random bits (on the compiled code, -O2 as built, for the draws made here).
// Each output is marked defined (VALGRIND_MAKE_MEM_DEFINED) before it is used: releasing the
// noise is the point, not a leak.
//
//   ctgrind_probe hardened [N]   N draws (default 100) of each hardened sampler: discrete
//                                Gaussian sigma2 = 100, 10^12 and 2^100, discrete Laplace scale =
//                                10, 10^9 and 2^50, each with tau_bits 40, 64 and 128 (1, 2 and 3
//                                words; 2, 3 and 5 digits of the vectorised scan),
//                                the rejection method (single draws and batches) at sigma2 =
//                                2^10, 2^36 and 2^56 - 1, the CLI's path
//                                (SamplerSpec::draw_hardened) at 100 and 10, and
//                                the C interface's path (exactdp_sample_int64, EXACTDP_HARDENED;
//                                its own seeded source, tainted the same way) at 100 and 10,
//                                made by the per-law calls and by exactdp_sampler_new
//                                (plain mode: the same C calls without the flag);
//                                exit 0 when no draw raised a report and every output was
//                                tainted (VALGRIND_GET_VBITS: the taint did reach it), else 1
//   ctgrind_probe plain [N]      the same draws from the plain (exact, variable-time) samplers;
//                                exit 0 when EVERY configuration raised reports (the power of the
//                                test: it sees the leaks it must see), 1 otherwise
// Run it under `valgrind --track-origins=no` (ctest does: tests/CMakeLists.txt); outside valgrind
// it exits 2. It prints the number of memcheck errors each configuration raised
// (VALGRIND_COUNT_ERRORS), never a sampled value.
#include <gmpxx.h>
#include <valgrind/memcheck.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/sampler_spec.h"
#include <exactdp/exactdp.h>
#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

using exactdp::BitSource;

volatile std::uint64_t sink;  // keeps the draws from being optimised away
long tainted_outputs = 0;     // outputs that were still undefined when they came out

struct Config {
  std::string name;
  std::function<std::int64_t(BitSource&)> draw;  // one draw, its output marked defined
};

// Counts x as tainted when any of its bits is undefined (the taint really reached the output,
// so a clean run is not vacuous), then marks it defined.
std::int64_t defined(std::int64_t x) {
  unsigned char vbits[sizeof x];
  if (VALGRIND_GET_VBITS(&x, vbits, sizeof x) == 1) {
    unsigned char any = 0;
    for (unsigned char v : vbits) any |= v;
    tainted_outputs += any != 0 ? 1 : 0;
  }
  VALGRIND_MAKE_MEM_DEFINED(&x, sizeof x);
  return x;
}

// One output standing for a batch: counted as one tainted output when every draw of the batch
// was tainted; all are marked defined; returns the first.
std::int64_t tainted_batch(std::int64_t* batch, std::size_t n) {
  bool all = true;
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char vbits[sizeof batch[i]];
    unsigned char any = 0;
    if (VALGRIND_GET_VBITS(&batch[i], vbits, sizeof batch[i]) == 1) {
      for (unsigned char v : vbits) any |= v;
    }
    all = all && any != 0;
    VALGRIND_MAKE_MEM_DEFINED(&batch[i], sizeof batch[i]);
  }
  tainted_outputs += all ? 1 : 0;
  return batch[0];
}

std::int64_t defined(const mpz_class& x) {
  // The limbs and the size field of the GMP integer (the plain path's output).
  mpz_srcptr z = x.get_mpz_t();
  VALGRIND_MAKE_MEM_DEFINED(z, sizeof *z);
  VALGRIND_MAKE_MEM_DEFINED(z->_mp_d, sizeof(mp_limb_t) * static_cast<std::size_t>(z->_mp_alloc));
  return mpz_get_si(z);
}

// The sampler of a C constructor: the per-law call, or exactdp_sampler_new by the law's name
// (the registry's laws::Sampler behind the handle).
int c_sampler(bool gaussian, bool by_name, int flags, exactdp_sampler** out) {
  const char* const name[] = {gaussian ? "sigma2" : "scale"};
  const char* const value[] = {gaussian ? "100" : "10"};
  if (by_name) return exactdp_sampler_new(gaussian ? "discrete-gaussian" : "discrete-laplace", name, value, 1, flags, out);
  return gaussian ? exactdp_discrete_gaussian_new("100", flags, out) : exactdp_discrete_laplace_new("10", flags, out);
}

// The C interface's path: exactdp_sample_int64 (flags 0 or EXACTDP_HARDENED), drawing from a C
// bit source whose seed is tainted like the main one (the BitSource argument is unused; the
// printed bit count of these lines is therefore 0).
Config c_interface_config(bool gaussian, bool by_name, int flags) {
  exactdp_sampler* raw = nullptr;
  const int rc = c_sampler(gaussian, by_name, flags, &raw);
  exactdp::Seed seed{};
  for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<unsigned char>(0xa5 ^ (29 * i));
  VALGRIND_MAKE_MEM_UNDEFINED(seed.data(), seed.size());
  exactdp_bits* raw_bits = nullptr;
  // _weak: the all-zero check of exactdp_bits_seeded is a (deliberate) branch on the key
  if (rc != EXACTDP_OK || exactdp_bits_seeded_weak(seed.data(), &raw_bits) != EXACTDP_OK) {
    std::fprintf(stderr, "ctgrind_probe: C interface: %s\n", exactdp_last_error());
    std::exit(2);
  }
  std::shared_ptr<exactdp_sampler> sampler(raw, exactdp_sampler_free);
  std::shared_ptr<exactdp_bits> c_bits(raw_bits, exactdp_bits_free);
  return {std::string("c exactdp_sample_int64 ") + (by_name ? "(exactdp_sampler_new) " : "") +
              (flags != 0 ? "EXACTDP_HARDENED " : "plain ") + (gaussian ? "discrete-gaussian sigma2=100" : "discrete-laplace scale=10"),
          [sampler, c_bits](BitSource&) {
            std::int64_t x = 0;
            if (exactdp_sample_int64(sampler.get(), c_bits.get(), &x, 1) != EXACTDP_OK) std::abort();
            return defined(x);
          }};
}

std::vector<Config> hardened_configs() {
  std::vector<Config> out;
  for (unsigned tau_bits : {40u, 64u, 128u}) {
    const exactdp::Hardening h{tau_bits};
    const std::string tau = " tau_bits=" + std::to_string(tau_bits);
    // 2^100: the top of the range (24 convolution levels).
    for (const char* sigma2 : {"100", "1000000000000", "1267650600228229401496703205376"}) {
      const auto p = exactdp::HardenedDiscreteGaussianParams::make(mpq_class(sigma2), 0, h);
      out.push_back({std::string("hardened discrete-gaussian sigma2=") + sigma2 + tau,
                     [p](BitSource& bits) { return defined(exactdp::sample_discrete_gaussian(bits, p)); }});
    }
    for (const char* scale : {"10", "1000000000", "1125899906842624"}) {  // ..., 2^50
      const auto p = exactdp::HardenedDiscreteLaplaceParams::make(mpq_class(scale), 0, h);
      out.push_back({std::string("hardened discrete-laplace scale=") + scale + tau,
                     [p](BitSource& bits) { return defined(exactdp::sample_discrete_laplace(bits, p)); }});
    }
  }
  // The batch (sample_discrete_gaussian_n, what grid noise and the registry's batches call): 37
  // draws a call (a full group of 32 and a partial one), one output per call, tainted only if
  // every draw of the call is (tainted_batch).
  for (const unsigned tau_bits : {40u, 64u, 128u}) {
    for (const char* sigma2 : {"100", "68719476736"}) {  // 0 and 8 convolution levels
      const auto p = exactdp::HardenedDiscreteGaussianParams::make(mpq_class(sigma2), 0, exactdp::Hardening{tau_bits});
      out.push_back({std::string("hardened discrete-gaussian batch of 37 sigma2=") + sigma2 +
                         " tau_bits=" + std::to_string(tau_bits),
                     [p](BitSource& bits) {
                       std::int64_t batch[37];
                       exactdp::sample_discrete_gaussian_n(bits, p, batch, 37);
                       return tainted_batch(batch, 37);
                     }});
    }
  }
  // The rejection method (grid noise's): single draws and batches of 70 (two groups of 32 and
  // single proposals); the accept bit is declassified inside (docs/HARDENED.md "The rejection
  // method"), everything else must stay clean.
  for (const char* sigma2 : {"1024", "68719476736", "72057594037927935"}) {  // j = 4, 17, 26
    exactdp::Hardening h;
    h.method = exactdp::HardenedMethod::kRejection;
    const auto p = exactdp::HardenedDiscreteGaussianParams::make(mpq_class(sigma2), 0, h);
    out.push_back({std::string("hardened rejection discrete-gaussian sigma2=") + sigma2,
                   [p](BitSource& bits) { return defined(exactdp::sample_discrete_gaussian(bits, p)); }});
    out.push_back({std::string("hardened rejection discrete-gaussian batch of 70 sigma2=") + sigma2,
                   [p](BitSource& bits) {
                     std::int64_t batch[70];
                     exactdp::sample_discrete_gaussian_n(bits, p, batch, 70);
                     return tainted_batch(batch, 70);
                   }});
  }
  // The CLI's per-sample path (`exactdp sample --hardened` and audit-timing): the same draws
  // through SamplerSpec::draw_hardened, the spec parsed from a command line.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--sigma2", "100", "--hardened"},
        std::vector<std::string>{"--scale", "10", "--hardened"}}) {
    const bool gaussian = args[0] == "--sigma2";
    const exactdp::cli::ParsedArgs parsed(args, exactdp::cli::law_option_specs());
    auto spec = std::make_shared<const exactdp::cli::SamplerSpec>(
        exactdp::cli::parse_sampler_spec(gaussian ? "discrete-gaussian" : "discrete-laplace", parsed));
    out.push_back({"cli SamplerSpec::draw_hardened " + spec->describe(),
                   [spec](BitSource& bits) { return defined(spec->draw_hardened(bits)); }});
  }
  for (const bool by_name : {false, true}) {
    for (const bool gaussian : {true, false}) out.push_back(c_interface_config(gaussian, by_name, EXACTDP_HARDENED));
  }
  return out;
}

std::vector<Config> plain_configs() {
  std::vector<Config> out;
  for (const char* sigma2 : {"100", "1000000000000"}) {
    const auto p = exactdp::DiscreteGaussianParams::make(mpq_class(sigma2));
    out.push_back({std::string("plain discrete-gaussian sigma2=") + sigma2, [p](BitSource& bits) {
                     mpz_class x;
                     exactdp::sample_discrete_gaussian(bits, p, x);
                     return defined(x);
                   }});
  }
  for (const char* scale : {"10", "1000000000"}) {
    const auto p = exactdp::DiscreteLaplaceParams::make(mpq_class(scale));
    out.push_back({std::string("plain discrete-laplace scale=") + scale, [p](BitSource& bits) {
                     mpz_class x;
                     exactdp::sample_discrete_laplace(bits, p, x);
                     return defined(x);
                   }});
  }
  for (const bool by_name : {false, true}) {
    for (const bool gaussian : {true, false}) out.push_back(c_interface_config(gaussian, by_name, 0));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3 || (std::strcmp(argv[1], "hardened") != 0 && std::strcmp(argv[1], "plain") != 0)) {
    std::fputs("usage: ctgrind_probe hardened|plain [N]\n", stderr);
    return 2;
  }
  if (RUNNING_ON_VALGRIND == 0) {
    std::fputs("ctgrind_probe: not running under valgrind: nothing would be checked\n", stderr);
    return 2;
  }
  const bool hardened = std::strcmp(argv[1], "hardened") == 0;
  const long n = argc == 3 ? std::strtol(argv[2], nullptr, 10) : 100;
  if (n < 1 || n > 1'000'000) {
    std::fputs("ctgrind_probe: N must be in 1..1000000\n", stderr);
    return 2;
  }
  // Parameters first: building them uses no randomness (and MPFR's own branches are public).
  const std::vector<Config> configs = hardened ? hardened_configs() : plain_configs();

  exactdp::Seed seed{};
  for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<unsigned char>(0x5a ^ (37 * i));
  VALGRIND_MAKE_MEM_UNDEFINED(seed.data(), seed.size());  // every derived bit is now tainted
  exactdp::SeededBits bits(seed);

  bool ok = true;
  for (const Config& c : configs) {
    const unsigned long before = VALGRIND_COUNT_ERRORS;
    const long tainted_before = tainted_outputs;
    std::uint64_t checksum = 0;  // consumes the (defined) outputs; not printed
    const std::uint64_t bits_before = bits.bits_consumed();
    for (long i = 0; i < n; ++i) checksum += static_cast<std::uint64_t>(c.draw(bits));
    const unsigned long errors = VALGRIND_COUNT_ERRORS - before;
    const long tainted = tainted_outputs - tainted_before;
    // Hardened: no report, and every output tainted (else "no report" would prove nothing).
    const bool config_ok = hardened ? (errors == 0 && tainted == n) : errors > 0;
    ok = ok && config_ok;
    sink = checksum;
    std::printf("%s: %ld draws, %llu bits, %ld tainted outputs, %lu memcheck errors -> %s\n", c.name.c_str(), n,
                static_cast<unsigned long long>(bits.bits_consumed() - bits_before), tainted, errors,
                config_ok ? "ok" : "FAIL");
  }
  std::printf("ctgrind_probe %s: %s\n", argv[1],
              ok ? (hardened ? "no secret-dependent branch or address (0 errors)"
                             : "every plain sampler reported (the test has power)")
                 : (hardened ? "SECRET-DEPENDENT BRANCH OR ADDRESS FOUND" : "a plain sampler raised no report"));
  return ok ? 0 : 1;
}
