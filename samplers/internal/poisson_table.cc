#include <exactdp/samplers/internal/poisson_table.h>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <utility>

#include <exactdp/core/rational.h>

namespace exactdp::internal {
namespace {

constexpr mpfr_prec_t kWalkPrecision = 64;     // the recurrence: its error stays far below a unit of c p(k)
constexpr mpfr_prec_t kEscapePrecision = 128;  // the escapes' first enclosure
constexpr unsigned kEndMargin = 6;  // the range ends where 2^(B + 6) p(k) r / (1 - r) <= 1
constexpr std::uint64_t kGeometricCap = std::uint64_t{1} << 62;

// The recurrence p(k + 1) = p(k) mu / (k + 1), p(k - 1) = p(k) k / mu from the mode outward, as
// outward bounds lo <= p(k) <= hi, with the weights and the end tests of the current k.
class Walk {
 public:
  Walk(const mpq_class& mu, std::uint64_t c, const Interval& mode) : c_(c) {
    mpfr_set_q(mu_lo_, mu.get_mpq_t(), MPFR_RNDD);  // mu's bounds: the walk's cost does not grow with mu's digits
    mpfr_set_q(mu_hi_, mu.get_mpq_t(), MPFR_RNDU);
    mpfr_set(lo_, mode.lower(), MPFR_RNDD);
    mpfr_set(hi_, mode.upper(), MPFR_RNDU);
  }

  // From k - 1 to k (up: times mu / k) or from k + 1 to k (down: times (k + 1) / mu), every
  // operation rounded outward and mu's bound chosen on the same side.
  void step(unsigned long k, bool up) {
    if (up) {
      mpfr_mul(lo_, lo_, mu_lo_, MPFR_RNDD);
      mpfr_div_ui(lo_, lo_, k, MPFR_RNDD);
      mpfr_mul(hi_, hi_, mu_hi_, MPFR_RNDU);
      mpfr_div_ui(hi_, hi_, k, MPFR_RNDU);
    } else {
      mpfr_mul_ui(lo_, lo_, k + 1, MPFR_RNDD);
      mpfr_div(lo_, lo_, mu_hi_, MPFR_RNDD);
      mpfr_mul_ui(hi_, hi_, k + 1, MPFR_RNDU);
      mpfr_div(hi_, hi_, mu_lo_, MPFR_RNDU);
    }
  }

  // w(k) = floor(c lo), checking c hi <= w(k) + 2 (so (c p(k) - w(k)) / 2 < 1).
  [[nodiscard]] std::uint32_t weight() {
    mpfr_mul_ui(t_, lo_, c_, MPFR_RNDD);
    const std::uint64_t w = mpfr_get_ui(t_, MPFR_RNDD);
    mpfr_mul_ui(t_, hi_, c_, MPFR_RNDU);
    if (mpfr_cmp_ui(t_, w + 2) > 0 || w >= (std::uint64_t{1} << 32)) {
      throw std::logic_error("poisson table: enclosure too wide");
    }
    return static_cast<std::uint32_t>(w);
  }

  // An upper bound of p(k) s / (1 - s) below k (up = false; s = k / mu) or of p(k) r / (1 - r)
  // beyond it (up; r = mu / (k + 1)): the geometric envelope's mass, scaled by `scale` (rounded up).
  [[nodiscard]] mpfr_srcptr tail_mass(unsigned long k, bool up, std::uint64_t scale) {
    if (up) {
      mpfr_ui_sub(d_, k + 1, mu_hi_, MPFR_RNDD);  // below k + 1 - mu
      mpfr_mul(t_, hi_, mu_hi_, MPFR_RNDU);
    } else {
      mpfr_sub_ui(d_, mu_lo_, k, MPFR_RNDD);  // below mu - k
      mpfr_mul_ui(t_, hi_, k, MPFR_RNDU);
    }
    if (mpfr_sgn(d_.get()) <= 0) throw std::logic_error("poisson table: tail ratio not below 1");
    mpfr_div(t_, t_, d_, MPFR_RNDU);
    mpfr_mul_ui(t_, t_, scale, MPFR_RNDU);
    return t_;
  }

  // The range ends at k: the tail's mass times 2^(B + kEndMargin) is at most 1.
  [[nodiscard]] bool ends(unsigned long k, bool up, unsigned total_bits) {
    mpfr_mul_2ui(t_, tail_mass(k, up, 1), total_bits + kEndMargin, MPFR_RNDU);
    return mpfr_cmp_ui(t_, 1) <= 0;
  }

  // T = ceil(c times the tail's mass): the tail's units.
  [[nodiscard]] std::uint64_t tail_units(unsigned long k, bool up) {
    mpfr_ceil(t_, tail_mass(k, up, c_));
    if (mpfr_cmp_ui(t_, 1UL << 40) > 0) throw std::logic_error("poisson table: tail too heavy");
    return mpfr_get_ui(t_, MPFR_RNDU);
  }

 private:
  std::uint64_t c_;
  Real mu_lo_{kWalkPrecision}, mu_hi_{kWalkPrecision};
  Real lo_{kWalkPrecision}, hi_{kWalkPrecision}, t_{kWalkPrecision}, d_{kWalkPrecision};
};

// The weights w(k), k = L .. R, and the tails' units T- (0 when L = 0) and T+: the walk down from the
// mode to L and up to R (options.half_width fixes them; otherwise where the tails' mass is negligible).
struct Range {
  long low = 0;
  std::vector<std::uint32_t> weights;
  std::uint64_t tails[2] = {0, 0};
};

Range walk_range(const mpq_class& mu, long m, std::uint64_t c, std::size_t max_values, const PoissonTableOptions& options) {
  const Interval mode = exp(log_poisson_mass(mu, mpz_class(m), kEscapePrecision));
  const long h = options.half_width;
  Range range;
  std::vector<std::uint32_t> down;  // k = m - 1, m - 2, ...
  Walk walk(mu, c, mode);
  long k = m - 1;
  for (; k >= 0; --k) {  // stop at L: k = 0, or the lower tail negligible
    walk.step(static_cast<unsigned long>(k), false);
    down.push_back(walk.weight());
    if (k == 0 || (h >= 1 ? m - k >= h : walk.ends(static_cast<unsigned long>(k), false, options.total_bits))) break;
  }
  range.low = k < 0 ? 0 : k;
  if (range.low > 0) range.tails[0] = walk.tail_units(static_cast<unsigned long>(range.low), false);
  range.weights.assign(down.rbegin(), down.rend());
  Walk up(mu, c, mode);
  range.weights.push_back(up.weight());
  for (k = m + 1;; ++k) {  // stop at R: the upper tail negligible
    if (range.weights.size() >= max_values) throw std::logic_error("poisson table: range too wide");
    up.step(static_cast<unsigned long>(k), true);
    range.weights.push_back(up.weight());
    if (h >= 1 ? k - m >= h : up.ends(static_cast<unsigned long>(k), true, options.total_bits)) break;
  }
  range.tails[1] = up.tail_units(static_cast<unsigned long>(k), true);
  return range;
}

}  // namespace

Interval log_gamma_of(const mpz_class& n, mpfr_prec_t p) {
  const auto exact_bits = static_cast<mpfr_prec_t>(mpz_sizeinbase(n.get_mpz_t(), 2));
  Real x(exact_bits > p ? exact_bits : p);
  mpfr_set_z(x, n.get_mpz_t(), MPFR_RNDN);  // exact: the precision holds every bit of n
  Real lo(p), hi(p);
  mpfr_lngamma(lo, x, MPFR_RNDD);
  mpfr_lngamma(hi, x, MPFR_RNDU);
  return Interval::from_ends(lo, hi, p);
}

Interval log_poisson_mass(const mpq_class& mu, const mpz_class& k, mpfr_prec_t p) {
  return log(Interval(mu, p)) * mpq_class(k) - Interval(mu, p) - log_gamma_of(k + 1, p);
}

bool uniform_below(BitSource& bits, std::uint64_t first_word, mpfr_prec_t start,
                   const std::function<Interval(mpfr_prec_t)>& enclose) {
  mpfr_prec_t p = start;
  Interval a = enclose(p);
  if (mpfr_cmp_ui(a.lower(), 1) > 0) throw std::logic_error("poisson: acceptance above 1 (envelope violated)");
  mpz_class u = 0;
  unsigned long j = 0;
  Real scaled(64);
  for (bool first = true;; first = false) {
    if (!first) {
      p *= 2;
      if (p > kMaxPrecision) throw std::logic_error("poisson: acceptance undecided at the precision cap");
      a = enclose(p);
    }
    u <<= 64;
    u += mpz_class(static_cast<unsigned long>(first ? first_word : bits.bits(64)));
    j += 64;
    // U lies in [u, u + 1) / 2^j: accept when (u + 1) / 2^j <= a.lower, reject when u / 2^j >= a.upper
    mpfr_set_prec(scaled, mpfr_get_prec(a.lower()));
    mpfr_mul_2ui(scaled, a.lower(), j, MPFR_RNDD);
    const mpz_class next = u + 1;
    if (mpfr_cmp_z(scaled, next.get_mpz_t()) >= 0) return true;
    mpfr_mul_2ui(scaled, a.upper(), j, MPFR_RNDU);
    if (mpfr_cmp_z(scaled, u.get_mpz_t()) <= 0) return false;
  }
}

std::shared_ptr<const PoissonTable> PoissonTable::build(const mpq_class& mu, const PoissonTableOptions& options) {
  if (sgn(mu) <= 0 || mu > kMaxMu || options.total_bits < 8 || options.total_bits > 32) {
    throw std::invalid_argument("PoissonTable: mu outside (0, 10^7] or B outside 8..32");
  }
  std::shared_ptr<PoissonTable> t(new PoissonTable());
  t->mu_ = mu;
  t->total_bits_ = options.total_bits;
  t->pool_bits_ = std::min(16U, options.total_bits - 4);  // n <= 2^q
  const std::uint64_t all = std::uint64_t{1} << options.total_bits;
  const std::uint64_t pool = std::uint64_t{2} << t->pool_bits_;
  t->scale_ = all - pool - 16;
  if (options.half_width >= 1) t->scale_ /= 2;  // room for a narrow range's heavier tails
  const std::size_t max_values = std::min((std::size_t{1} << 16) - 4, std::size_t{1} << t->pool_bits_);
  Range range = walk_range(mu, mpz_class(mu.get_num() / mu.get_den()).get_si(), t->scale_, max_values, options);
  t->low_ = range.low;
  t->size_ = static_cast<std::uint32_t>(range.weights.size());
  t->tail_units_[0] = range.tails[0];
  t->tail_units_[1] = range.tails[1];
  if (t->low_ > 0) t->ratio_[0] = BernoulliParams::make(mpq_class(t->low_) / mu);
  t->ratio_[1] = BernoulliParams::make(mu / (t->high() + 1));
  // units: w(k) for k = L .. R, then the pool, the lower tail, the upper tail, the restart
  std::vector<std::uint64_t> units(range.weights.begin(), range.weights.end());
  units.insert(units.end(), {pool, range.tails[0], range.tails[1]});
  std::uint64_t sum = 0;
  for (const std::uint64_t u : units) sum += u;
  if (sum > all) throw std::logic_error("poisson table: units above 2^B");
  units.push_back(all - sum);
  t->weights_ = std::move(range.weights);
  t->build_alias(std::move(units));
  return t;
}

// Walker/Vose in integers: 2^b buckets of 2^(B - b) units; a bucket holds its own entry's
// `threshold` units and its alias's remaining ones. The units sum to 2^B exactly, so every
// entry ends with exactly its units.
void PoissonTable::build_alias(std::vector<std::uint64_t> units) {
  const auto b = static_cast<unsigned>(std::bit_width(units.size() - 1));
  capacity_bits_ = total_bits_ - b;
  const std::uint64_t capacity = std::uint64_t{1} << capacity_bits_;
  mask_ = static_cast<std::uint32_t>(capacity - 1);
  units.resize(std::size_t{1} << b, 0);
  buckets_.assign(units.size(), 0);
  std::vector<std::uint32_t> small, large;
  for (std::uint32_t i = 0; i < units.size(); ++i) (units[i] < capacity ? small : large).push_back(i);
  while (!small.empty() && !large.empty()) {
    const std::uint32_t s = small.back(), l = large.back();
    small.pop_back();
    buckets_[s] = (l << capacity_bits_) | static_cast<std::uint32_t>(units[s]);
    units[l] -= capacity - units[s];
    if (units[l] < capacity) {
      large.pop_back();
      small.push_back(l);
    }
  }
  for (const std::uint32_t i : large) {  // full buckets: threshold 0, alias itself
    if (units[i] != capacity) throw std::logic_error("poisson table: alias units do not add up");
    buckets_[i] = i << capacity_bits_;
  }
  if (!small.empty()) throw std::logic_error("poisson table: alias units do not add up");
}

std::optional<std::int64_t> PoissonTable::escape(BitSource& bits, std::uint32_t entry) const {
  if (entry == size_) return pool(bits);
  if (entry == size_ + 1) return tail(bits, false);
  if (entry == size_ + 2) return tail(bits, true);
  return std::nullopt;  // the restart
}

std::optional<std::int64_t> PoissonTable::pool(BitSource& bits) const {
  const std::uint64_t i = bits.bits(pool_bits_);
  if (i >= size_) return std::nullopt;
  const mpz_class k(static_cast<long>(low_ + static_cast<std::int64_t>(i)));
  const mpq_class c(mpz_class(static_cast<unsigned long>(scale_))), w(weights_[i]);
  const auto start = static_cast<mpfr_prec_t>(kEscapePrecision + 2 * mpz_sizeinbase(k.get_mpz_t(), 2));
  const bool accept = uniform_below(bits, bits.bits(64), start, [&](mpfr_prec_t p) {
    return mul_2si(exp(log_poisson_mass(mu_, k, p)) * c - w, -1);  // (c p(k) - w(k)) / 2
  });
  if (accept) return k.get_si();
  return std::nullopt;
}

std::optional<std::int64_t> PoissonTable::tail(BitSource& bits, bool upper) const {
  const BernoulliParams& ratio = *ratio_[upper ? 1 : 0];
  std::uint64_t j = 1;
  while (sample_bernoulli(bits, ratio)) {
    if (++j >= kGeometricCap) throw std::logic_error("poisson table: tail beyond 2^62");
  }
  const std::int64_t k = upper ? high() + static_cast<std::int64_t>(j) : low_ - static_cast<std::int64_t>(j);
  if (k < 0) return std::nullopt;
  const mpz_class kz(static_cast<long>(k));
  const mpq_class& q = ratio.p();
  // c p(k) / (T (1 - q) q^(j - 1)), in logarithms
  const mpq_class front = mpq_class(mpz_class(static_cast<unsigned long>(scale_))) /
                          (mpq_class(mpz_class(static_cast<unsigned long>(tail_units_[upper ? 1 : 0]))) * (1 - q));
  const mpq_class steps(mpz_class(static_cast<unsigned long>(j - 1)));
  const auto start = static_cast<mpfr_prec_t>(kEscapePrecision + 2 * mpz_sizeinbase(kz.get_mpz_t(), 2));
  const bool accept = uniform_below(bits, bits.bits(64), start, [&](mpfr_prec_t p) {
    return exp(log_poisson_mass(mu_, kz, p) + log(Interval(front, p)) - log(Interval(q, p)) * steps);
  });
  if (accept) return k;
  return std::nullopt;
}

}  // namespace exactdp::internal
