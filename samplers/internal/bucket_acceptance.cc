#include <exactdp/samplers/internal/bucket_acceptance.h>

#include <algorithm>

#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/internal/cks20.h>

namespace exactdp::internal {
namespace {

constexpr unsigned kMachineBlockLimit = 48;  // stage 2 decides blocks up to this many bits of R

}  // namespace

// lower = S_odd, upper = S_even of exp(-gamma) (bucket_acceptance.h, Brackets), exact.
bool exp_minus_below_exact(BitSource& bits, const mpz_class& num, const mpz_class& den, mpz_class u,
                           unsigned long len) {
  mpq_class gamma(num, den);
  gamma.canonicalize();
  mpq_class term = -gamma;
  mpq_class sum = 1 + term;
  mpq_class lower = sum, upper = 1;
  unsigned long n = 1;
  mpq_class lo, hi;
  for (;;) {
    lo = u;
    mpq_div_2exp(lo.get_mpq_t(), lo.get_mpq_t(), len);
    hi = u + 1;
    mpq_div_2exp(hi.get_mpq_t(), hi.get_mpq_t(), len);
    if (hi <= lower) return true;   // R < hi <= S_odd < exp(-gamma)
    if (lo >= upper) return false;  // R >= lo >= S_even > exp(-gamma)
    if (lo <= lower && upper < hi) {  // exp(-gamma) in (lower, upper), inside I: one more block
      u <<= kBlockBits;
      u += static_cast<unsigned long>(bits.bits(kBlockBits));
      len += kBlockBits;
      continue;
    }
    ++n;  // one more Taylor term: the bracket shrinks
    term *= -gamma;
    term /= static_cast<unsigned long>(n);
    sum += term;
    if ((n & 1) != 0) {
      lower = sum;
    } else {
      upper = sum;
    }
  }
}

namespace {

// Outward-rounded Taylor bounds of exp(-gamma) in units of 2^-64 for gamma in [gl, gl + 1) 2^-64,
// gl < 2^63: lower <= S_odd((gl + 1) 2^-64) < exp(-gamma) < S_even(gl 2^-64) <= upper. Terms
// x^j/j! rounded down at x = gl (down_j) and up at x = gl + 1 (up_j); since the terms increase
// in x, down_j <= t_j(gamma) <= up_j, and the sums subtract the larger (lower) or the smaller
// (upper) of each negative term.
void machine_bracket(std::uint64_t gl, int128& lower, int128& upper) {
  const uint128 x_down = gl, x_up = static_cast<uint128>(gl) + 1;
  uint128 down = x_down, up = x_up;
  const int128 one = static_cast<int128>(1) << 64;
  int128 low = one - static_cast<int128>(up), high = one - static_cast<int128>(down);
  lower = low;   // S_1
  upper = one;   // S_0
  for (unsigned j = 2; j < 64; ++j) {
    down = ((down * x_down) >> 64) / j;                       // floor(floor(a)/j) = floor(a/j)
    up = (((up * x_up) + ((static_cast<uint128>(1) << 64) - 1)) >> 64);
    up = (up + j - 1) / j;                                     // ceil(ceil(a)/j) = ceil(a/j)
    if ((j & 1) != 0) {
      low -= static_cast<int128>(up);
      high -= static_cast<int128>(down);
      lower = low;
    } else {
      low += static_cast<int128>(down);
      high += static_cast<int128>(up);
      upper = high;
      if (up <= 1) return;  // the next term adds at most 2^-64 to the width
    }
  }
}

}  // namespace

bool exp_minus_below(BitSource& bits, std::uint64_t num, std::uint64_t den, std::uint64_t v) {
  const auto gl = static_cast<std::uint64_t>((static_cast<uint128>(num) << 64) / den);  // < 2^64: num < den
  if (gl >> 63 != 0) return exp_minus_below_exact(bits, mpz_class(static_cast<unsigned long>(num)),
                                                  mpz_class(static_cast<unsigned long>(den)),
                                                  mpz_class(static_cast<unsigned long>(v)), kBlockBits);
  int128 lower = 0, upper = 0;
  machine_bracket(gl, lower, upper);
  uint128 u = v;
  unsigned len = kBlockBits;
  for (;;) {
    const auto lo = static_cast<int128>(u << (64 - len));
    const auto hi = static_cast<int128>((u + 1) << (64 - len));
    if (hi <= lower) return true;
    if (lo >= upper) return false;
    if (lo <= lower && upper < hi) {
      u = (u << kBlockBits) | bits.bits(kBlockBits);
      len += kBlockBits;
      if (len <= kMachineBlockLimit) continue;
    }
    // The bracket is too wide for I (or I too narrow for 64 bits): the exact stage, same state.
    mpz_class big = static_cast<unsigned long>(u >> 64);
    big <<= 64;
    big += static_cast<unsigned long>(u);
    return exp_minus_below_exact(bits, mpz_class(static_cast<unsigned long>(num)),
                                 mpz_class(static_cast<unsigned long>(den)), big, len);
  }
}

bool bernoulli_exp_blocks(BitSource& bits, const mpz_class& num, const mpz_class& den, std::uint64_t v,
                          bool drop_square) {
  if (sgn(num) == 0) return true;
  thread_local mpz_class rest, g;  // reused limbs: no allocation per draw on the GMP rounds
  rest = num;
  while (rest >= den) {  // gamma >= 1: CKS20 trials for the integer part
    if (!bernoulli_exp_minus_one(bits)) return false;
    rest -= den;
  }
  if (sgn(rest) == 0) return true;
  // g = floor(2^B gamma) < 2^B: gamma in [g, g + 1) 2^-B.
  mpz_mul_2exp(g.get_mpz_t(), rest.get_mpz_t(), kBlockBits);
  mpz_fdiv_q(g.get_mpz_t(), g.get_mpz_t(), den.get_mpz_t());
  const std::uint64_t g_low = mpz_get_ui(g.get_mpz_t());
  switch (quick_decision(v, g_low, g_low + 1, drop_square)) {
    case BlockDecision::kAccept:
      return true;
    case BlockDecision::kReject:
      return false;
    case BlockDecision::kUndecided:
      break;
  }
  if (mpz_sizeinbase(den.get_mpz_t(), 2) <= 64) {
    return exp_minus_below(bits, mpz_get_ui(rest.get_mpz_t()), mpz_get_ui(den.get_mpz_t()), v);
  }
  return exp_minus_below_exact(bits, rest, den, mpz_class(static_cast<unsigned long>(v)), kBlockBits);
}

}  // namespace exactdp::internal
