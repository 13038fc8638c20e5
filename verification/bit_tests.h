// bit_tests.h — quick checks of a BitSource's output (the CSPRNG and the keyed ChaCha20 stream):
//   monobit     S = #ones - #zeros over n bits; p = erfc(|S| / sqrt(2n)) (NIST SP 800-22 2.1)
//   runs        the number of runs V against its law given the ones fraction pi;
//               p = erfc(|V - 2 n pi (1 - pi)| / (2 sqrt(2n) pi (1 - pi))), and p = 0 when the
//               frequency pre-test |pi - 1/2| >= 2 / sqrt(n) fails (NIST SP 800-22 2.3)
//   byte chi-square  256 byte values, X2 = sum (O - n/256)^2 / (n/256), df = 255, p = Q(255/2, X2/2)
// The statistics are exact rationals; p-values are certified evaluations of the (normal /
// chi-square) approximations these standard tests use. bit_battery runs all three and combines
// them with Holm-Bonferroni at alpha. These detect gross failures (stuck, biased or correlated
// bits, broken buffering), not cryptographic weakness: for more, stream `exactdp bits` into an
// external battery (scripts/dieharder).
#pragma once

#include <gmpxx.h>

#include <vector>

#include <exactdp/samplers/bit_source.h>
#include <exactdp/verification/goodness_of_fit.h>

namespace exactdp::verification {

[[nodiscard]] TestResult monobit_test(BitSource& bits, unsigned long long n_words);
[[nodiscard]] TestResult runs_test(BitSource& bits, unsigned long long n_words);
[[nodiscard]] TestResult byte_chi_square_test(BitSource& bits, unsigned long long n_words);
// n_words 64-bit words for each test (three separate stretches of the stream).
[[nodiscard]] std::vector<TestResult> bit_battery(BitSource& bits, unsigned long long n_words, const mpq_class& alpha);

}  // namespace exactdp::verification
