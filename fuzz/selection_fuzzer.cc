// selection_fuzzer — private selection (mechanisms/selection/) with scores, epsilon and
// sensitivity of hostile sizes: the cost limits of selection_cost.h must refuse, before anything
// is made, what would grow past them, and everything else must select.
//
// Input: byte 0 picks the mechanism (b % 4: exponential, permute-and-flip, report-noisy-max with
// discrete Laplace or exponential noise) and monotonic (bit 2, where allowed); byte 1 epsilon =
// 10^-(100 (b1 % 128)) (up to 1e-12700, 42,000 bits), or 1/3 when bit 7 is set; byte 2 the
// sensitivity 10^-(100 (b2 % 64)) (bit 6: 1); byte 3 repeats the scores r = 1 + 40 b3 times
// (up to ~10^4 copies, so that tiny epsilons meet many candidates); then '\n'-separated scores
// (core/rational.h forms; an unreadable line ends the input; the copies stop at the scores'
// 2^28-bit budget). The bits are seeded.
// Invariants:
//   * Selection::make returns or throws ParameterError (LimitError included) and nothing else;
//   * a LimitError names epsilon, sensitivity or scores (the options a caller can change);
//   * on success one selection returns an index below the number of candidates.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/selection/score_budget.h>
#include <exactdp/mechanisms/selection/selection.h>
#include <exactdp/samplers/seeded_bits.h>

namespace {

using exactdp::mechanisms::NoiseKind;
using exactdp::mechanisms::SelectionMechanism;

exactdp::mechanisms::SelectionOptions options_of(const std::uint8_t* d) {
  exactdp::mechanisms::SelectionOptions o;
  o.mechanism = d[0] % 4 == 0 ? SelectionMechanism::kExponential
                : d[0] % 4 == 1 ? SelectionMechanism::kPermuteAndFlip
                                : SelectionMechanism::kReportNoisyMax;
  o.noise = d[0] % 4 == 3 ? NoiseKind::kExponential : NoiseKind::kDiscreteLaplace;
  o.monotonic = (d[0] & 4) != 0 && (d[0] % 4 == 0 || d[0] % 4 == 2);
  o.epsilon = (d[1] & 128) != 0 ? mpq_class(1, 3) : exactdp::fuzz::tenth_power(100U * (d[1] % 128));
  o.sensitivity = (d[2] & 64) != 0 ? mpq_class(1) : exactdp::fuzz::tenth_power(100U * (d[2] % 64));
  return o;
}

std::vector<mpq_class> scores_of(const std::string& text, unsigned repeats) {
  std::vector<mpq_class> one;
  std::size_t start = 0;
  while (start < text.size() && one.size() < 4096) {
    const std::size_t stop = std::min(text.find('\n', start), text.size());
    try {
      one.push_back(exactdp::parse_rational("scores", text.substr(start, stop - start)));
    } catch (const exactdp::ParameterError&) {
      break;
    }
    start = stop + 1;
  }
  // The copies stay within the scores' own budget (score_budget.h), as a reader's would.
  unsigned long long bits = 1;
  for (const auto& u : one) bits += exactdp::mechanisms::score_bits(u);
  std::vector<mpq_class> all;
  for (unsigned r = 0; r < repeats && all.size() + one.size() <= exactdp::mechanisms::kMaxCandidates &&
                       (r + 1) * bits <= exactdp::mechanisms::kMaxScoreBits;
       ++r) {
    all.insert(all.end(), one.begin(), one.end());
  }
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const auto options = options_of(data);
  auto scores = scores_of(std::string(reinterpret_cast<const char*>(data) + 4, size - 4), 1U + 40U * data[3]);
  const std::size_t n = scores.size();
  try {
    auto s = exactdp::mechanisms::Selection::make(std::move(scores), options);
    exactdp::Seed seed{};
    seed[0] = data[0];
    exactdp::SeededBits bits(seed);
    FUZZ_CHECK(s.select(bits) < n, "an index past %zu candidates\n", n);
  } catch (const exactdp::LimitError& e) {
    const std::string& p = e.parameter();
    FUZZ_CHECK(p == "epsilon" || p == "sensitivity" || p == "scores", "LimitError naming \"%s\": %s\n", p.c_str(),
               e.what());
  } catch (const exactdp::ParameterError&) {
  }
  return 0;
}
