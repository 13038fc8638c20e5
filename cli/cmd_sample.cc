// exactdp sample — exact noise, one integer per line (docs/DESIGN.md, "Command-line contract").
// This file reads the options into an operations::SampleRequest (cli/sampler_spec.h) and prints
// the draws; the checks and the count limit are the operation's (operations/sample.h).
#include <charconv>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include <exactdp/operations/sample.h>
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/sampler_spec.h"
#include "cli/seed_option.h"

namespace exactdp::cli {
namespace {

const std::string kHelp = std::string(
    "usage:\n"
    "  exactdp sample discrete-gaussian --sigma2 R [--mean INT] -n N [--seed HEX] [--hardened]\n"
    "  exactdp sample discrete-laplace  --scale R  [--mean INT] -n N [--seed HEX] [--hardened]\n"
    "  exactdp sample bernoulli-exp     --gamma R  -n N [--seed HEX]\n"
    "  (--seed HEX may be replaced by --seed-file FILE; --allow-weak-seed: see below)\n"
    "\n"
    "Draws N exact samples, one integer per line:\n"
    "  discrete-gaussian  P[x] ~ exp(-(x - mean)^2 / (2 sigma2)), sigma2 > 0   (CKS20 Alg. 3)\n"
    "  discrete-laplace   P[x] ~ exp(-|x - mean| / scale), scale > 0          (CKS20 Alg. 2)\n"
    "  bernoulli-exp      1 with probability exp(-gamma), gamma >= 0, else 0  (CKS20 Alg. 1)\n"
    "R is an exact rational: 9/4, 0.25, 1e-5, 2.5E+3 (at most 10000 digits, |exponent| <= 100000).\n"
    "INT is a whole number written as R is (-7, 1e6), at most 10000 digits. 0 <= N <= 10000000000.\n"
    ) + kSeedOptionsHelp + std::string(
    "--hardened  the timing-hardened (isochronous) sampler: every draw runs the same instructions,\n"
    "            touches the same memory and reads the same number of bits, whatever the noise.\n"
    "            Its law is within a certified total-variation distance tau <= 2^-B of the exact\n"
    "            law (charged to delta: `exactdp profile ... --hardened`; docs/HARDENED.md).\n"
    "            Range: 1/100 <= sigma2 <= 2^100, 1/100 <= scale <= 2^50 (numerator and\n"
    "            denominator below 2^128), |mean| <= 2^62; outside it exits 2, never falls back.\n"
    "--tau-bits B  with --hardened: tau <= 2^-B, 40 <= B <= 128 (default 64).\n"
    "Exit status: 0 success, 2 bad usage or parameter (nothing on stdout).\n");

void print_int64(std::ostream& out, std::int64_t value) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  *r.ptr = '\n';
  out.write(buf, r.ptr - buf + 1);
}

void print_integer(std::ostream& out, const mpz_class& value, std::string& scratch) {
  if (mpz_fits_slong_p(value.get_mpz_t())) {
    print_int64(out, mpz_get_si(value.get_mpz_t()));
    return;
  }
  scratch.resize(mpz_sizeinbase(value.get_mpz_t(), 10) + 2);
  mpz_get_str(scratch.data(), 10, value.get_mpz_t());
  out << scratch.c_str() << '\n';
}

}  // namespace

int cmd_sample(Args args, Io& io) {
  std::vector<OptionSpec> specs = law_option_specs();
  specs.push_back({"-n", true});
  for (const auto& s : seed_option_specs()) specs.push_back(s);
  for (const auto& s : help_option_specs()) specs.push_back(s);
  const ParsedArgs parsed(args, specs);
  if (print_help_if_asked(parsed, kHelp.c_str(), io.out)) return 0;
  if (parsed.positionals().size() != 1) {
    throw UsageError("sample needs exactly one law: discrete-gaussian, discrete-laplace or bernoulli-exp (see --help)");
  }
  // Validate everything before drawing a bit or printing a line.
  const SamplerSpec spec = parse_sampler_spec(parsed.positionals()[0], parsed);
  if (!parsed.has("-n")) throw UsageError("missing required option -n (number of samples)");
  const unsigned long long n = operations::checked_sample_count(*spec.law, spec.params, "n", parsed.require("-n"));
  const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed, io.err);
  if (spec.is_hardened()) {
    // The isochronous draw, straight into an int64; only the printing depends on the value.
    for (unsigned long long i = 0; i < n && io.out; ++i) print_int64(io.out, spec.draw_hardened(*bits));
    return 0;
  }
  mpz_class value;
  std::string scratch;
  for (unsigned long long i = 0; i < n && io.out; ++i) {
    spec.draw(*bits, value);
    print_integer(io.out, value, scratch);
  }
  return 0;
}

}  // namespace exactdp::cli
