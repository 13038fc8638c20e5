// exactdp audit — goodness-of-fit audit with certified p-values (verification/audit.h):
//   exactdp audit <law> <params> --samples N [--seed HEX]      audits our own sampler
//   exactdp audit --expect <law> <params> [FILE]               audits anyone's samples, one
//                                                              integer per line, FILE or stdin
// Options: --alpha R (overall level, default 1e-6), --json, --digits D.
// Exit status: 0 pass, 3 fail, 2 bad usage, bad parameter or malformed input (the message names
// the line), 1 internal error. Streaming: memory does not grow with the number of samples.
#include <charconv>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/sampler_spec.h"
#include "cli/seed_option.h"
#include "samplers/errors.h"
#include "samplers/rational.h"
#include "verification/audit.h"

namespace exactdp::cli {
namespace {

using verification::AuditReport;
using verification::Bounds;
using verification::ReferenceLaw;

constexpr unsigned long long kMaxSamples = 10'000'000'000ULL;
constexpr std::size_t kMaxLineLength = 100'000;  // characters per input line

constexpr const char* kHelp =
    "usage:\n"
    "  exactdp audit <law> <parameters> --samples N [--seed HEX] [--alpha R] [--json]\n"
    "  exactdp audit --expect <law> <parameters> [FILE] [--alpha R] [--json]\n"
    "\n"
    "laws and parameters (as for exactdp sample):\n"
    "  discrete-gaussian --sigma2 R [--mean INT]\n"
    "  discrete-laplace  --scale R  [--mean INT]\n"
    "  bernoulli-exp     --gamma R\n"
    "\n"
    "The first form draws N samples (1 <= N <= 10000000000) from exactdp's own sampler (the OS\n"
    "CSPRNG, or the keyed stream with --seed: 64 hex digits) and audits them. The second reads\n"
    "samples produced by anything else, one integer per line (any size; surrounding blanks\n"
    "allowed), from FILE or standard input ('-'), streaming, and audits them against the law.\n"
    "\n"
    "Tests: Pearson chi-square and G-test (bins with expected count >= 5, pooled tails; p-values\n"
    "from the incomplete gamma function), KS with the DKW bound, exact binomial tests of the tail\n"
    "masses P[|X - mean| > 2s], P[|X - mean| > 3s] and of P[X - mean even], mean and variance\n"
    "z-tests (Bernoulli: exact\n"
    "binomial test, support, chi-square, G). p-values are certified intervals; a test rejects only\n"
    "if the upper end is below its Holm-Bonferroni threshold at overall level alpha\n"
    "(--alpha R, 0 < R < 1, default 1e-6).\n"
    "--json prints one JSON object; --digits D (1..50) sets significant digits (default 6).\n"
    "Exit status: 0 pass, 3 fail, 2 bad usage, parameter or malformed input, 1 internal error.\n"
    "See docs/AUDIT.md.\n";

std::unique_ptr<ReferenceLaw> law_of(const SamplerSpec& spec) {
  switch (spec.law) {
    case Law::kDiscreteGaussian: {
      const auto& p = std::get<DiscreteGaussianParams>(spec.params);
      return std::make_unique<verification::DiscreteGaussianLaw>(p.sigma2(), p.mean());
    }
    case Law::kDiscreteLaplace: {
      const auto& p = std::get<DiscreteLaplaceParams>(spec.params);
      return std::make_unique<verification::DiscreteLaplaceLaw>(p.scale(), p.mean());
    }
    case Law::kBernoulliExp:
      return std::make_unique<verification::BernoulliExpLaw>(std::get<BernoulliExpParams>(spec.params).gamma());
  }
  throw std::logic_error("unknown law");
}

// Malformed input: exit 2 with the line number.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Parses one line as an integer into the counter. Throws InputError.
void add_line(std::string_view line, unsigned long long line_number, verification::SampleCounter& counter,
              mpz_class& scratch, std::string& text) {
  std::size_t b = 0, e = line.size();
  while (b < e && is_blank(line[b])) ++b;
  while (e > b && is_blank(line[e - 1])) --e;
  const std::string_view s = line.substr(b, e - b);
  auto fail = [&](const std::string& why) {
    throw InputError("line " + std::to_string(line_number) + ": " + why);
  };
  if (s.empty()) fail("empty line (expected one integer)");
  std::size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) fail("'" + abbreviate(s) + "' is not an integer");
  for (std::size_t j = i; j < s.size(); ++j) {
    if (s[j] < '0' || s[j] > '9') fail("'" + abbreviate(s) + "' is not an integer (decimal digits only)");
  }
  if (s.size() - i <= 18) {
    std::int64_t v = 0;
    const char* first = s.data() + (s[0] == '+' ? 1 : 0);
    const auto r = std::from_chars(first, s.data() + s.size(), v);
    if (r.ec != std::errc()) fail("'" + abbreviate(s) + "' is not an integer");
    counter.add(v);
    return;
  }
  text.assign(s.data() + (s[0] == '+' ? 1 : 0), s.data() + s.size());
  if (mpz_set_str(scratch.get_mpz_t(), text.c_str(), 10) != 0) fail("'" + abbreviate(s) + "' is not an integer");
  counter.add(scratch);
}

void read_samples(std::istream& in, const std::string& source, verification::SampleCounter& counter, Io& io) {
  std::vector<char> buffer(kMaxLineLength + 2);
  mpz_class scratch;
  std::string text;
  unsigned long long line_number = 0;
  for (;;) {
    in.getline(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::streamsize got = in.gcount();
    if (in.bad()) throw InputError("read error on " + source);
    if (got == 0 && in.eof()) break;  // end of input (a final newline is not an empty line)
    ++line_number;
    if (in.fail() && !in.eof()) {
      throw InputError("line " + std::to_string(line_number) + ": longer than " + std::to_string(kMaxLineLength) +
                       " characters");
    }
    // got counts the newline when one was extracted.
    std::size_t len = static_cast<std::size_t>(got);
    if (!in.eof() && len > 0) --len;
    add_line(std::string_view(buffer.data(), len), line_number, counter, scratch, text);
    if (counter.n() > kMaxSamples) throw InputError("more than " + std::to_string(kMaxSamples) + " samples");
    if (io.err_is_terminal && (line_number & 0xfffff) == 0) {
      io.err << "\rexactdp audit: " << line_number << " samples read" << std::flush;
    }
    if (in.eof()) break;
  }
  if (io.err_is_terminal && line_number >= 0x100000) io.err << "\n";
  if (counter.n() == 0) throw InputError(source + ": no samples (expected one integer per line)");
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string json_interval(const Bounds& b, int digits) {
  return "{\"lower\": \"" + b.lower_text(digits) + "\", \"upper\": \"" + b.upper_text(digits) + "\"}";
}

void print_json(const AuditReport& r, int digits, std::ostream& out) {
  out << "{\"law\": \"" << json_escape(r.law) << "\", \"n\": \"" << r.n << "\", \"alpha\": \"" << r.alpha.get_str()
      << "\", \"verdict\": \"" << (r.passed ? "pass" : "fail") << "\", \"tests\": [";
  for (std::size_t i = 0; i < r.tests.size(); ++i) {
    const auto& t = r.tests[i];
    out << (i ? ", " : "") << "{\"name\": \"" << json_escape(t.name) << "\", \"statistic_name\": \""
        << json_escape(t.statistic_name) << "\", \"statistic\": " << json_interval(t.statistic, digits)
        << ", \"p_value\": " << json_interval(t.p_value, digits) << ", \"threshold\": \"" << t.threshold.get_str()
        << "\", \"applicable\": " << (t.applicable ? "true" : "false")
        << ", \"asymptotic\": " << (t.asymptotic ? "true" : "false")
        << ", \"rejected\": " << (t.rejected ? "true" : "false") << ", \"detail\": \"" << json_escape(t.detail)
        << "\"}";
  }
  out << "]}\n";
}

// An interval as text: one exact integer when both ends are the same integer (counts).
std::string interval_text(const Bounds& b, int digits) {
  if (mpfr_equal_p(b.lower(), b.upper()) && mpfr_integer_p(b.lower()) && mpfr_cmpabs_ui(b.lower(), 1UL << 62) < 0) {
    return std::to_string(mpfr_get_si(b.lower(), MPFR_RNDD));  // exact: an integer below 2^62
  }
  return "[" + b.lower_text(digits) + ", " + b.upper_text(digits) + "]";
}

void print_text(const AuditReport& r, int digits, std::ostream& out) {
  std::size_t applicable = 0;
  for (const auto& t : r.tests) applicable += t.applicable ? 1 : 0;
  out << "exactdp audit: " << r.law << "\n"
      << "samples: " << r.n << ", overall alpha = " << r.alpha.get_str()
      << " (Holm-Bonferroni over " << applicable << " tests; a test rejects when its p-value upper bound\n"
      << "is below its threshold)\n\n";
  for (const auto& t : r.tests) {
    const std::string stat = interval_text(t.statistic, digits);
    out << "  " << t.name << ": " << t.statistic_name << (stat.front() == '[' ? " in " : " = ") << stat << "\n";
    if (!t.applicable) {
      out << "      not run: " << t.detail << "\n";
      continue;
    }
    out << "      p-value in [" << t.p_value.lower_text(digits) << ", " << t.p_value.upper_text(digits)
        << "], threshold " << t.threshold.get_str() << " -> "
        << (t.rejected ? "REJECT" : "pass") << (t.asymptotic ? " (asymptotic p-value)" : "") << "\n"
        << "      " << t.detail << "\n";
  }
  out << "\nverdict: " << (r.passed ? "PASS" : "FAIL") << "\n";
}

}  // namespace

int cmd_audit(Args args, Io& io) {
  std::vector<OptionSpec> specs = law_option_specs();
  for (const auto& s : std::vector<OptionSpec>{{"--samples", true}, {"--seed", true},  {"--expect", true},
                                               {"--alpha", true},   {"--json", false}, {"--digits", true},
                                               {"--help", false},   {"-h", false}}) {
    specs.push_back(s);
  }
  const ParsedArgs parsed(args, specs);
  if (print_help_if_asked(parsed, kHelp, io.out)) return 0;
  const bool external = parsed.has("--expect");
  std::string law_name;
  std::optional<std::string> file;
  if (external) {
    law_name = *parsed.get("--expect");
    if (parsed.positionals().size() > 1) throw UsageError("audit --expect takes at most one FILE (see --help)");
    if (!parsed.positionals().empty()) file = parsed.positionals()[0];
    if (parsed.has("--samples") || parsed.has("--seed")) {
      throw UsageError("--samples and --seed apply to auditing our own sampler, not to --expect (see --help)");
    }
  } else {
    if (parsed.positionals().size() != 1) {
      throw UsageError("audit needs one law (discrete-gaussian, discrete-laplace, bernoulli-exp) or --expect LAW (see --help)");
    }
    law_name = parsed.positionals()[0];
    if (!parsed.has("--samples")) throw UsageError("missing required option --samples N (or use --expect LAW FILE)");
  }
  // Validate everything before drawing a bit or reading a line.
  const SamplerSpec spec = parse_sampler_spec(law_name, parsed);
  const std::unique_ptr<ReferenceLaw> law = law_of(spec);
  mpq_class alpha(1, 1'000'000);
  if (const auto a = parsed.rational("--alpha")) {
    if (*a <= 0 || *a >= 1) throw ParameterError::out_of_range("alpha", abbreviate(to_string(*a)), "0 < alpha < 1");
    alpha = *a;
  }
  const int digits = static_cast<int>(parsed.count("--digits", 1, 50).value_or(6));
  verification::SampleCounter counter = verification::make_audit_counter(*law);

  if (external) {
    try {
      if (!file || *file == "-") {
        read_samples(io.in, "standard input", counter, io);
      } else {
        std::ifstream in(*file, std::ios::binary);
        if (!in) throw UsageError("cannot open FILE '" + abbreviate(*file) + "'");
        read_samples(in, "'" + abbreviate(*file) + "'", counter, io);
      }
    } catch (const InputError& e) {
      io.err << "exactdp audit: " << (file && *file != "-" ? abbreviate(*file) + ": " : std::string()) << e.what()
             << "\n";
      return 2;
    }
  } else {
    const unsigned long long n = *parsed.count("--samples", 1, kMaxSamples);
    const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed);
    mpz_class value;
    const unsigned long long step = n >= 100 ? n / 100 : 1;
    for (unsigned long long i = 0; i < n; ++i) {
      spec.draw(*bits, value);
      counter.add(value);
      if (io.err_is_terminal && n >= 1'000'000 && (i + 1) % step == 0) {
        io.err << "\rexactdp audit: sampling " << (i + 1) / step << "%" << std::flush;
      }
    }
    if (io.err_is_terminal && n >= 1'000'000) io.err << "\n";
  }
  const AuditReport report = verification::run_audit(*law, counter, alpha);
  if (parsed.has("--json")) {
    print_json(report, digits, io.out);
  } else {
    print_text(report, digits, io.out);
  }
  return report.passed ? 0 : 3;
}

}  // namespace exactdp::cli
