// c_interface_laws.h — the registry laws that the C interface's per-law calls stand for
// (exactdp.h: exactdp_discrete_gaussian_new, exactdp_discrete_laplace_delta, ...). Their names
// are fixed by the C ABI (docs/ABI.md); each is a generic call (exactdp_sampler_new,
// exactdp_law_delta, exactdp_law_calibrate) at one registry law and its noise parameter, named
// here beside the laws so that no list of law names lives outside laws/. A new law needs no
// per-law C call: the generic ones take it by name.
#pragma once

namespace exactdp::laws {

// A per-law C call's law: its registry name and the noise parameter the call takes.
struct CInterfaceLaw {
  const char* law;
  const char* noise;
};

// exactdp_discrete_gaussian_new, _new_ex, exactdp_discrete_gaussian_delta,
// exactdp_calibrate_discrete_gaussian.
inline constexpr CInterfaceLaw kCDiscreteGaussian{"discrete-gaussian", "sigma2"};
// exactdp_discrete_laplace_new, _new_ex, exactdp_discrete_laplace_delta.
inline constexpr CInterfaceLaw kCDiscreteLaplace{"discrete-laplace", "scale"};
// exactdp_bernoulli_exp_new.
inline constexpr CInterfaceLaw kCBernoulliExp{"bernoulli-exp", "gamma"};

}  // namespace exactdp::laws
