// aggregate_fuzzer — the records path of `exactdp aggregate` (mechanisms/aggregate/): reading,
// contribution bounding, partition selection or public keys, noise and formatting.
//
// Input: byte 0 picks L0 = 1 + b % 4, Linf = 1 + (b / 4) % 4, the mechanism (bit 4), public
// keys {a, "c,d"} (bit 5), the lower bound (bit 6: -10^20 - 1/2, whose grid index is past int64,
// so the cells take the mpz_class path of aggregate_input.cc instead of the int64 one) and a median
// of v (bit 7: the exponential mechanism on v's 216 grid points; refused, naming bounds, with the
// wide lower bound); byte 1 the read-chunk size 1 + b % 16 and, without keys, the threshold
// partition selection (bit 4; else the optimal one), with a median the sizes of its numbers:
// q = 1/2 + 10^-5000 (bit 5: every score holds 16,600 bits), epsilon = 10^-20000 (bit 6) and the
// bounds -1.5,20.000 (bit 7: 21,501 grid points), so that the quantile cost limits of
// aggregate_quantile.h (naming q or epsilon) are met or passed; then the CSV records, read with columns u
// (unit), g (group) and v (a value clamped to [-1.5, 20] or [-10^20 - 1/2, 20]). Invariants:
//   * aggregate_records either succeeds or throws ParameterError (CsvError, LimitError), nothing
//     else;
//   * on success: the guarantee is within the budget; with public keys exactly one row per key,
//     else at most one row per group seen; every row starts with a key and has 1 + 3 fields more;
//   * bounded_totals (same seed) gives every group at most (its units) x Linf rows and every unit
//     at most L0 groups: the sum of the groups' units is <= L0 x units (the units of every row,
//     also those of groups outside the public keys).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/chunk_reader.h"
#include "fuzz/fuzz_support.h"
#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/aggregate/aggregate_release.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

using exactdp::fuzz::ChunkReader;
using exactdp::mechanisms::AggregateKind;

exactdp::mechanisms::AggregateRequest request_of(std::uint8_t b, std::uint8_t b1) {
  exactdp::mechanisms::AggregateRequest r;
  r.privacy_unit = std::string(1, 'u');  // not = "u": GCC 12's -Wrestrict misfires on the inlined assign
  r.group_by = {"g"};
  r.outputs = {{AggregateKind::kCount, ""}, {AggregateKind::kCountUnits, ""}, {AggregateKind::kMean, "v"}};
  const bool fine_grid = (b & 128) != 0 && (b1 & 128) != 0;
  r.value_columns.push_back({"v", exactdp::mechanisms::parse_value_bounds(
                                      (b & 64) ? "-100000000000000000000.5,20" : fine_grid ? "-1.5,20.000" : "-1.5,20")});
  r.bounding = {1UL + b % 4, 1UL + (b / 4) % 4};
  r.mechanism = (b & 16) ? "discrete-gaussian" : "discrete-laplace";
  r.public_keys = (b & 32) != 0;
  if (!r.public_keys && (b1 & 16) != 0) r.selection = exactdp::mechanisms::SelectionMethod::kThreshold;
  if ((b & 128) != 0) {
    mpq_class q(1, 2);
    if ((b1 & 32) != 0) q += exactdp::fuzz::tenth_power(5000);
    q.canonicalize();
    r.outputs.push_back({AggregateKind::kQuantile, "v", q});
  }
  r.epsilon = (b1 & 64) != 0 ? exactdp::fuzz::tenth_power(20000) : mpq_class(1);
  r.delta = mpq_class(1, 1000);
  return r;
}

exactdp::Seed fuzz_seed() {
  exactdp::Seed s{};
  s[0] = 1;
  return s;
}

void check_totals(const exactdp::mechanisms::AggregateRequest& r, const std::string& text, std::size_t chunk,
                  std::uint64_t units) {
  ChunkReader in(text, chunk);
  exactdp::SeededBits bits(fuzz_seed());  // the release's bounding draws come first: the same choices
  const auto t = exactdp::mechanisms::bounded_totals(in, r, bits);
  mpz_class unit_groups = 0;
  for (const auto& g : t.totals) {
    FUZZ_CHECK(g.rows <= g.units * r.bounding.max_rows, "a group keeps more than units x Linf rows\n");
    unit_groups += g.units;
  }
  FUZZ_CHECK(unit_groups <= mpz_class(r.bounding.max_groups) * mpz_class(std::to_string(units)),
             "a unit keeps more than L0 groups\n");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const auto r = request_of(data[0], data[1]);
  const std::size_t chunk = 1 + data[1] % 16;
  const std::string text(reinterpret_cast<const char*>(data) + 2, size - 2);
  const std::vector<std::string> keys = {"a", "\"c,d\""};
  ChunkReader in(text, chunk);
  exactdp::SeededBits bits(fuzz_seed());
  exactdp::mechanisms::AggregateRelease rel;
  try {
    rel = exactdp::mechanisms::aggregate_records(in, r, r.public_keys ? &keys : nullptr, bits);
  } catch (const exactdp::ParameterError&) {
    return 0;
  }
  FUZZ_CHECK(rel.guarantee.epsilon <= r.epsilon && rel.guarantee.delta <= *r.delta, "over the budget\n");
  FUZZ_CHECK(r.public_keys ? rel.rows.size() == keys.size() : rel.rows.size() <= rel.groups_seen,
             "%zu rows\n", rel.rows.size());
  for (const auto& row : rel.rows) {
    FUZZ_CHECK(row.find(',') != std::string::npos, "a row without fields\n");
  }
  // With public keys, aggregate_records counts only the units of rows whose group is a key, while
  // bounded_totals reads every row: the L0 bound is then checked against the units of every row.
  std::uint64_t units = rel.units;
  if (r.public_keys) {
    auto every_row = r;
    every_row.public_keys = false;
    ChunkReader again(text, chunk);
    exactdp::SeededBits other_bits(fuzz_seed());
    try {
      units = exactdp::mechanisms::aggregate_records(again, every_row, nullptr, other_bits).units;
    } catch (const exactdp::ParameterError&) {
      return 0;
    }
  }
  check_totals(r, text, chunk, units);
  return 0;
}
