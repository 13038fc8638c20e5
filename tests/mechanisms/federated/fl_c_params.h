// fl_c_params.h — the round parameters of the federated C interface tests (federated_c_api_test,
// federated_c_u32_test): d coordinates, clip 2, `bits`, 4 clients, noise value 1/1000, the rotation
// seed fixed_seed(suite, 1); and exactdp_last_error() as a std::string (tests only).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include <exactdp/exactdp.h>
#include "tests/support/seeds.h"

namespace exactdp::test_support {

inline exactdp_fl_params fl_c_params(std::size_t d, unsigned bits, std::uint32_t suite) {
  exactdp_fl_params p;
  exactdp_fl_params_init(&p);
  p.dimension = d;
  p.clip = "2";
  p.bits = bits;
  p.clients = 4;
  p.noise_value = "1/1000";
  const Seed s = fixed_seed(suite, 1);
  std::memcpy(p.rotation_seed, s.data(), s.size());
  return p;
}

inline std::string last_error() { return exactdp_last_error(); }

}  // namespace exactdp::test_support
