#include <exactdp/verification/bit_tests.h>

#include <array>
#include <bit>
#include <stdexcept>

#include <exactdp/accounting/normal.h>
#include <exactdp/verification/p_values.h>
#include <exactdp/core/errors.h>

namespace exactdp::verification {
namespace {
mpz_class to_mpz(unsigned long long v) { return mpz_class(std::to_string(v)); }
}  // namespace

TestResult monobit_test(BitSource& bits, unsigned long long n_words) {
  if (n_words == 0) throw ParameterError::out_of_range("n_words", "0", "n_words >= 1 (monobit_test)");
  unsigned long long ones = 0;
  for (unsigned long long i = 0; i < n_words; ++i) ones += static_cast<unsigned>(std::popcount(bits.bits(64)));
  const mpz_class n = to_mpz(n_words) * 64;
  const mpz_class s = 2 * to_mpz(ones) - n;
  TestResult r;
  r.name = "monobit";
  r.statistic_name = "z";
  r.statistic = Interval(s, kPrecision) / sqrt(Interval(n, kPrecision));
  r.asymptotic = true;
  r.detail = "ones = " + to_mpz(ones).get_str() + " of " + n.get_str() + " bits";
  r.p_value = normal_two_sided(r.statistic);
  return r;
}

TestResult runs_test(BitSource& bits, unsigned long long n_words) {
  if (n_words == 0) throw ParameterError::out_of_range("n_words", "0", "n_words >= 1 (runs_test)");
  unsigned long long ones = 0, changes = 0;
  bool have_last = false;
  unsigned last = 0;
  for (unsigned long long i = 0; i < n_words; ++i) {
    const std::uint64_t w = bits.bits(64);
    ones += static_cast<unsigned>(std::popcount(w));
    // transitions inside the word: bit j vs bit j+1 (63 pairs)
    changes += static_cast<unsigned>(std::popcount((w ^ (w >> 1)) & 0x7fffffffffffffffULL));
    if (have_last && last != (w >> 63)) ++changes;
    last = static_cast<unsigned>(w & 1);
    have_last = true;
  }
  const mpz_class n = to_mpz(n_words) * 64;
  const mpq_class pi(to_mpz(ones), n);
  TestResult r;
  r.name = "runs";
  r.statistic_name = "runs";
  r.statistic = Interval(to_mpz(changes + 1), kPrecision);
  r.asymptotic = true;
  // Frequency pre-test: |pi - 1/2| < 2 / sqrt(n) <=> (pi - 1/2)^2 n < 4.
  const mpq_class dev = pi - mpq_class(1, 2);
  if (dev * dev * n >= 4) {
    r.detail = "frequency pre-test failed (pi = " + pi.get_str() + ")";
    r.p_value = Interval(0L, kPrecision);
    return r;
  }
  const mpq_class v = mpq_class(to_mpz(changes + 1));
  const mpq_class piq = pi * (1 - pi);
  const Interval num(mpq_class(abs(v - 2 * n * piq)), kPrecision);
  const Interval den = sqrt(Interval(mpz_class(2 * n), kPrecision)) * piq * mpq_class(2);
  r.detail = "runs V over " + n.get_str() + " bits";
  r.p_value = exactdp::clamp(accounting::erfc(num / den), mpq_class(0), mpq_class(1));
  return r;
}

TestResult byte_chi_square_test(BitSource& bits, unsigned long long n_words) {
  if (n_words == 0) throw ParameterError::out_of_range("n_words", "0", "n_words >= 1 (byte_chi_square_test)");
  std::array<unsigned long long, 256> counts{};
  for (unsigned long long i = 0; i < n_words; ++i) {
    std::uint64_t w = bits.bits(64);
    for (int b = 0; b < 8; ++b) {
      ++counts[w & 0xff];
      w >>= 8;
    }
  }
  const mpz_class n = to_mpz(n_words) * 8;
  // X2 = sum (O - n/256)^2 / (n/256) = (256 / n) sum O^2 - n, exactly.
  mpz_class sum_sq = 0;
  for (auto c : counts) sum_sq += to_mpz(c) * to_mpz(c);
  const mpq_class x2 = mpq_class(256 * sum_sq, n) - mpq_class(n);
  TestResult r;
  r.name = "byte chi-square";
  r.statistic_name = "X2";
  r.statistic = Interval(x2, kPrecision);
  r.asymptotic = true;
  r.detail = "df = 255 over " + n.get_str() + " bytes";
  r.p_value = chi_square_sf(255, r.statistic);
  return r;
}

std::vector<TestResult> bit_battery(BitSource& bits, unsigned long long n_words, const mpq_class& alpha) {
  std::vector<TestResult> out;
  out.push_back(monobit_test(bits, n_words));
  out.push_back(runs_test(bits, n_words));
  out.push_back(byte_chi_square_test(bits, n_words));
  holm_bonferroni(out, alpha);
  return out;
}

}  // namespace exactdp::verification
