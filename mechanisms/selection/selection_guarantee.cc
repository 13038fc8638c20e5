#include <exactdp/mechanisms/selection/selection_guarantee.h>

#include <exactdp/accounting/pure_dp_composition.h>

namespace exactdp::mechanisms {

SelectionGuarantee selection_guarantee(const SelectionOptions& options, unsigned long rounds,
                                       const std::optional<mpq_class>& delta) {
  validate_selection_options(options);
  accounting::validate_pure_dp_composition(options.epsilon, rounds);
  SelectionGuarantee g;
  g.epsilon_per_round = options.epsilon;
  g.rounds = rounds;
  g.basic_epsilon = accounting::basic_composition_epsilon(options.epsilon, rounds);
  if (delta) {
    accounting::validate_delta(*delta, "delta");
    g.delta = *delta;
    if (rounds >= 2) g.optimal_epsilon = accounting::kov_epsilon(options.epsilon, rounds, *delta);
  }
  return g;
}

}  // namespace exactdp::mechanisms
