// fl_setup.h — the federated round's parameters read from the front of a fuzz input (shared by
// fl_encoder_fuzzer and fl_decoder_fuzzer; mechanisms/federated/federated_plan.h):
//   byte 0: dimension 1..300 (and bit 7 of byte 9: 1 + 4 b, up to 1021, so D reaches 4^5);
//   byte 1: clip c = 2^(b % 40 - 20); byte 2: granularity exponent k = b % 60 - 20;
//   byte 3: bits = b % 60 + 4 (4..63: the ends refused); bytes 4-5: clients 0..65535;
//   byte 6: noise value 2^(b % 60 - 40) data units; byte 7: skellam (bit 0), hardened (bit 1),
//   dropout 1/2 (bit 2), dropout 1 (bit 3, refused), beta 2^-(bits 4-7); byte 8: max_wrap 2^-b.
// make_fl_plan returns the plan, or nullopt after checking that a refusal is a ParameterError
// naming one of the spec's parameters (anything else aborts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "fuzz/fuzz_support.h"
#include <exactdp/core/errors.h>
#include <exactdp/core/rational.h>
#include <exactdp/mechanisms/federated/federated_plan.h>

namespace exactdp::fuzz {

inline constexpr std::size_t kFlSetupBytes = 10;

inline mechanisms::FederatedSpec read_fl_spec(ByteReader& in) {
  mechanisms::FederatedSpec s;
  const std::uint8_t d = in.u8();
  s.clip = power_of_two(static_cast<long>(in.u8() % 40) - 20);
  s.granularity_exponent = static_cast<long>(in.u8() % 60) - 20;
  s.bits = in.u8() % 60 + 4;
  s.clients = (static_cast<std::uint64_t>(in.u8()) << 8) | in.u8();
  s.noise_value = power_of_two(static_cast<long>(in.u8() % 60) - 40);
  const std::uint8_t mode = in.u8();
  s.noise = (mode & 1) != 0 ? mechanisms::kClientSkellam : mechanisms::kClientGaussian;
  if ((mode & 2) != 0) s.hardening = Hardening{};
  if ((mode & 4) != 0) s.dropout = mpq_class(1, 2);
  if ((mode & 8) != 0) s.dropout = 1;
  s.beta = power_of_two(-static_cast<long>(1 + (mode >> 4)));
  s.max_wrap = power_of_two(-static_cast<long>(in.u8() % 64));
  const bool wide = (in.u8() & 0x80) != 0;
  s.dimension = wide ? 1 + (static_cast<std::size_t>(d) * 4) : 1 + d % 300;
  for (std::size_t i = 0; i < s.rotation_seed.size(); ++i) s.rotation_seed[i] = static_cast<unsigned char>(d + 3 * i);
  return s;
}

inline std::optional<mechanisms::FederatedPlan> make_fl_plan(const mechanisms::FederatedSpec& s) {
  static const std::set<std::string> kNames{"dimension", "c", "granularity", "bits", "clients", "dropout",
                                            "noise", "sigma2", "mu", "beta", "max_wrap", "hardened"};
  try {
    return mechanisms::FederatedPlan::make(s);
  } catch (const LimitError& e) {
    FUZZ_CHECK(kNames.count(e.parameter()) == 1, "limit naming %s: %s", e.parameter().c_str(), e.what());
  } catch (const ParameterError& e) {
    FUZZ_CHECK(kNames.count(e.parameter()) == 1, "refusal naming %s: %s", e.parameter().c_str(), e.what());
  }
  return std::nullopt;
}

}  // namespace exactdp::fuzz
