#include <exactdp/accounting/pld/pld_composition.h>

#include <gmp.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include <exactdp/core/errors.h>
#include <exactdp/samplers/int128.h>

namespace exactdp::accounting::pld {
namespace {

static_assert(GMP_LIMB_BITS == 64, "the Kronecker packing assumes 64-bit limbs");

void check_compatible(const DiscretePld& a, const DiscretePld& b) {
  if (a.side != b.side || a.steps_per_unit != b.steps_per_unit || a.scale_bits != b.scale_bits ||
      a.tilted != b.tilted || (a.tilted && a.side != Side::kUpper)) {
    throw std::logic_error("pld::compose: operands on different sides, grids or scales");
  }
  if (a.scale_bits < 8 || a.scale_bits > 62) throw std::logic_error("pld::compose: scale_bits outside [8, 62]");
}

void check_size(std::size_t n, std::size_t max_points) {
  max_points = std::min(max_points, kMaxPoints);
  if (n > max_points) {
    throw LimitError("count", "count: the composed privacy loss distribution would hold " + std::to_string(n) +
                                  " grid points, above the limit of " + std::to_string(max_points) +
                                  " (use a coarser --pld-step)");
  }
}

unsigned bit_length(std::uint64_t v) { return v == 0 ? 0 : 64 - static_cast<unsigned>(__builtin_clzll(v)); }

// The slot width in bits: every product coefficient sum_k a_k b_(j-k) is below
// min(na, nb) max(a) max(b) < 2^(bits(max a) + bits(max b) + bits(min(na, nb))), so no carry
// crosses a slot of that many bits (at most 62 + 62 + 24 = 148 < 192).
unsigned slot_bits(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  const std::uint64_t ma = *std::max_element(a.begin(), a.end());
  const std::uint64_t mb = *std::max_element(b.begin(), b.end());
  return bit_length(ma) + bit_length(mb) + bit_length(std::min(a.size(), b.size()));
}

// The masses packed at bit offsets j * bits (Kronecker substitution: the integer sum m_j 2^(j bits)).
void pack(const std::vector<std::uint64_t>& m, unsigned bits, mpz_t out) {
  const std::size_t limbs = (m.size() * bits + 63) / 64 + 1;
  mp_limb_t* p = mpz_limbs_write(out, static_cast<mp_size_t>(limbs));
  std::fill(p, p + limbs, mp_limb_t{0});
  std::size_t offset = 0;
  for (const std::uint64_t v : m) {
    const std::size_t at = offset / 64;
    const unsigned shift = offset % 64;
    p[at] |= v << shift;
    if (shift != 0) p[at + 1] |= v >> (64 - shift);
    offset += bits;
  }
  mpz_limbs_finish(out, static_cast<mp_size_t>(limbs));
}

// The `bits`-wide field at bit `offset` of the limbs r[0 .. size), as three limbs (bits <= 192).
void unpack_slot(const mp_limb_t* r, std::size_t size, std::size_t offset, unsigned bits, mp_limb_t out[3]) {
  const std::size_t at = offset / 64;
  const unsigned shift = offset % 64;
  mp_limb_t w[4];
  for (std::size_t k = 0; k < 4; ++k) w[k] = at + k < size ? r[at + k] : 0;
  for (std::size_t k = 0; k < 3; ++k) out[k] = shift == 0 ? w[k] : (w[k] >> shift) | (w[k + 1] << (64 - shift));
  // keep the low `bits` bits
  for (std::size_t k = 0; k < 3; ++k) {
    const unsigned lo = static_cast<unsigned>(64 * k);
    if (bits <= lo) {
      out[k] = 0;
    } else if (bits < lo + 64) {
      out[k] &= (mp_limb_t{1} << (bits - lo)) - 1;
    }
  }
}

// A mass above 2^64 units (16 at scale 2^-60). Only the tilted chains of the lower end get there
// (discrete_pld.h): each cell's Q-mass is multiplied by e^(its lower loss + half a cell), which
// overshoots the true P-mass by up to e^(half a cell) per event when the loss spread of an event
// is smaller than a cell; a grid as coarse as step 1 over 1000 events multiplies by e^500.
[[noreturn]] void refuse_overflow() {
  throw LimitError("pld-step", "pld-step: the grid is too coarse for this composition (an event's loss spread is far "
                               "below one step, so the lower end's tilted masses, each cell's Q-mass times e^(its "
                               "loss), would pass 2^64 units); use a finer --pld-step or the rdp route");
}

// v (a 192-bit product coefficient at scale 2^(2s)) re-rounded to scale 2^s.
std::uint64_t rescale(const mp_limb_t* limbs, unsigned s, bool up) {
  const uint128 high = (static_cast<uint128>(limbs[2]) << 64) | limbs[1];
  const std::uint64_t low = limbs[0];
  if (high >> (64 + s) != 0) refuse_overflow();
  uint128 v = (high << (64 - s)) | (low >> s);
  if (up && (low & ((std::uint64_t{1} << s) - 1)) != 0) ++v;
  if (v > UINT64_MAX) refuse_overflow();
  return static_cast<std::uint64_t>(v);
}

std::uint64_t compose_infinity(const DiscretePld& a, const DiscretePld& b) {
  const std::uint64_t x = a.infinity_mass, y = b.infinity_mass;
  if (a.side == Side::kUpper) {
    const uint128 sum = static_cast<uint128>(x) + y;
    return sum > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(sum);  // still >= the truth
  }
  const uint128 prod = static_cast<uint128>(x) * y;
  const uint128 mask = (uint128{1} << a.scale_bits) - 1;
  const uint128 ceil_prod = (prod >> a.scale_bits) + ((prod & mask) != 0 ? 1 : 0);
  const uint128 sum = static_cast<uint128>(x) + y;
  return sum >= ceil_prod ? static_cast<std::uint64_t>(sum - ceil_prod) : 0;
}

// Tilted chains: the total tilted mass (units 2^-s) of a's kept masses.
mpz_class total_of(const DiscretePld& a) {
  uint128 t = 0;
  for (const std::uint64_t m : a.masses) t += m;  // < 2^24 2^64: no overflow
  mpz_class out = static_cast<unsigned long>(t >> 64);
  out <<= 64;
  out += static_cast<unsigned long>(t);
  return out;
}

// Tilted chains: the unplaced mass of a * b (units 2^-s, rounded up, saturating): the true
// tilted law of each operand is its kept masses plus a non-negative measure of total at most
// its anywhere_mass D, so the product's extra measure has total at most
// D_a T_b + T_a D_b + D_a D_b (T = kept total; a convolution's total is the product of totals).
std::uint64_t product_anywhere(const DiscretePld& a, const DiscretePld& b) {
  if (a.anywhere_mass == 0 && b.anywhere_mass == 0) return 0;
  const mpz_class da = static_cast<unsigned long>(a.anywhere_mass), db = static_cast<unsigned long>(b.anywhere_mass);
  const mpz_class units = da * total_of(b) + total_of(a) * db + da * db;  // scale 2^-2s
  mpz_class out;
  mpz_cdiv_q_2exp(out.get_mpz_t(), units.get_mpz_t(), a.scale_bits);
  return mpz_cmp_ui(out.get_mpz_t(), UINT64_MAX) >= 0 ? UINT64_MAX : mpz_get_ui(out.get_mpz_t());
}

DiscretePld product_frame(const DiscretePld& a, const DiscretePld& b) {
  DiscretePld out;
  out.side = a.side;
  out.steps_per_unit = a.steps_per_unit;
  out.scale_bits = a.scale_bits;
  out.first_index = a.first_index + b.first_index;
  out.infinity_mass = compose_infinity(a, b);
  out.tilted = a.tilted;
  if (a.tilted) {
    out.anywhere_mass = product_anywhere(a, b);
    out.tilt_half_steps = a.tilt_half_steps + b.tilt_half_steps;
  }
  return out;
}

}  // namespace

void trim_zero_ends(DiscretePld& p) {
  std::vector<std::uint64_t>& m = p.masses;
  while (!m.empty() && m.back() == 0) m.pop_back();
  std::size_t lead = 0;
  while (lead < m.size() && m[lead] == 0) ++lead;
  m.erase(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(lead));
  p.first_index += static_cast<long>(lead);
}

DiscretePld identity_like(const DiscretePld& like) {
  DiscretePld out;
  out.side = like.side;
  out.steps_per_unit = like.steps_per_unit;
  out.scale_bits = like.scale_bits;
  out.first_index = 0;
  out.tilted = like.tilted;  // loss 0: e^0 = 1, the same mass
  out.masses = {std::uint64_t{1} << like.scale_bits};
  return out;
}

DiscretePld compose(const DiscretePld& a, const DiscretePld& b, unsigned tail_bits, std::size_t max_points) {
  check_compatible(a, b);
  DiscretePld out = product_frame(a, b);
  if (a.masses.empty() || b.masses.empty()) return out;
  const std::size_t n = a.masses.size() + b.masses.size() - 1;
  check_size(n, max_points);
  const unsigned bits = slot_bits(a.masses, b.masses);
  if (bits > 192) throw std::logic_error("pld::compose: slot wider than 192 bits");
  mpz_class x_owner, y_owner;  // freed also when rescale() refuses
  mpz_ptr x = x_owner.get_mpz_t(), y = y_owner.get_mpz_t();
  pack(a.masses, bits, x);
  if (&a == &b) {
    mpz_mul(x, x, x);
  } else {
    pack(b.masses, bits, y);
    mpz_mul(x, x, y);
  }
  const mp_limb_t* r = mpz_limbs_read(x);
  const auto size = static_cast<std::size_t>(mpz_size(x));
  // Coefficient j, as three limbs.
  mp_limb_t slot[3];
  const auto coefficient = [&](std::size_t j) -> const mp_limb_t* {
    unpack_slot(r, size, j * bits, bits, slot);
    return slot;
  };
  // Truncation on the EXACT coefficients (units 2^-2s), before re-rounding: rounding first
  // would turn every far-tail coefficient, however tiny, into a whole unit of "dust" and keep
  // millions of them. A coefficient below 2^127 is read whole; a larger one stops the scan.
  const unsigned s2 = 2 * a.scale_bits;
  const uint128 budget = tail_bits < s2 ? uint128{1} << (s2 - tail_bits) : 0;
  const auto small = [&](std::size_t j, uint128& v) {
    const mp_limb_t* c = coefficient(j);
    if (c[2] != 0 || (c[1] >> 63) != 0) return false;
    v = (static_cast<uint128>(c[1]) << 64) | c[0];
    return true;
  };
  std::size_t top = n, bottom = 0;
  uint128 moved_top = 0, moved_bottom = 0, v = 0;
  while (top > 0 && small(top - 1, v) && moved_top + v <= budget) {
    moved_top += v;
    --top;
  }
  while (bottom < top && small(bottom, v) && moved_bottom + v <= budget) {
    moved_bottom += v;
    ++bottom;
  }
  const bool up = a.side == Side::kUpper;
  out.masses.resize(top - bottom);
  for (std::size_t j = bottom; j < top; ++j) out.masses[j - bottom] = rescale(coefficient(j), a.scale_bits, up);
  out.first_index += static_cast<long>(bottom);
  if (up) {  // moved mass, rounded up to the scale: the top to +infinity, the bottom up a grid point
    const uint128 unit_mask = (uint128{1} << a.scale_bits) - 1;
    const auto ceil_units = [&](uint128 m) {
      return static_cast<std::uint64_t>((m >> a.scale_bits) + ((m & unit_mask) != 0 ? 1 : 0));
    };
    uint128 to_infinity = ceil_units(moved_top);
    uint128 onto_first = ceil_units(moved_bottom);
    if (a.tilted) {  // tilted: both truncated tails become unplaced mass (discrete_pld.h)
      const uint128 anywhere = static_cast<uint128>(out.anywhere_mass) + to_infinity + onto_first;
      out.anywhere_mass = anywhere > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(anywhere);
      to_infinity = onto_first = 0;
    }
    if (out.masses.empty()) {  // nothing kept: the bottom goes to +infinity too
      to_infinity += onto_first;
      onto_first = 0;
    }
    const uint128 inf = static_cast<uint128>(out.infinity_mass) + to_infinity;
    out.infinity_mass = inf > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(inf);
    if (!out.masses.empty()) {
      const uint128 first = static_cast<uint128>(out.masses[0]) + onto_first;
      out.masses[0] = first > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(first);
    }
  }
  trim_zero_ends(out);
  return out;
}

DiscretePld compose_naive(const DiscretePld& a, const DiscretePld& b) {
  check_compatible(a, b);
  DiscretePld out = product_frame(a, b);
  if (a.masses.empty() || b.masses.empty()) return out;
  const std::size_t n = a.masses.size() + b.masses.size() - 1;
  std::vector<mpz_class> acc(n);
  for (std::size_t i = 0; i < a.masses.size(); ++i) {
    for (std::size_t j = 0; j < b.masses.size(); ++j) {
      acc[i + j] += mpz_class(static_cast<unsigned long>(a.masses[i])) * static_cast<unsigned long>(b.masses[j]);
    }
  }
  out.masses.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    mpz_class q;
    if (a.side == Side::kUpper) {
      mpz_cdiv_q_2exp(q.get_mpz_t(), acc[j].get_mpz_t(), a.scale_bits);
    } else {
      mpz_fdiv_q_2exp(q.get_mpz_t(), acc[j].get_mpz_t(), a.scale_bits);
    }
    out.masses[j] = mpz_get_ui(q.get_mpz_t());
  }
  return out;
}

DiscretePld self_compose(const DiscretePld& a, unsigned long k, unsigned tail_bits, std::size_t max_points) {
  if (k == 0) return identity_like(a);
  DiscretePld result;
  bool have = false;
  DiscretePld power = a;
  for (;;) {
    if ((k & 1) != 0) {
      result = have ? compose(result, power, tail_bits, max_points) : power;
      have = true;
    }
    k >>= 1;
    if (k == 0) break;
    power = compose(power, power, tail_bits, max_points);
  }
  return result;
}

namespace {

// 2^-s as an exact interval.
Interval scale_of(const DiscretePld& p, mpfr_prec_t precision) {
  Interval out(1, precision);
  mpfr_div_2ui(out.lower(), out.lower(), p.scale_bits, MPFR_RNDD);  // exact
  mpfr_div_2ui(out.upper(), out.upper(), p.scale_bits, MPFR_RNDU);
  return out;
}

mpq_class loss_of(const DiscretePld& p, long index) {
  return mpq_class(index, static_cast<unsigned long>(p.steps_per_unit));
}

// delta(l_j) = (s0 - e^(l_j) s1) 2^-s at the grid losses l_j from `top` downwards, with
// s0 = m_inf + sum_{i > j} m_i (exact) and s1 = sum_{i > j} m_i e^(-l_i) (outward); the i = j
// term has weight 0. delta() at the current j, pass() adds m_j and moves to j - 1.
class DownwardDeltaSweep {
 public:
  DownwardDeltaSweep(const DiscretePld& p, long top, mpfr_prec_t precision)
      : p_(p), j_(top), precision_(precision), s0_(static_cast<unsigned long>(p.infinity_mass)),
        s1_(0L, precision), scale_(scale_of(p, precision)),
        step_up_(exp(Interval(mpq_class(1, static_cast<unsigned long>(p.steps_per_unit)), precision))),
        step_down_(exp(Interval(mpq_class(-1, static_cast<unsigned long>(p.steps_per_unit)), precision))),
        e_l_(exp(Interval(loss_of(p, top), precision))), e_minus_l_(exp(-Interval(loss_of(p, top), precision))) {}

  [[nodiscard]] long index() const { return j_; }
  [[nodiscard]] Interval delta() const {
    return clamp((Interval(s0_, precision_) - e_l_ * s1_) * scale_, mpq_class(0), mpq_class(2));
  }
  void pass() {
    const long last = p_.first_index + static_cast<long>(p_.masses.size()) - 1;
    if (j_ >= p_.first_index && j_ <= last) {
      const auto m = static_cast<unsigned long>(p_.masses[static_cast<std::size_t>(j_ - p_.first_index)]);
      if (m != 0) {
        s0_ += m;
        s1_ = s1_ + e_minus_l_ * Interval(mpz_class(m), precision_);
      }
    }
    e_l_ = e_l_ * step_down_;
    e_minus_l_ = e_minus_l_ * step_up_;
    --j_;
  }

 private:
  const DiscretePld& p_;
  long j_;
  mpfr_prec_t precision_;
  mpz_class s0_;
  Interval s1_, scale_, step_up_, step_down_, e_l_, e_minus_l_;
};

}  // namespace

Interval delta_at(const DiscretePld& pld, const mpq_class& epsilon, mpfr_prec_t precision) {
  mpz_class s0 = static_cast<unsigned long>(pld.infinity_mass);  // the +infinity term: weight 1
  Interval s1(0L, precision);  // sum m e^-l over finite l > eps
  const Interval step_down = exp(Interval(mpq_class(-1, static_cast<unsigned long>(pld.steps_per_unit)), precision));
  Interval e_minus_l = exp(-Interval(loss_of(pld, pld.first_index), precision));
  for (std::size_t j = 0; j < pld.masses.size(); ++j) {
    if (loss_of(pld, pld.first_index + static_cast<long>(j)) > epsilon && pld.masses[j] != 0) {
      const auto m = static_cast<unsigned long>(pld.masses[j]);
      s0 += m;
      s1 = s1 + e_minus_l * Interval(mpz_class(m), precision);
    }
    e_minus_l = e_minus_l * step_down;
  }
  Interval d = (Interval(s0, precision) - exp(Interval(epsilon, precision)) * s1) * scale_of(pld, precision);
  return clamp(d, mpq_class(0), mpq_class(2));
}

std::optional<mpq_class> epsilon_at(const DiscretePld& pld, const mpq_class& delta, mpfr_prec_t precision) {
  const bool upper = pld.side == Side::kUpper;
  const long last = pld.first_index + static_cast<long>(pld.masses.size()) - 1;
  const long lowest = std::max(pld.first_index, 0L);
  const auto check = [&](const Interval& d) {
    return upper ? upper_at_most(d, delta) : lower_above(d, delta);
  };
  std::optional<mpq_class> best;
  if (last >= lowest) {
    for (DownwardDeltaSweep sweep(pld, last, precision); sweep.index() >= lowest; sweep.pass()) {
      if (check(sweep.delta())) {
        if (!upper) return loss_of(pld, sweep.index());  // the largest grid loss with delta_lower > delta
        best = loss_of(pld, sweep.index());
      } else if (upper) {
        break;
      }
    }
    if (upper && best && *best == loss_of(pld, lowest) && lowest > 0 && check(delta_at(pld, 0, precision))) {
      best = mpq_class(0);
    }
  } else if (check(delta_at(pld, 0, precision))) {
    best = mpq_class(0);
  }
  if (!upper) return mpq_class(0);
  return best;
}

std::vector<Real> delta_upper_curve(const DiscretePld& pld, long last) {
  if (pld.side != Side::kUpper || pld.tilted) {
    throw std::logic_error("pld::delta_upper_curve: needs an untilted upper chain");
  }
  if (last < 0) return {};
  std::vector<Real> curve(static_cast<std::size_t>(last + 1));
  const long top = std::max(last, pld.first_index + static_cast<long>(pld.masses.size()) - 1);
  for (DownwardDeltaSweep sweep(pld, top, kDefaultPrecision); sweep.index() >= 0; sweep.pass()) {
    if (sweep.index() <= last) {
      const Interval d = sweep.delta();
      mpfr_set(curve[static_cast<std::size_t>(sweep.index())].get(), d.upper(), MPFR_RNDU);
    }
  }
  return curve;
}

}  // namespace exactdp::accounting::pld
