// release_noise_law_test.cc — the noise `exactdp release` adds has the calibrated law exactly.
//
// A table of n rows whose noised cells all hold the same integer v goes through the library's
// two passes (scan_table, calibrate_release, write_release) with a fixed seed; output - v is the
// noise. Check: Pearson chi-square against the certified pmf of the calibrated law
// (verification/reference_law.h) over bins of expected count >= max(5, n^0.6/2); it REJECTS when
// the certified p-value upper end is below alpha = 1e-6, so over random seeds a correct release
// would fail each case with probability about 1e-6 (asymptotic chi-square law).
// Power: the same check must reject a deliberately broken calibration (a release written with
// 10 % less variance / scale than the guarantee states).
#include <gtest/gtest.h>

#include <sstream>

#include <exactdp/mechanisms/release/csv_reader.h>
#include <exactdp/mechanisms/release/release_table.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/verification/goodness_of_fit.h>
#include "tests/mechanisms/release_test_support.h"
#include "tests/support/audit_helpers.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {
namespace release_noise_law_test {  // this file's own names in a unity build (tests/CMakeLists.txt)

using namespace mechanisms;
using test_support::StringReader;

const mpq_class kAlpha(1, 1'000'000);
constexpr std::size_t kRows = 40'000;
// A big base value: the noise is added exactly to integers beyond 64 bits.
const char* const kBase = "123456789012345678901234567890";

// Releases the constant table with `written` (the calibration the writer uses) and returns the
// chi-square test of the noise against `stated` (the law the guarantee describes).
verification::TestResult release_and_test(const ReleaseCalibration& written,
                                          const verification::ReferenceLaw& stated, std::uint32_t seed) {
  StringReader in(test_support::constant_table(kRows, kBase));
  const TableScan scan = scan_table(in, {"value"});
  EXPECT_EQ(scan.rows, kRows);
  in.rewind();
  std::ostringstream out;
  SeededBits bits(test_support::fixed_seed(0x7e1e, seed));
  write_release(in, out, scan, written, bits);
  StringReader back(out.str());
  CsvReader reader(back);
  CsvRecord r;
  EXPECT_TRUE(reader.next(r));
  verification::SampleCounter counter(stated, {});
  const mpz_class base(kBase);
  std::uint64_t n = 0;
  while (reader.next(r)) {
    EXPECT_EQ(r.value(0), std::to_string(n));  // the id column is untouched, rows in order
    counter.add(mpz_class(r.value(1)) - base);
    ++n;
  }
  EXPECT_EQ(n, kRows);
  const auto cells = verification::make_cells(stated, counter);
  const auto bins = verification::merge_cells(cells, n, verification::default_min_expected(n));
  return verification::pearson_chi_square(bins, n);
}

ReleaseCalibration calibrate(const std::string& m, const char* eps, const char* delta, unsigned long k) {
  ReleaseBudget b;
  b.mechanism = m;
  b.epsilon = mpq_class(eps);
  if (delta != nullptr) b.delta = mpq_class(delta);
  ContributionModel model;
  model.contributions = k;
  return calibrate_release(b, model, kRows);
}

TEST(ReleaseNoiseLaw, DiscreteGaussianMatchesCalibratedLaw) {
  const ReleaseCalibration c = calibrate("discrete-gaussian", "1", "1/1000000", 1);
  const verification::DiscreteGaussianLaw law(c.sigma2, 0);
  const auto t = release_and_test(c, law, 1);
  EXPECT_FALSE(test_support::rejects(t, kAlpha)) << exactdp::to_decimal_string(t.p_value, 3);
}

TEST(ReleaseNoiseLaw, DiscreteLaplaceMatchesCalibratedLaw) {
  const ReleaseCalibration c = calibrate("discrete-laplace", "1/2", nullptr, 3);
  EXPECT_EQ(c.scale, 6);
  const verification::DiscreteLaplaceLaw law(c.scale, 0);
  const auto t = release_and_test(c, law, 2);
  EXPECT_FALSE(test_support::rejects(t, kAlpha)) << exactdp::to_decimal_string(t.p_value, 3);
}

TEST(ReleaseNoiseLaw, BrokenGaussianCalibrationIsCaught) {
  const ReleaseCalibration c = calibrate("discrete-gaussian", "1", "1/1000000", 1);
  ReleaseCalibration broken = c;
  broken.sigma2 = c.sigma2 * mpq_class(9, 10);
  const verification::DiscreteGaussianLaw stated(c.sigma2, 0);
  const auto t = release_and_test(broken, stated, 3);
  EXPECT_TRUE(test_support::rejects(t, kAlpha)) << exactdp::to_decimal_string(t.p_value, 3);
}

TEST(ReleaseNoiseLaw, BrokenLaplaceCalibrationIsCaught) {
  const ReleaseCalibration c = calibrate("discrete-laplace", "1/2", nullptr, 3);
  ReleaseCalibration broken = c;
  broken.scale = c.scale * mpq_class(9, 10);
  const verification::DiscreteLaplaceLaw stated(c.scale, 0);
  const auto t = release_and_test(broken, stated, 4);
  EXPECT_TRUE(test_support::rejects(t, kAlpha)) << exactdp::to_decimal_string(t.p_value, 3);
}

}  // namespace release_noise_law_test
}  // namespace
}  // namespace exactdp
