// release_cell_codec_test.cc — CellCodec (mechanisms/release/cell_codec.h): integer and decimal
// cells read exactly and written back exactly; the grid check, rounding to nearest (ties toward
// +infinity) and the grid sensitivity ceil(s / G); and the vector API (release_values.h) equals
// the CSV release for the same seed.
#include <gtest/gtest.h>

#include <sstream>

#include <exactdp/mechanisms/release/cell_codec.h>
#include <exactdp/mechanisms/release/csv_reader.h>
#include <exactdp/mechanisms/release/release_table.h>
#include <exactdp/mechanisms/release/release_values.h>
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/samplers/seeded_bits.h>
#include "tests/mechanisms/release_test_support.h"
#include "tests/support/seeds.h"

namespace exactdp {
namespace {

using namespace mechanisms;

mpz_class index_of(const CellCodec& codec, const std::string& text) {
  mpz_class k;
  codec.parse(text, 7, "col", k);
  return k;
}

std::string text_of(const CellCodec& codec, const mpz_class& k) {
  std::string out;
  codec.format(k, out);
  return out;
}

TEST(CellCodec, IntegersOfAnySize) {
  const CellCodec c = CellCodec::integers();
  EXPECT_EQ(index_of(c, "-42"), -42);
  EXPECT_EQ(index_of(c, "+7"), 7);
  const std::string big = "-" + std::string(300, '9');
  EXPECT_EQ(text_of(c, index_of(c, big)), big);
  for (const std::string bad : {"", "-", "1.0", " 1", "1e3", "0x10", "١"}) {
    EXPECT_THROW((void)index_of(c, bad), CsvError) << bad;
  }
}

TEST(CellCodec, DecimalsOnTheGrid) {
  const CellCodec c = CellCodec::decimals(mpq_class(1, 100), Rounding::kRefuse);
  EXPECT_EQ(c.decimals(), 2u);
  EXPECT_EQ(index_of(c, "12.30"), 1230);
  EXPECT_EQ(index_of(c, "-0.05"), -5);
  EXPECT_EQ(index_of(c, ".5"), 50);
  EXPECT_EQ(index_of(c, "7"), 700);
  EXPECT_EQ(index_of(c, "7."), 700);
  EXPECT_EQ(index_of(c, "1.2300000"), 123);
  EXPECT_EQ(text_of(c, 1230), "12.30");
  EXPECT_EQ(text_of(c, -5), "-0.05");
  EXPECT_EQ(text_of(c, 0), "0.00");
  EXPECT_EQ(text_of(c, -100), "-1.00");
  try {
    (void)index_of(c, "0.001");
    ADD_FAILURE();
  } catch (const CsvError& e) {
    EXPECT_NE(std::string(e.what()).find("line 7"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("not a multiple of the granularity 0.01"), std::string::npos);
  }
  for (const std::string bad : {"", ".", "1e-2", "1,5", "--1", "1.2.3", " 1"}) {
    EXPECT_THROW((void)index_of(c, bad), CsvError) << bad;
  }
}

TEST(CellCodec, PowersOfTwoAndWholeGrids) {
  const CellCodec binary = CellCodec::decimals(power_of_two(-10), Rounding::kRefuse);
  EXPECT_EQ(binary.decimals(), 10u);
  EXPECT_EQ(index_of(binary, "0.0009765625"), 1);
  EXPECT_EQ(text_of(binary, 3), "0.0029296875");
  const CellCodec fives = CellCodec::decimals(5, Rounding::kRefuse);
  EXPECT_EQ(fives.decimals(), 0u);
  EXPECT_EQ(index_of(fives, "-15"), -3);
  EXPECT_EQ(text_of(fives, -3), "-15");
  EXPECT_THROW((void)CellCodec::decimals(mpq_class(1, 3), Rounding::kRefuse), ParameterError);
  EXPECT_THROW((void)CellCodec::decimals(0, Rounding::kRefuse), ParameterError);
}

TEST(CellCodec, RoundsToNearestWithTiesUp) {
  const CellCodec c = CellCodec::decimals(mpq_class(1, 10), Rounding::kNearest);
  EXPECT_EQ(index_of(c, "0.14"), 1);
  EXPECT_EQ(index_of(c, "0.15"), 2);
  EXPECT_EQ(index_of(c, "-0.15"), -1);  // ties toward +infinity
  EXPECT_EQ(index_of(c, "-0.16"), -2);
  EXPECT_EQ(index_of(c, "2.3"), 23);
}

TEST(CellCodec, GridSensitivityIsTheCeiling) {
  EXPECT_EQ(grid_sensitivity(mpq_class(1, 2), mpq_class(1, 100)), 50);
  EXPECT_EQ(grid_sensitivity(mpq_class(1, 3), mpq_class(1, 10)), 4);
  EXPECT_EQ(grid_sensitivity(mpq_class(1), mpq_class(5)), 1);  // not private_max.h's (mpq, long)
  EXPECT_THROW((void)grid_sensitivity(0, 1), ParameterError);
}

TEST(ReleaseValues, VectorReleaseEqualsTheCsvRelease) {
  ReleaseBudget budget;
  budget.mechanism = "discrete-gaussian";
  budget.epsilon = 1;
  budget.delta = mpq_class(1, 1'000'000);
  const std::string csv = "a,b\n1.25,-3\n0.50,7.75\n10,0\n";
  const CellCodec codec = CellCodec::decimals(mpq_class(1, 4), Rounding::kRefuse);
  test_support::StringReader in(csv);
  const TableScan scan = scan_table(in, {"a", "b"}, {}, codec);
  ContributionModel model;
  model.columns = 2;
  model.sensitivity = grid_sensitivity(1, mpq_class(1, 4));
  const ReleaseCalibration cal = calibrate_release(budget, model, scan.rows);
  in.rewind();
  std::ostringstream out;
  {
    SeededBits bits(test_support::fixed_seed(0xdec, 1));
    write_release(in, out, scan, cal, bits, {}, codec);
  }
  std::vector<std::vector<mpq_class>> columns = {{mpq_class(5, 4), mpq_class(1, 2), 10},
                                                 {-3, mpq_class(31, 4), 0}};
  SeededBits bits(test_support::fixed_seed(0xdec, 1));
  const ReleaseCalibration vcal =
      release_decimal_columns(columns, mpq_class(1, 4), Rounding::kRefuse, 1, budget, 1, bits);
  EXPECT_EQ(vcal.sigma2, cal.sigma2);
  test_support::StringReader back(out.str());
  CsvReader reader(back);
  CsvRecord r;
  ASSERT_TRUE(reader.next(r));
  for (std::size_t row = 0; row < 3; ++row) {
    ASSERT_TRUE(reader.next(r));
    for (std::size_t c = 0; c < 2; ++c) {
      EXPECT_EQ(parse_rational("cell", r.value(c)), columns[c][row]) << row << "," << c;
      EXPECT_EQ(mpq_class(columns[c][row] * 4).get_den(), 1);  // still on the grid
    }
  }
  std::vector<std::vector<mpq_class>> off = {{mpq_class(1, 3)}};
  EXPECT_THROW((void)release_decimal_columns(off, mpq_class(1, 4), Rounding::kRefuse, 1, budget, 1, bits),
               ParameterError);
  std::vector<std::vector<mpz_class>> ragged = {{1, 2}, {3}};
  EXPECT_THROW((void)release_integer_columns(ragged, budget, {}, bits), ParameterError);
}

}  // namespace
}  // namespace exactdp
