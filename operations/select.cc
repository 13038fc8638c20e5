#include <exactdp/operations/select.h>

#include <utility>

#include <exactdp/accounting/pure_dp_composition.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/selection/selection_guarantee.h>
#include <exactdp/operations/checked_count.h>

namespace exactdp::operations {
namespace {

using mechanisms::SelectionMechanism;

mechanisms::SelectionOptions selection_options(const SelectRequest& r) {
  const Spelling& s = r.spelling;
  mechanisms::SelectionOptions options;
  options.mechanism = mechanisms::parse_selection_mechanism(required(r.mechanism, "mechanism", s));
  if (r.noise) {
    if (options.mechanism != SelectionMechanism::kReportNoisyMax) {
      throw ParameterError("noise", s.name("noise") + " applies to " + s.name("mechanism") + " report-noisy-max only");
    }
    options.noise = mechanisms::parse_noise_kind(*r.noise);
  }
  options.epsilon = parse_rational("epsilon", required(r.epsilon, "epsilon", s));
  options.sensitivity = parse_rational("sensitivity", required(r.sensitivity, "sensitivity", s));
  options.monotonic = r.monotonic;
  mechanisms::validate_selection_options(options);
  return options;
}

// -n N single selections whose work is over kMaxSelectSteps candidate steps, from the estimate of
// Selection::estimated_select_steps_x64.
void check_repeated_select_work(mechanisms::Selection& selection, unsigned long long draws, const Spelling& s) {
  const mpz_class total_x64 =
      mpz_class(std::to_string(selection.estimated_select_steps_x64())) * mpz_class(std::to_string(draws));
  if (total_x64 > mpz_class(static_cast<unsigned long>(kMaxSelectSteps)) * 64) {
    const mpz_class steps = total_x64 / 64;
    const std::string n = s.prefix.empty() ? "n" : "-n";
    throw LimitError("n", "n: " + std::to_string(draws) + " draws over " + std::to_string(selection.candidates()) +
                              " candidates would take about " + steps.get_str() +
                              " candidate steps, over the limit of " + std::to_string(kMaxSelectSteps) +
                              " (about 10 s; report-noisy-max draws one noise per candidate, "
                              "permute-and-flip over spread-out scores about one coin per candidate): lower " +
                              n);
  }
}

}  // namespace

SelectPlan plan_select(const SelectRequest& r) {
  SelectPlan plan;
  plan.options = selection_options(r);
  if (r.top) plan.top = checked_count("top", *r.top, 1, mechanisms::kMaxCandidates);
  if (r.draws) plan.draws = checked_count("n", *r.draws, 1, kMaxSelectDraws);
  if (r.delta) {
    plan.delta = parse_rational("delta", *r.delta);
    accounting::validate_delta(*plan.delta, "delta");
  }
  if (r.digits) plan.digits = static_cast<int>(checked_count("digits", *r.digits, 1, 1000));
  plan.json = r.json;
  plan.spelling = r.spelling;
  if (plan.json && plan.draws > kMaxJsonSelectDraws) {
    // The JSON object is built in memory before it is printed.
    throw ParameterError::out_of_range("n", std::to_string(plan.draws),
                                       "1 <= n <= 1000000 with " + r.spelling.flag("json"));
  }
  return plan;
}

void check_select_work(mechanisms::Selection& selection, unsigned long long top, unsigned long long draws,
                       const Spelling& s) {
  if (top <= 1) {
    check_repeated_select_work(selection, draws, s);
    return;
  }
  const unsigned long long per_draw = selection.estimated_peeling_steps(static_cast<std::size_t>(top));
  const mpz_class total = mpz_class(std::to_string(per_draw)) * mpz_class(std::to_string(draws));
  if (total > mpz_class(static_cast<unsigned long>(kMaxSelectSteps))) {
    const std::string advice = s.prefix.empty() ? "lower top" : "lower " + s.name("top") + " or -n";
    throw LimitError("top", "top = " + std::to_string(top) + " over " + std::to_string(selection.candidates()) +
                                " candidates (x " + std::to_string(draws) + " draws) would take about " +
                                total.get_str() + " candidate steps: allowed at most " +
                                std::to_string(kMaxSelectSteps) +
                                " (about 10 s; spread-out scores cost about n steps a round); " + advice);
  }
}

mechanisms::Selection make_selection(const SelectPlan& plan, std::vector<mpq_class> scores) {
  const std::size_t candidates = scores.size();
  if (plan.top > candidates) {
    throw ParameterError::out_of_range("top", std::to_string(plan.top),
                                       "1 <= top <= the number of candidates (" + std::to_string(candidates) + ")");
  }
  mechanisms::Selection selection = mechanisms::Selection::make(std::move(scores), plan.options);
  check_select_work(selection, plan.top, plan.draws, plan.spelling);
  return selection;
}

SelectGuarantee select_guarantee(const SelectPlan& plan) {
  SelectGuarantee g;
  g.rounds = mpz_class(std::to_string(plan.draws)) * mpz_class(std::to_string(plan.top));
  g.basic = plan.options.epsilon * mpq_class(g.rounds);
  if (!plan.delta) return g;
  if (g.rounds >= 2 && g.rounds <= accounting::kMaxCompositions) {
    g.optimal = mechanisms::selection_guarantee(plan.options, g.rounds.get_ui(), plan.delta).optimal_epsilon;
  } else if (g.rounds > accounting::kMaxCompositions) {
    g.optimal_note = "optimal composition not computed: N * K = " + g.rounds.get_str() + " rounds is over 1000000";
  } else {
    g.optimal_note = "one round: epsilon is already exact with delta = 0";
  }
  return g;
}

}  // namespace exactdp::operations
