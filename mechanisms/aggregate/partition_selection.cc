#include <exactdp/mechanisms/aggregate/partition_selection.h>

#include <memory>
#include <stdexcept>

#include <exactdp/accounting/parameter_checks.h>
#include <exactdp/core/decimal.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/core/rational_rounding.h>
#include <exactdp/mechanisms/internal/noise_drawer.h>

namespace exactdp::mechanisms {
namespace {

constexpr mpfr_prec_t kPrec = exactdp::kDefaultPrecision;
constexpr int kMaxRaise = 10'000;  // certified-check retries above the analytic start

}  // namespace

exactdp::Interval partition_selection_delta(unsigned long max_groups, const mpq_class& scale,
                                            const mpz_class& threshold) {
  const mpq_class m = mpq_class(threshold - 1) / scale;  // (tau - 1) / t
  const exactdp::Interval q = exactdp::exp(exactdp::Interval(mpq_class(-1) / scale, kPrec));
  const exactdp::Interval tail = exactdp::exp(exactdp::Interval(mpq_class(-m), kPrec)) / (q + mpq_class(1));
  return tail * mpq_class(max_groups);
}

PartitionSelection calibrate_partition_selection(unsigned long max_groups, const mpq_class& epsilon,
                                                 const mpq_class& delta) {
  accounting::require_positive_at_most("epsilon", epsilon, mpq_class(1'000'000), "10^6");
  accounting::require_open_unit("delta", delta);
  PartitionSelection s;
  s.max_groups = max_groups;
  s.epsilon = epsilon;
  s.delta_requested = delta;
  s.scale = mpq_class(max_groups) / epsilon;
  s.scale.canonicalize();
  // tau - 1 >= t ln(L0 / (delta (1 + q))): start at the lower end, rounded up.
  const exactdp::Interval q = exactdp::exp(exactdp::Interval(mpq_class(-1) / s.scale, kPrec));
  const exactdp::Interval ratio =
      exactdp::Interval(mpq_class(max_groups) / delta, kPrec) / (q + mpq_class(1));
  const exactdp::Interval start = exactdp::log(ratio) * s.scale;
  if (!exactdp::upper_at_most(start, power_of_two(62))) {
    throw LimitError("epsilon", "epsilon = " + abbreviate(to_string(epsilon)) +
                                    " for partition selection needs a threshold over 2^62 (scale L0 / epsilon = " +
                                    exactdp::decimal_upper(exactdp::Interval(s.scale, kPrec).upper(), 6) +
                                    "): allowed a selection epsilon with t ln(L0 / (delta (1 + q))) <= 2^62");
  }
  mpz_class m = ceil_of(exactdp::to_mpq(start.lower()));
  if (sgn(m) < 0) m = 0;
  for (int raise = 0; raise <= kMaxRaise; ++raise, ++m) {
    const exactdp::Interval d = partition_selection_delta(max_groups, s.scale, m + 1);
    if (exactdp::upper_at_most(d, delta)) {
      s.threshold = m + 1;
      s.delta = d;
      s.delta_bound = exactdp::to_mpq(d.upper());
      return s;
    }
  }
  throw std::logic_error("partition selection: no certified threshold near the analytic one");
}

std::string selection_method_name(SelectionMethod method) {
  return method == SelectionMethod::kOptimal ? "optimal" : "threshold";
}

SelectionMethod parse_selection_method(std::string_view name) {
  if (name == "optimal") return SelectionMethod::kOptimal;
  if (name == "threshold") return SelectionMethod::kThreshold;
  throw ParameterError::out_of_range("selection", abbreviate(name), "optimal or threshold");
}

PartitionSelection calibrate_optimal_partition_selection(unsigned long max_groups, const mpq_class& epsilon,
                                                         const mpq_class& delta) {
  accounting::require_positive_at_most("epsilon", epsilon, mpq_class(1'000'000), "10^6");
  accounting::require_open_unit("delta", delta);
  PartitionSelection s;
  s.method = SelectionMethod::kOptimal;
  s.max_groups = max_groups;
  s.epsilon = epsilon;
  s.delta_requested = delta;
  s.delta_bound = delta;
  s.delta = exactdp::Interval(delta, kPrec);
  const mpq_class l0(max_groups);
  auto table = std::make_shared<OptimalSelectionTable>(
      optimal_selection_table(mpq_class(epsilon / l0), mpq_class(delta / l0)));
  if (first_uncertified_selection_step(*table)) {
    throw std::logic_error("optimal partition selection: the table failed its certification");
  }
  s.table = std::move(table);
  return s;
}

PartitionSelection calibrate_partition_selection(SelectionMethod method, unsigned long max_groups,
                                                 const mpq_class& epsilon, const mpq_class& delta) {
  return method == SelectionMethod::kOptimal ? calibrate_optimal_partition_selection(max_groups, epsilon, delta)
                                             : calibrate_partition_selection(max_groups, epsilon, delta);
}

struct PartitionSelector::Impl {
  explicit Impl(const ReleaseCalibration& c) : drawer(c) {}
  internal::NoiseDrawer drawer;
};

namespace {
ReleaseCalibration laplace_of_scale(const mpq_class& scale) {
  ReleaseCalibration c;
  c.budget.mechanism = "discrete-laplace";
  c.parameter = "scale";
  c.scale = scale;
  return c;
}
}  // namespace

PartitionSelector::PartitionSelector(const PartitionSelection& selection)
    : table_(selection.table), threshold_(selection.threshold) {
  if (!table_) impl_ = std::make_unique<Impl>(laplace_of_scale(selection.scale));
}

PartitionSelector::~PartitionSelector() = default;

bool PartitionSelector::keep(BitSource& bits, const mpz_class& units) {
  if (sgn(units) <= 0) return false;
  if (table_) return draw_optimal_selection(bits, *table_, units);
  mpz_class noisy = units;
  impl_->drawer.add_noise(bits, noisy);
  return noisy >= threshold_;
}

}  // namespace exactdp::mechanisms
