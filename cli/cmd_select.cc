// exactdp select — exact private selection (mechanisms/selection/selection.h, docs/SELECTION.md).
//
//   exactdp select --mechanism exponential|permute-and-flip|report-noisy-max --epsilon R
//                  --sensitivity R [--noise laplace|exponential] [--monotonic] [--top K] [-n N]
//                  [--delta R] [--seed HEX] [--json] < scores.txt
// reads one rational score per line and prints, per draw, the chosen 0-based index (with
// --top K: K distinct indices on one line, in the order selected). The guarantee of everything
// printed is written on stderr (and in the JSON object with --json). The checks, the limits and
// the guarantee are the operation's (operations/select.h); this file reads and prints.
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <exactdp/core/decimal.h>
#include <exactdp/mechanisms/selection/score_reader.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/operations/select.h>
#include "cli/accounting_options.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/json.h"
#include "cli/seed_option.h"

namespace exactdp::cli {
namespace {

using mechanisms::NoiseKind;
using mechanisms::SelectionMechanism;
using operations::SelectPlan;

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
    "                    has exactly permute-and-flip's law (Ding et al. 2021) and is drawn as\n"
    "                    permute-and-flip (no continuous noise is ever held)\n"
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
    "                     Every draw is a new release: the guarantee printed covers all\n"
    "                     N * K rounds\n"
    "  --delta R          0 < delta < 1: also state the optimal (Kairouz-Oh-Viswanath) composed\n"
    "                     epsilon at this delta, certified (when N * K is 2 to 1000000)\n"
    "  --json             one JSON object: the selections and the guarantee\n"
    "  --digits D         significant digits of certified numbers, 1..1000 (default 20)\n"
    ) + kSeedOptionsHelp + std::string(
    "Input: at most 1000000 scores, one per line (blanks around allowed, a final newline\n"
    "optional), at most 25000 characters a line, and at most 2^28 bits (32 MiB) of numerators\n"
    "and denominators in all (10^6 scores of ~80 digits, or 800 of 1e100000), checked as read;\n"
    "report-noisy-max --noise laplace also needs the common denominator of the scores and Delta\n"
    "below 2^65536, and n times its size within the same 2^28 bits.\n"
    "Weights: every weight eps (u* - u_i) / (2 Delta) holds the digits of epsilon, Delta and the\n"
    "best score; n times their bits (twice for exponential) must be within 2^31 bits (256 MiB),\n"
    "and report-noisy-max's n noise draws, whose cost grows with the digits of epsilon, within\n"
    "3000000 steps: --epsilon 1e-100000 with 50000 scores is refused naming epsilon.\n"
    "Peeling limit: --top K is refused up front when its estimated work, N times the candidate\n"
    "steps of K rounds, is over 3000000 (about 6 s): report-noisy-max takes n - r noise draws in\n"
    "round r (1/16 step each), the others about e (n - r) / w coins, w = the candidates within\n"
    "2 Delta / epsilon (Delta / epsilon with --monotonic)\n"
    "of the best still in play; so close scores peel fast, and spread-out scores cost K n.\n"
    "Draws limit: -n N without --top is refused up front (naming n) when N selections are\n"
    "estimated over the same 3000000 steps: report-noisy-max draws n noises a selection,\n"
    "permute-and-flip about e n / w coins (1/64 step each); the exponential mechanism's\n"
    "inversion table (n >= its threshold) draws in O(log n).\n"
    "Exit status: 0 success, 2 bad usage, parameter or input (nothing on stdout).\n");

std::string join(const std::vector<std::size_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s.push_back(' ');
    s += std::to_string(v[i]);
  }
  return s;
}

// The command line as the operation's request (operations/select.h), which checks it all.
operations::SelectRequest select_request(const ParsedArgs& parsed) {
  if (!parsed.positionals().empty()) {
    throw UsageError("select takes no positional argument (the scores are read from standard input; see --help)");
  }
  operations::SelectRequest r;
  r.mechanism = parsed.get("--mechanism");
  r.noise = parsed.get("--noise");
  r.epsilon = parsed.get("--epsilon");
  r.sensitivity = parsed.get("--sensitivity");
  r.monotonic = parsed.has("--monotonic");
  r.top = parsed.get("--top");
  r.draws = parsed.get("-n");
  r.delta = parsed.get("--delta");
  r.digits = parsed.get("--digits");
  r.json = parsed.has("--json");
  return r;
}

void print_select_guarantee(std::ostream& err, const SelectPlan& req, const operations::SelectGuarantee& g,
                            const mechanisms::Selection& selection) {
  const mechanisms::SelectionOptions& options = req.options;
  const std::string mech_text =
      mechanisms::to_string(options.mechanism) +
      (options.mechanism == SelectionMechanism::kReportNoisyMax
           ? " (" + std::string(options.noise == NoiseKind::kDiscreteLaplace
                                    ? "discrete Laplace noise of scale " +
                                          abbreviate(to_string(selection.noise_scale())) +
                                          " on the grid 1/" + abbreviate(to_string(selection.grid_denominator()))
                                    : "exponential noise, drawn as permute-and-flip") + ")"
           : std::string());
  err << "exactdp select: guarantee: each round (one selection) is (" << to_string(options.epsilon)
      << ", 0)-DP: " << mech_text << ", sensitivity " << to_string(options.sensitivity)
      << (options.monotonic ? " (monotonic scores)" : "") << ", " << selection.candidates()
      << " candidates\n"
      << "exactdp select: guarantee: all " << g.rounds.get_str() << " rounds printed (" << req.draws
      << " draw(s) x " << req.top << ") together are (" << abbreviate(exactdp::exact_decimal(g.basic))
      << ", 0)-DP (basic composition, exact)\n";
  if (g.optimal) {
    err << "exactdp select: guarantee: and (" << exactdp::decimal_upper(g.optimal->value.upper(), req.digits)
        << ", " << to_string(*req.delta) << ")-DP (optimal composition, Kairouz-Oh-Viswanath; certified upper end)\n";
  } else if (!g.optimal_note.empty()) {
    err << "exactdp select: " << g.optimal_note << "\n";
  }
}

// The draws: printed one line each, or collected into `selections` with --json.
void draw_selections(mechanisms::Selection& selection, BitSource& bits, const SelectPlan& req,
                     std::ostream& out, JsonValue& selections) {
  for (unsigned long long d = 0; d < req.draws && out; ++d) {
    if (req.top == 1) {
      const std::size_t i = selection.select(bits);
      if (req.json) {
        selections.push(static_cast<unsigned long long>(i));
      } else {
        out << i << '\n';
      }
    } else {
      const auto chosen = selection.select_top(bits, static_cast<std::size_t>(req.top));
      if (req.json) {
        JsonValue line = JsonValue::array();
        for (const auto i : chosen) line.push(static_cast<unsigned long long>(i));
        selections.push(std::move(line));
      } else {
        out << join(chosen) << '\n';
      }
    }
  }
}

JsonValue select_json(const SelectPlan& req, const operations::SelectGuarantee& g,
                      const mechanisms::Selection& selection, JsonValue selections) {
  const mechanisms::SelectionOptions& options = req.options;
  JsonValue guarantee = JsonValue::object();
  guarantee.set("epsilon_per_round", to_string(options.epsilon))
      .set("rounds", g.rounds.get_str())
      .set("basic_epsilon", to_string(g.basic))
      .set("basic_delta", "0");
  if (req.delta) guarantee.set("delta", to_string(*req.delta));
  if (g.optimal) {
    guarantee.set_interval("optimal_epsilon", g.optimal->value, req.digits)
        .set("optimal_epsilon_upper", exactdp::decimal_upper(g.optimal->value.upper(), req.digits))
        .set("optimal_tolerance_met", g.optimal->tolerance_met);
  } else if (!g.optimal_note.empty()) {
    guarantee.set("optimal_note", g.optimal_note);
  }
  JsonValue out = JsonValue::object();
  out.set("command", "select").set("mechanism", mechanisms::to_string(options.mechanism));
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
      .set("candidates", static_cast<unsigned long long>(selection.candidates()))
      .set("top", req.top)
      .set("draws", req.draws)
      .set("selections", std::move(selections))
      .set("guarantee", std::move(guarantee));
  return out;
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
  const SelectPlan req = operations::plan_select(select_request(parsed));

  mechanisms::Selection selection = operations::make_selection(req, mechanisms::read_scores(io.in));
  const operations::SelectGuarantee guarantee = operations::select_guarantee(req);
  print_select_guarantee(io.err, req, guarantee, selection);

  const std::unique_ptr<BitSource> bits = bit_source_from_seed_option(parsed, io.err);
  JsonValue selections = JsonValue::array();
  draw_selections(selection, *bits, req, io.out, selections);
  if (req.json) io.out << select_json(req, guarantee, selection, std::move(selections)).dump() << "\n";
  return 0;
}

}  // namespace exactdp::cli
