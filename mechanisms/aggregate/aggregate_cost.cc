#include <exactdp/mechanisms/aggregate/aggregate_cost.h>

#include <gmpxx.h>

#include <algorithm>

#include <exactdp/core/errors.h>

namespace exactdp::mechanisms {
namespace {

constexpr std::uint64_t kMpzBytes = 16 + 32;  // an mpz_class and its heap block
constexpr std::uint64_t kGroupTotalsBytes = 2 * kMpzBytes + 24;
// A released group (key, totals, id), the totals' key list entry, the row string, the sort order
// and the keys' map node: the fixed part of each.
constexpr std::uint64_t kGroupFixedBytes = 104 + 32 + 32 + 4 + 64;

std::uint64_t digits_of(const mpz_class& v) { return mpz_sizeinbase(v.get_mpz_t(), 10); }

// The digits of a noisy value's noise: of the Laplace scale, or of sqrt(sigma2), plus 1 (the tail).
std::uint64_t noise_digits(const QuantityNoise& q) {
  if (sgn(q.scale) > 0) {
    const mpz_class ceil_scale = (q.scale.get_num() + q.scale.get_den() - 1) / q.scale.get_den();
    return digits_of(ceil_scale) + 1;
  }
  const mpz_class ceil_sigma2 = (q.sigma2.get_num() + q.sigma2.get_den() - 1) / q.sigma2.get_den();
  return (digits_of(ceil_sigma2) + 1) / 2 + 1;
}

}  // namespace

GroupReleaseBytes group_release_bytes(const AggregateRequest& r, const AggregateGuarantee& g) {
  GroupReleaseBytes out;
  out.fixed = kGroupFixedBytes + kGroupTotalsBytes + kMpzBytes * r.value_columns.size();
  out.per_key_byte = 4;
  for (const auto& q : g.noise) {
    const std::uint64_t digits = std::max(noise_digits(q), digits_of(q.sensitivity.per_group)) + 1;  // and a sign
    out.row_digits += digits + 1;  // and a comma
    const std::uint64_t limbs = digits / 19 + 1;
    out.noise_work += 64 + limbs * limbs;
  }
  for (const auto& o : r.outputs) {
    if (o.kind == AggregateKind::kQuantile) out.row_digits += digits_of(bounds_of(r, o.column).max_abs_index) + 3;
    if (o.kind == AggregateKind::kMean) out.row_digits += digits_of(bounds_of(r, o.column).max_abs_index) + 9;
  }
  out.fixed += out.row_digits;
  return out;
}

void check_public_keys_cost(const std::vector<std::string>& keys, const AggregateRequest& r,
                            const AggregateGuarantee& g, const AggregateLimits& limits) {
  const GroupReleaseBytes per = group_release_bytes(r, g);
  std::uint64_t bytes = 0;
  for (const auto& k : keys) bytes += per.fixed + per.per_key_byte * k.size();
  const std::uint64_t n = keys.size();
  const std::uint64_t work = n == 0 ? 0 : (per.noise_work > UINT64_MAX / n ? UINT64_MAX : per.noise_work * n);
  if (work > kMaxAggregateNoiseWork) {
    const bool long_values = per.row_digits > 64 * std::max<std::size_t>(1, g.noise.size());
    throw LimitError(long_values ? "epsilon" : "keys",
                     std::to_string(n) + " keys of rows of about " + std::to_string(per.row_digits) +
                         " digits would take about " + std::to_string(work / 1'000'000) +
                         " million limb operations to draw and print: allowed at most " +
                         std::to_string(kMaxAggregateNoiseWork / 1'000'000) +
                         " million (about 5 s; SECURITY.md, Limits): " +
                         (long_values ? "a larger epsilon makes the noisy values shorter"
                                      : "use fewer keys or fewer output columns"));
  }
  if (bytes > limits.max_state_bytes) {
    throw LimitError("keys", std::to_string(n) + " keys would hold about " + std::to_string(bytes >> 20) +
                                 " MiB of totals and rows of about " + std::to_string(per.row_digits) +
                                 " digits: allowed at most " + std::to_string(limits.max_state_bytes >> 20) +
                                 " MiB (SECURITY.md, Limits); use fewer keys or output columns, or a larger epsilon");
  }
}

}  // namespace exactdp::mechanisms
