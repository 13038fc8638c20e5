#include <exactdp/laws/staircase/staircase_sampler.h>

#include <exactdp/samplers/geometric.h>
#include <exactdp/samplers/uniform.h>

namespace exactdp::laws {

StaircaseSampler::StaircaseSampler(const StaircaseShape& shape, mpz_class mean)
    : t_(shape.gamma().get_den()), s_(shape.gamma().get_num()), d_(shape.sensitivity()), r_(shape.r()),
      mean_(std::move(mean)), keep_(BernoulliExpParams::make(shape.gamma())) {}

void StaircaseSampler::sample(BitSource& bits, mpz_class& out) const {
  mpz_class j;
  for (;;) {
    const mpz_class i = sample_geometric_exp(bits, t_, s_);                       // step 1
    sample_uniform_below(bits, d_, j);                                                      // step 2
    if (j >= r_ && !sample_bernoulli_exp(bits, keep_)) continue;
    out = i * d_ + j;                                                                       // step 3
    const bool negative = bits.bit();
    if (negative && out == 0) continue;
    if (negative) out = -out;
    out += mean_;
    return;
  }
}

}  // namespace exactdp::laws
