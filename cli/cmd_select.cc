// exactdp select — exact private selection (mechanisms/selection/selection.h, docs/SELECTION.md).
//
//   exactdp select --mechanism exponential|permute-and-flip|report-noisy-max --epsilon R
//                  --sensitivity R [--noise laplace|exponential] [--monotonic] [--top K] [-n N]
//                  [--delta R] [--seed HEX] [--json] < scores.txt
// reads one rational score per line and prints, per draw, the chosen 0-based index (with
// --top K: K distinct indices on one line, in the order selected). The guarantee of everything
// printed is written on stderr (and in the JSON object with --json).
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <exactdp/accounting/decimal.h>
#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/mechanisms/selection/score_reader.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/mechanisms/selection/selection_guarantee.h>
#include <exactdp/samplers/errors.h>
#include <exactdp/samplers/rational.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include "cli/seed_option.h"

namespace exactdp::cli {
namespace {

using mechanisms::NoiseKind;
using mechanisms::SelectionMechanism;

constexpr unsigned long long kMaxDraws = 10'000'000;
constexpr unsigned long long kMaxJsonDraws = 1'000'000;

const std::string kHelp = std::string(
    "usage: exactdp select --mechanism M --epsilon R --sensitivity R [options] < scores.txt\n"
    "\n"
    "Exact private selection: reads one rational score per line (higher is better; the forms\n"
    "of every parameter: 3, -1/3, 0.25, 1e-3) and prints the chosen 0-based index, one line per\n"
    "draw. No floating point anywhere: every coin is an exact Bernoulli(exp(-g)) for a rational g.\n"
    "  exponential       P[i] ~ exp(eps u_i / (2 Delta))  (exp(eps u_i / Delta) with --monotonic);\n"
    "                    rejection: a uniform candidate accepted with exp(-eps (u* - u_i)/(2 Delta))\n"
    "  permute-and-flip  McKenna-Sheldon 2020: candidates in a uniform random order, each accepted\n"
    "                    with exp(-eps (u* - u_i)/(2 Delta)); at most n coins\n"
    "  report-noisy-max  argmax of score + noise, smallest index on ties.\n"
    "                    --noise laplace (default): exact discrete Laplace of scale 2 Delta/eps\n"
    "                    (Delta/eps with --monotonic) on the scores' common grid;\n"
    "                    --noise exponential: exponential noise of scale 2 Delta/eps, whose argmax\n"
    "                    has exactly permute-and-flip's law (Ding et al. 2021) and is drawn so\n"
    "Each selection is (epsilon, 0)-DP when every score has sensitivity Delta.\n"
    "\n"
    "options:\n"
    "  --mechanism M      exponential, permute-and-flip or report-noisy-max (required)\n"
    "  --epsilon R        0 < epsilon <= 1000000: the epsilon of ONE selection (one round)\n"
    "  --sensitivity R    Delta > 0: each score moves by at most Delta between neighbours\n"
    "  --noise N          report-noisy-max only: laplace (default) or exponential\n"
    "  --monotonic        the scores all move in the same direction between neighbours (e.g.\n"
    "                     counts): halves the noise; exponential and report-noisy-max --noise\n"
    "                     laplace only (refused otherwise)\n"
    "  --top K            peeling: K rounds, each removing the winner; K distinct indices per\n"
    "                     line, in the order selected. 1 <= K <= the number of candidates\n"
    "  -n N               draws (lines), 1 <= N <= 10000000 (1000000 with --json; default 1).\n"
    "                     Every draw is a new\n"
    "                     release: the guarantee printed covers all N * K rounds\n"
    "  --delta R          0 < delta < 1: also state the optimal (Kairouz-Oh-Viswanath) composed\n"
    "                     epsilon at this delta, certified (when N * K is 2 to 1000000)\n"
    "  --json             one JSON object: the selections and the guarantee\n"
    "  --digits D         significant digits of certified numbers, 1..1000 (default 20)\n"
    ) + kSeedOptionsHelp + std::string(
    "Input: at most 1000000 scores, one per line (blanks around allowed, a final newline\n"
    "optional), at most 25000 characters a line; report-noisy-max --noise laplace also needs the\n"
    "common denominator of the scores and Delta below 2^65536.\n"
    "Exit status: 0 success, 2 bad usage, parameter or input (nothing on stdout).\n");

std::string join(const std::vector<std::size_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s.push_back(' ');
    s += std::to_string(v[i]);
  }
  return s;
}

}  // namespace

int cmd_select(Args args, Io& io) {
  std::vector<OptionSpec> specs = {{"--mechanism", true}, {"--epsilon", true},
                                   {"--sensitivity", true}, {"--noise", true},
                                   {"--monotonic", false},  {"--top", true},
                                   {"-n", true},            {"--delta", true}};
  for (const auto& s : seed_option_specs()) specs.push_back(s);
  const ParsedArgs parsed(args, with_report_options(specs));
  if (print_help_if_asked(parsed, kHelp.c_str(), io.out)) return 0;
  if (!parsed.positionals().empty()) {
    throw UsageError("select takes no positional argument (the scores are read from standard input; see --help)");
  }
  // Every option is validated before the input is read, a bit is drawn or a line printed.
  mechanisms::SelectionOptions options;
  options.mechanism = mechanisms::parse_selection_mechanism(parsed.require("--mechanism"));
  if (parsed.has("--noise")) {
    if (options.mechanism != SelectionMechanism::kReportNoisyMax) {
      throw UsageError("--noise applies to --mechanism report-noisy-max only");
    }
    options.noise = mechanisms::parse_noise_kind(*parsed.get("--noise"));
  }
  options.epsilon = parsed.require_rational("--epsilon");
  options.sensitivity = parsed.require_rational("--sensitivity");
  options.monotonic = parsed.has("--monotonic");
  mechanisms::validate_selection_options(options);
  const unsigned long long top =
      parsed.has("--top") ? *parsed.count("--top", 1, mechanisms::kMaxCandidates) : 1;
  const unsigned long long draws = parsed.has("-n") ? *parsed.count("-n", 1, kMaxDraws) : 1;
  std::optional<mpq_class> delta = parsed.rational("--delta");
  if (delta) accounting::validate_delta(*delta, "delta");
  const int digits = digits_option(parsed, 1000);
  const bool json = parsed.has("--json");
  if (json && draws > kMaxJsonDraws) {
    // The JSON object is built in memory before it is printed.
    throw ParameterError::out_of_range("n", std::to_string(draws), "1 <= n <= 1000000 with --json");
  }

  std::vector<mpq_class> scores = mechanisms::read_scores(io.in);
  const std::size_t candidates = scores.size();
  if (top > candidates) {
    throw ParameterError::out_of_range("top", std::to_string(top),
                                       "1 <= top <= the number of candidates (" +
                                           std::to_string(candidates) + ")");
  }
  mechanisms::Selection selection = mechanisms::Selection::make(std::move(scores), options);

  // The guarantee of everything printed: draws * top adaptively composed epsilon-DP rounds.
  const mpz_class rounds_z = mpz_class(std::to_string(draws)) * mpz_class(std::to_string(top));
  const mpq_class basic = options.epsilon * mpq_class(rounds_z);
  std::optional<accounting::Certified> optimal;
  std::string optimal_note;
  if (delta) {
    if (rounds_z >= 2 && rounds_z <= accounting::kMaxCompositions) {
      optimal = mechanisms::selection_guarantee(options, rounds_z.get_ui(), delta).optimal_epsilon;
    } else if (rounds_z > accounting::kMaxCompositions) {
      optimal_note = "optimal composition not computed: N * K = " + rounds_z.get_str() +
                     " rounds is over 1000000";
    } else {
      optimal_note = "one round: epsilon is already exact with delta = 0";
    }
  }
  const std::string mech_text =
      mechanisms::to_string(options.mechanism) +
      (options.mechanism == SelectionMechanism::kReportNoisyMax
           ? " (" + std::string(options.noise == NoiseKind::kDiscreteLaplace
                                    ? "discrete Laplace noise of scale " +
                                          abbreviate(to_string(selection.noise_scale())) +
                                          " on the grid 1/" + abbreviate(to_string(selection.grid_denominator()))
                                    : "exponential noise, drawn as permute-and-flip") + ")"
           : std::string());
  io.err << "exactdp select: guarantee: each round (one selection) is (" << to_string(options.epsilon)
         << ", 0)-DP: " << mech_text << ", sensitivity " << to_string(options.sensitivity)
         << (options.monotonic ? " (monotonic scores)" : "") << ", " << candidates
         << " candidates\n"
         << "exactdp select: guarantee: all " << rounds_z.get_str() << " rounds printed (" << draws
         << " draw(s) x " << top << ") together are (" << abbreviate(accounting::exact_decimal(basic))
         << ", 0)-DP (basic composition, exact)\n";
  if (optimal) {
    io.err << "exactdp select: guarantee: and (" << accounting::decimal_upper(optimal->value.upper(), digits)
           << ", " << to_string(*delta) << ")-DP (optimal composition, Kairouz-Oh-Viswanath; certified upper end)\n";
  } else if (!optimal_note.empty()) {
    io.err << "exactdp select: " << optimal_note << "\n";
  }

  const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed, io.err);
  JsonValue selections = JsonValue::array();
  for (unsigned long long d = 0; d < draws && io.out; ++d) {
    if (top == 1) {
      const std::size_t i = selection.select(*bits);
      if (json) {
        selections.push(static_cast<unsigned long long>(i));
      } else {
        io.out << i << '\n';
      }
    } else {
      const auto chosen = selection.select_top(*bits, static_cast<std::size_t>(top));
      if (json) {
        JsonValue line = JsonValue::array();
        for (const auto i : chosen) line.push(static_cast<unsigned long long>(i));
        selections.push(std::move(line));
      } else {
        io.out << join(chosen) << '\n';
      }
    }
  }
  if (json) {
    JsonValue guarantee = JsonValue::object();
    guarantee.set("epsilon_per_round", to_string(options.epsilon))
        .set("rounds", rounds_z.get_str())
        .set("basic_epsilon", to_string(basic))
        .set("basic_delta", "0");
    if (delta) guarantee.set("delta", to_string(*delta));
    if (optimal) {
      guarantee.set_interval("optimal_epsilon", optimal->value, digits)
          .set("optimal_epsilon_upper", accounting::decimal_upper(optimal->value.upper(), digits))
          .set("optimal_tolerance_met", optimal->tolerance_met);
    } else if (!optimal_note.empty()) {
      guarantee.set("optimal_note", optimal_note);
    }
    JsonValue out = JsonValue::object();
    out.set("command", "select")
        .set("mechanism", mechanisms::to_string(options.mechanism));
    if (options.mechanism == SelectionMechanism::kReportNoisyMax) {
      out.set("noise", mechanisms::to_string(options.noise));
      if (options.noise == NoiseKind::kDiscreteLaplace) {
        out.set("grid_denominator", to_string(selection.grid_denominator()))
            .set("noise_scale", to_string(selection.noise_scale()));
      }
    }
    out.set("epsilon", to_string(options.epsilon))
        .set("sensitivity", to_string(options.sensitivity))
        .set("monotonic", options.monotonic)
        .set("candidates", static_cast<unsigned long long>(candidates))
        .set("top", top)
        .set("draws", draws)
        .set("selections", std::move(selections))
        .set("guarantee", std::move(guarantee));
    io.out << out.dump() << "\n";
  }
  return 0;
}

}  // namespace exactdp::cli
