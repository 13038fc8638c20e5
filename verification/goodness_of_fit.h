// goodness_of_fit.h — the tests an audit runs on a SampleCounter against a ReferenceLaw, and
// their Holm–Bonferroni combination.
//
// Tests (each returns a TestResult whose p-value is a certified interval [lower, upper] for the
// p-value as defined; a test REJECTS only when the UPPER end is below its threshold):
//  * pearson_chi_square  X2 = sum (O - E)^2 / E over bins built from the cells (make_cells) by
//                        merging neighbours until every bin's expected count (its certified lower
//                        end) is >= max(5, n^0.6 / 2) (about 2 n^0.4 bins), tails pooled.
//                        p = Q(df/2, X2/2), df = bins - 1 (p_values.h). The statistic is an
//                        interval because E is: (O - E)^2 / E is convex in E, so its range over
//                        [E_lower, E_upper] is computed exactly. Asymptotic in n (the chi-square
//                        law of X2), exact in its evaluation.
//  * g_test              G = 2 sum O ln(O / E), same bins and df; decreasing in each E.
//  * ks_dkw              D = max over cell boundaries x of |F_n(x) - F(x)| (a subset of the
//                        points of the Kolmogorov-Smirnov statistic, so D <= D_KS), and the
//                        Dvoretzky-Kiefer-Wolfowitz bound with Massart's constant,
//                        P[D_KS > d] <= 2 exp(-2 n d^2), valid for every n and every law (for a
//                        discrete law it is conservative): p <= min(1, 2 exp(-2 n D^2)), NOT
//                        asymptotic.
//  * tail_binomial       the number of samples with |X - c| > T against Bin(n, P[|X - c| > T]),
//                        an exact two-sided binomial test (not asymptotic).
//  * parity_binomial     the number of samples with X - c even against Bin(n, P[X - c even]), exact
//                        two-sided binomial test: sees structure the bins of wide laws cannot
//                        (a sampler that never outputs odd offsets has the right binned counts).
//  * mean_z, variance_z  z = (mean of (X - c) - E[X - c]) / sqrt(Var / n) and the same for
//                        (X - c)^2 with Var[(X - c)^2] = E[(X - c)^4] - E[(X - c)^2]^2; normal
//                        approximation (CLT), two-sided.
//  * support             for laws with probability-0 integers (Bernoulli): any such value
//                        observed gives p = 0 (certain rejection).
//  * holm_bonferroni     sorts the applicable tests by p-value upper end; the i-th smallest
//                        (i = 0, 1, ...) is compared with alpha / (m - i) and rejection stops at
//                        the first test that is not rejected. The family-wise false-alarm
//                        probability is at most alpha (for the asymptotic tests: approximately).
// Reference: Holm (1979); Massart (1990) for the DKW constant; Clopper and Pearson (1934).
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include <exactdp/verification/reference_law.h>
#include <exactdp/verification/sample_counter.h>

namespace exactdp::verification {

// A range of integers [first, last] (nullopt: infinite) with its certified probability and the
// number of samples that fell in it.
struct Cell {
  std::optional<mpz_class> first, last;
  Interval mass{kPrecision};
  unsigned long long observed = 0;
};

struct TestResult {
  std::string name;            // "chi-square", "g-test", "ks-dkw", "mean-z", ...
  std::string statistic_name;  // "X2", "G", "D", "z", "count"
  Interval statistic{kPrecision};
  std::string detail;          // e.g. "df = 12 (13 bins, expected count >= 5)"
  Interval p_value{kPrecision};  // certified enclosure of the p-value
  bool asymptotic = false;     // the p-value uses a large-n approximation
  bool applicable = true;      // false: not run (reason in detail), not counted by Holm
  mpq_class threshold = 0;     // set by holm_bonferroni
  bool rejected = false;       // set by holm_bonferroni
};

// Cells of the counter's grid that carry mass (the window where n * tail > 1), plus the two
// pooled tail cells. Their masses sum to 1 (as intervals) and their counts to n.
[[nodiscard]] std::vector<Cell> make_cells(const ReferenceLaw& law, const SampleCounter& counter);
// Merges neighbouring cells until each has expected count (lower end) >= min_expected; the last
// group joins the one before it if it falls short.
[[nodiscard]] std::vector<Cell> merge_cells(const std::vector<Cell>& cells, unsigned long long n,
                                            const mpq_class& min_expected);
// max(5, floor(n^0.6 / 2)).
[[nodiscard]] mpq_class default_min_expected(unsigned long long n);

[[nodiscard]] TestResult pearson_chi_square(const std::vector<Cell>& bins, unsigned long long n);
[[nodiscard]] TestResult g_test(const std::vector<Cell>& bins, unsigned long long n);
[[nodiscard]] TestResult ks_dkw(const std::vector<Cell>& cells, unsigned long long n);
[[nodiscard]] TestResult tail_binomial(const ReferenceLaw& law, const mpz_class& threshold,
                                       unsigned long long count, unsigned long long n);
[[nodiscard]] TestResult parity_binomial(const ReferenceLaw& law, unsigned long long even, unsigned long long n);
[[nodiscard]] TestResult mean_z(const ReferenceLaw& law, const SampleCounter& counter);
[[nodiscard]] TestResult variance_z(const ReferenceLaw& law, const SampleCounter& counter);
[[nodiscard]] TestResult support_test(const std::vector<Cell>& cells);
// The exact binomial test of P[X = 1] for a Bernoulli law.
[[nodiscard]] TestResult bernoulli_binomial(const BernoulliExpLaw& law, unsigned long long ones,
                                            unsigned long long n);

void holm_bonferroni(std::vector<TestResult>& tests, const mpq_class& alpha);
// After holm_bonferroni: an applicable test whose p-value interval straddles its threshold (the
// upper end is not below it, the lower end is), so a narrower interval could change the verdict.
[[nodiscard]] bool undecided(const TestResult& t);

}  // namespace exactdp::verification
