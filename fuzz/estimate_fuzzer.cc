// estimate_fuzzer — the rows path of `exactdp estimate sparse-mean` (operations/estimate_input.h,
// then mechanisms/estimation/sparse_mean.h): CSV reading, the exact decimal grid map, the column
// sums, the cost check and the peeling.
//
// Input: byte 0 picks s = 1 + b % 3, the route (basic, advanced, kov; b / 4 % 3) and whether a
// delta is given (bit 4); byte 1 the radius R = 2^(b % 48 - 24) (times 3/2 when bit 7 is set:
// a radius that is not a power of two); byte 2 the read-chunk size 1 + b % 16; then the CSV.
// Invariants:
//   * reading either succeeds or throws ParameterError (CsvError), nothing else; so do the cost
//     check and the estimate (LimitError, ParameterError naming s, route, ...);
//   * the column sums equal an independent computation: every cell re-read with
//     exactdp::parse_rational (when it accepts the text and its exponent has at most 4 digits),
//     mapped to clamp(round_half_even(q 2^k), -B, B) in GMP rationals and summed;
//   * every |S_j| <= n B; on success the certified epsilon is <= the target, the support has s
//     distinct coordinates and the estimate is 0 off it.
#include <mpfr.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <exactdp/operations/estimate_input.h>
#include "fuzz/chunk_reader.h"
#include "fuzz/fuzz_support.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/estimation/estimation_cost.h>
#include <exactdp/mechanisms/estimation/sparse_mean.h>
#include <exactdp/mechanisms/release/csv_reader.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

namespace mech = exactdp::mechanisms;
using exactdp::fuzz::ChunkReader;

mech::SparseMeanOptions options_of(std::uint8_t b0, std::uint8_t b1) {
  mech::SparseMeanOptions o;
  o.sparsity = 1 + b0 % 3;
  if ((b0 & 16) != 0) o.delta = mpq_class(1, 1000000);
  const unsigned route = (b0 / 4) % 3;
  if (route == 1 && o.delta) o.route = mech::CompositionRoute::kAdvanced;
  if (route == 2 && o.delta) o.route = mech::CompositionRoute::kOptimal;
  o.radius = exactdp::power_of_two(static_cast<long>(b1 % 48) - 24);
  if ((b1 & 128) != 0) o.radius *= mpq_class(3, 2);
  o.epsilon = 1;
  return o;
}

// clamp(round_half_even(q 2^k), -B, B), computed in rationals.
mpz_class reference_grid_value(const mpq_class& q, long k, std::int64_t bound) {
  const mpq_class scaled = abs(q) * exactdp::power_of_two(k);
  mpz_class floor_value;
  mpz_fdiv_q(floor_value.get_mpz_t(), scaled.get_num_mpz_t(), scaled.get_den_mpz_t());
  const mpq_class fraction = scaled - mpq_class(floor_value);
  mpz_class r = floor_value;
  if (fraction > mpq_class(1, 2) || (fraction == mpq_class(1, 2) && mpz_odd_p(floor_value.get_mpz_t()) != 0)) ++r;
  if (r > bound) r = bound;
  return q < 0 ? mpz_class(-r) : r;
}

bool short_exponent(const std::string& text) {
  const std::size_t e = text.find_first_of("eE");
  if (e == std::string::npos) return true;
  std::size_t digits = 0;
  for (std::size_t i = e + 1; i < text.size(); ++i) digits += (text[i] >= '0' && text[i] <= '9') ? 1 : 0;
  return digits <= 4;
}

// The sums re-computed cell by cell (the input was read successfully, so it is well formed).
void check_sums(const std::string& text, const mech::SparseMeanGrid& grid, const exactdp::operations::GridColumnSums& got) {
  ChunkReader in(text, 64);
  mech::CsvReader reader(in);
  mech::CsvRecord record;
  (void)reader.next(record);
  std::vector<mpz_class> sums(got.names.size());
  std::vector<bool> known(got.names.size(), true);
  while (reader.next(record)) {
    for (std::size_t j = 0; j < sums.size(); ++j) {
      const std::string cell = record.value(j);
      if (!short_exponent(cell)) {
        known[j] = false;
        continue;
      }
      try {
        sums[j] += reference_grid_value(exactdp::parse_rational("x", cell), grid.exponent, grid.bound);
      } catch (const exactdp::ParameterError&) {
        known[j] = false;  // over the parser's own limits: no reference
      }
    }
  }
  const mpz_class limit = mpz_class(std::to_string(got.rows)) * mpz_class(static_cast<long>(grid.bound));
  for (std::size_t j = 0; j < sums.size(); ++j) {
    FUZZ_CHECK(abs(got.sums[j]) <= limit, "|S_%zu| over n B", j);
    FUZZ_CHECK(!known[j] || sums[j] == got.sums[j], "S_%zu = %s, reference %s", j, got.sums[j].get_str().c_str(),
               sums[j].get_str().c_str());
  }
}

void check_estimate(const mech::EstimateResult& r, const mech::SparseMeanOptions& o, std::size_t d) {
  FUZZ_CHECK(r.estimate.size() == d, "estimate of size %zu", r.estimate.size());
  FUZZ_CHECK(r.support.size() == o.sparsity, "support of size %zu", r.support.size());
  const std::set<std::size_t> support(r.support.begin(), r.support.end());
  FUZZ_CHECK(support.size() == r.support.size() && *support.rbegin() < d, "support not distinct coordinates");
  for (std::size_t j = 0; j < d; ++j) FUZZ_CHECK(support.count(j) == 1 || r.estimate[j] == 0, "nonzero off support");
  FUZZ_CHECK(mpfr_cmp_q(r.guarantee.certified_epsilon.upper(), o.epsilon.get_mpq_t()) <= 0, "certified epsilon over the target");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  exactdp::fuzz::init_sodium_once();
  if (size < 3) return 0;
  const mech::SparseMeanOptions o = options_of(data[0], data[1]);
  const std::string text(reinterpret_cast<const char*>(data) + 3, size - 3);
  const mech::SparseMeanGrid grid = mech::sparse_mean_grid(o);
  const exactdp::operations::DecimalGridMap map(grid.exponent, grid.bound, o.radius);
  ChunkReader in(text, 1 + data[2] % 16);
  exactdp::operations::GridColumnSums sums;
  try {
    sums = exactdp::operations::read_grid_column_sums(in, map, {}, [&](std::size_t d) {
      exactdp::mechanisms::check_peeling_cost(
          {o.sparsity, d, o.delta.has_value(), exactdp::mechanisms::numerator_denominator_bits(o.epsilon)}, "s");
    });
  } catch (const exactdp::ParameterError&) {
    return 0;
  }
  check_sums(text, grid, sums);
  exactdp::Seed seed{};
  seed[0] = 3;
  exactdp::SeededBits bits(seed);
  mech::EstimateResult r;
  try {
    r = mech::sparse_mean_from_column_sums(sums.sums, static_cast<std::size_t>(sums.rows), o, bits);
  } catch (const exactdp::ParameterError& e) {
    FUZZ_CHECK(false, "the estimate refused input the reader accepted: %s", e.what());
  }
  check_estimate(r, o, sums.names.size());
  return 0;
}
