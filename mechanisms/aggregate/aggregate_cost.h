// aggregate_cost.h — what a release of `exactdp aggregate` holds and writes per released group,
// for the memory estimate of the bounder (contribution_bounder.h, set_group_bytes) and the
// up-front limits of public keys (SECURITY.md, "Limits").
//
// Per group the release holds its exact totals (GroupTotals: two counts and one sum per value
// column, each an mpz_class of 16 bytes with a heap block of 32), two copies of its key (the
// totals' key list and the released group) and its output row, and with --keys a map entry per
// key. The row's width is estimated per output column from the noise (digits of the Laplace scale,
// or of sqrt(sigma2), plus 1 for the tail) or the per-group sensitivity's digits, whichever is
// more, plus a sign and a comma: a tiny epsilon makes every noisy value long (epsilon = 10^-300
// gives values of ~300 digits).
// Time: drawing a noisy value of D digits and printing it costs about (D / 64 + 1)^2 limb
// operations of a few ns; public keys are refused up front when keys x noisy columns x that is
// over kMaxAggregateNoiseWork (measured: 1000 keys at 100000 digits took 9.2 s), naming epsilon
// when the values are long, else keys; and when their rows would pass the memory limit, naming keys.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <exactdp/mechanisms/aggregate/aggregate_calibration.h>
#include <exactdp/mechanisms/aggregate/aggregate_input.h>
#include <exactdp/mechanisms/aggregate/aggregate_request.h>

namespace exactdp::mechanisms {

inline constexpr std::uint64_t kMaxAggregateNoiseWork = 200'000'000;

struct GroupReleaseBytes {
  std::uint64_t fixed = 0;         // bytes per released group
  std::uint64_t per_key_byte = 0;  // plus this many per byte of its key
  std::uint64_t row_digits = 0;    // the estimated width of a row's values
  std::uint64_t noise_work = 0;    // the estimated cost of its noisy values (limb operations)
};

// The release's bytes and work per group for this request and its calibration.
[[nodiscard]] GroupReleaseBytes group_release_bytes(const AggregateRequest& request,
                                                    const AggregateGuarantee& guarantee);

// LimitError naming keys (or epsilon) when the public keys' rows cannot be held within the
// memory limit or drawn within kMaxAggregateNoiseWork.
void check_public_keys_cost(const std::vector<std::string>& keys, const AggregateRequest& request,
                            const AggregateGuarantee& guarantee, const AggregateLimits& limits);

}  // namespace exactdp::mechanisms
