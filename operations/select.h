// select.h — the operation `select`: exact private selection over rational scores
// (mechanisms/selection/selection.h, docs/SELECTION.md, docs/DESIGN.md, "Operations"). The
// command line (cli/cmd_select.cc: -n draws of one selection or of --top K peeling) and the C
// interface (c_api/c_api_selection.cc: one selection object, then a draw per call) build a
// SelectRequest; every check and the work limits are here, before a bit is drawn:
//   - draws: 1..10^7 (10^6 when the selections are collected into one JSON object);
//   - work: the estimated candidate steps of all the draws (Selection::estimated_select_steps_x64
//     for single selections, estimated_peeling_steps for top K) at most kMaxSelectSteps, about
//     10 s of CPU; LimitError naming n (single selections) or top (peeling) otherwise.
//
// Example:
//   SelectRequest r{.mechanism = "exponential", .epsilon = "1", .sensitivity = "1", .top = "3"};
//   const SelectPlan plan = plan_select(r);
//   mechanisms::Selection s = make_selection(plan, std::move(scores));   // checks top, the work
//   const SelectGuarantee g = select_guarantee(plan);
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include <exactdp/accounting/ziv.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/operations/spelling.h>

namespace exactdp::operations {

// The limits of SECURITY.md, "Limits".
inline constexpr unsigned long long kMaxSelectDraws = 10'000'000;
inline constexpr unsigned long long kMaxJsonSelectDraws = 1'000'000;
inline constexpr unsigned long long kMaxSelectSteps = 3'000'000;

struct SelectRequest {
  std::optional<std::string> mechanism{};    // exponential, permute-and-flip or report-noisy-max (required)
  std::optional<std::string> noise{};        // report-noisy-max only: laplace or exponential
  std::optional<std::string> epsilon{};      // exact text, 0 < epsilon <= 10^6 (required)
  std::optional<std::string> sensitivity{};  // exact text, > 0 (required)
  bool monotonic = false;
  std::optional<std::string> top{};          // peeling rounds, 1..the number of candidates (default 1)
  std::optional<std::string> draws{};        // 1..kMaxSelectDraws (default 1)
  std::optional<std::string> delta{};        // exact text, 0 < delta < 1: the optimal composition too
  std::optional<std::string> digits{};       // significant digits printed, 1..1000 (default 20)
  bool json = false;                         // the selections are kept for one JSON object
  Spelling spelling = kCommandLineSpelling;
};

struct SelectPlan {
  mechanisms::SelectionOptions options;
  unsigned long long top = 1;
  unsigned long long draws = 1;
  std::optional<mpq_class> delta;
  int digits = 20;
  bool json = false;
  Spelling spelling = kCommandLineSpelling;  // the request's, for the work limits' messages
};

// Checks, in this order: mechanism, noise (report-noisy-max only), epsilon, sensitivity and
// monotonic (mechanisms::validate_selection_options), top, draws, delta, digits, draws with json.
// ParameterError naming the parameter, in the face's spelling.
[[nodiscard]] SelectPlan plan_select(const SelectRequest& request);

// The selection over `scores` (Selection::make: the scores' size limits), after checking
// top <= the number of candidates; then the work of the plan's draws (LimitError naming n or top,
// as above).
[[nodiscard]] mechanisms::Selection make_selection(const SelectPlan& plan, std::vector<mpq_class> scores);

// Throws LimitError naming top when `draws` draws of top-`top` peeling of `selection` are over
// kMaxSelectSteps; with top 1, naming n when `draws` single selections are. `spelling` names
// the parameters in the message's advice.
void check_select_work(mechanisms::Selection& selection, unsigned long long top, unsigned long long draws,
                       const Spelling& spelling);

// The guarantee of everything the plan draws: draws * top adaptively composed epsilon-DP rounds.
struct SelectGuarantee {
  mpz_class rounds;
  mpq_class basic;                               // rounds * epsilon, exact (basic composition)
  std::optional<accounting::Certified> optimal;  // with delta, 2..10^6 rounds: Kairouz-Oh-Viswanath
  std::string optimal_note;                      // with delta otherwise: why there is none
};

[[nodiscard]] SelectGuarantee select_guarantee(const SelectPlan& plan);

}  // namespace exactdp::operations
