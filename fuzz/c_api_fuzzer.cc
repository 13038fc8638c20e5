// c_api_fuzzer — the C interface (<exactdp/exactdp.h>) with hostile arguments, as a C caller
// (or another language's FFI) could pass them.
//
// Input: six bytes — kind (Gaussian / Laplace / Bernoulli / exactdp_sampler_new), flags (0, 1 or
// a negative int), whether to use the options struct, tau_bits, a batch size n, a decimal buffer
// length — then '\n'-separated texts (each at most 48 bytes): the parameter and the mean; for
// exactdp_sampler_new the law's name and its parameters as "name=value,name=value" (a piece
// without '=' is a name with the value ""; with the options flag, count 0 and NULL arrays).
// The bit source is seeded with a hash of the input.
// Invariants:
//   * every call returns 0 or one of the documented codes; on failure the message is non-empty
//     and the output handle untouched, on success the message is empty;
//   * a hardened sampler's batch never fails and reads exactly n * bits_per_sample bits;
//   * exactdp_sample_decimal never writes past len (the buffer is exactly len bytes, so ASan
//     sees any overrun) and, on success, writes an integer that reads back.
#include <sodium.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.h"
#include <exactdp/exactdp.h>
#include <exactdp/core/rational.h>

namespace {

void check_message(int rc) {
  const std::string m = exactdp_last_error();
  FUZZ_CHECK(rc == EXACTDP_OK ? m.empty() : !m.empty(), "rc %d, message \"%s\"", rc, m.c_str());
}

std::string next_text(const std::uint8_t*& p, const std::uint8_t* end) {
  std::string t;
  while (p < end && *p != '\n' && t.size() < 48) t.push_back(static_cast<char>(*p++));
  while (p < end && *p != '\n') ++p;
  if (p < end) ++p;
  return t;
}

// exactdp_sampler_new(law, names, values, ...) with "name=value,name=value" (NULL arrays when
// `none`): the registry's constructor with whatever names, values and law a caller may pass.
int registry_new(const std::string& law, const std::string& pairs, bool none, int flags, exactdp_sampler** out) {
  std::vector<std::string> names, values;
  std::size_t start = 0;
  while (!pairs.empty() && start <= pairs.size()) {
    std::size_t stop = pairs.find(',', start);
    if (stop == std::string::npos) stop = pairs.size();
    const std::string piece = pairs.substr(start, stop - start);
    const std::size_t eq = piece.find('=');
    names.push_back(piece.substr(0, eq));
    values.push_back(eq == std::string::npos ? std::string() : piece.substr(eq + 1));
    start = stop + 1;
  }
  std::vector<const char*> n, v;
  for (std::size_t i = 0; i < names.size(); ++i) {
    n.push_back(names[i].c_str());
    v.push_back(values[i].c_str());
  }
  if (none) return exactdp_sampler_new(law.c_str(), nullptr, nullptr, 0, flags, out);
  return exactdp_sampler_new(law.c_str(), n.data(), v.data(), n.size(), flags, out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  exactdp::fuzz::init_sodium_once();
  exactdp::fuzz::ByteReader r(data, size);
  const int kind = r.u8() % 4;
  const std::uint8_t flag_byte = r.u8();
  const int flags = flag_byte < 200 ? (flag_byte & 1) : static_cast<int>(static_cast<std::int8_t>(flag_byte));
  const bool use_options = r.flag();
  const std::uint8_t tau_byte = r.u8();  // below 100: 0 (the default); else 30..185
  const unsigned tau_bits = tau_byte < 100 ? 0u : tau_byte - 70u;
  const std::size_t n = r.u8() % 33;
  const std::size_t len = r.u8() % 49;
  const std::uint8_t* p = data + std::min<std::size_t>(size, 6);
  const std::uint8_t* end = data + size;
  const std::string parameter = next_text(p, end);
  const std::string mean = next_text(p, end);

  unsigned char seed[32];
  crypto_generichash(seed, sizeof seed, data, size, nullptr, 0);
  exactdp_bits* bits = nullptr;
  FUZZ_CHECK(exactdp_bits_seeded(seed, &bits) == EXACTDP_OK, "%s", exactdp_last_error());

  exactdp_sampler_options o;
  exactdp_sampler_options_init(&o);
  o.flags = flags;
  o.tau_bits = tau_bits;
  o.mean = mean.empty() ? nullptr : mean.c_str();
  exactdp_sampler* const sentinel = reinterpret_cast<exactdp_sampler*>(&o);
  exactdp_sampler* s = sentinel;
  int rc = 0;
  if (kind == 0) {
    rc = use_options ? exactdp_discrete_gaussian_new_ex(parameter.c_str(), &o, &s)
                     : exactdp_discrete_gaussian_new(parameter.c_str(), flags, &s);
  } else if (kind == 1) {
    rc = use_options ? exactdp_discrete_laplace_new_ex(parameter.c_str(), &o, &s)
                     : exactdp_discrete_laplace_new(parameter.c_str(), flags, &s);
  } else if (kind == 2) {
    rc = exactdp_bernoulli_exp_new(parameter.c_str(), flags, &s);
  } else {
    rc = registry_new(parameter, mean, use_options, flags, &s);
  }
  FUZZ_CHECK(rc == EXACTDP_OK || rc == EXACTDP_E_PARAM || rc == EXACTDP_E_LIMIT, "new: rc %d (%s)", rc,
             exactdp_last_error());
  check_message(rc);
  if (rc != EXACTDP_OK) {
    FUZZ_CHECK(s == sentinel, "a failed call wrote its output handle");
    exactdp_bits_free(bits);
    return 0;
  }

  int hardened = -1;
  FUZZ_CHECK(exactdp_sampler_is_hardened(s, &hardened) == EXACTDP_OK, "is_hardened");
  std::uint64_t before = 0, after = 0, per = 0;
  FUZZ_CHECK(exactdp_bits_consumed(bits, &before) == EXACTDP_OK, "consumed");
  std::vector<std::int64_t> out(n + 1);
  rc = exactdp_sample_int64(s, bits, out.data(), n);
  FUZZ_CHECK(rc == EXACTDP_OK || (rc == EXACTDP_E_RANGE && hardened == 0), "sample_int64: rc %d (%s)", rc,
             exactdp_last_error());
  check_message(rc);
  FUZZ_CHECK(exactdp_bits_consumed(bits, &after) == EXACTDP_OK, "consumed");
  if (hardened == 1) {
    FUZZ_CHECK(exactdp_sampler_bits_per_sample(s, &per) == EXACTDP_OK, "bits_per_sample");
    FUZZ_CHECK(after - before == n * per, "hardened batch read %llu bits, not %zu * %llu",
               static_cast<unsigned long long>(after - before), n, static_cast<unsigned long long>(per));
    char tau[EXACTDP_DECIMAL_LEN];
    FUZZ_CHECK(exactdp_sampler_tau(s, tau, sizeof tau) == EXACTDP_OK, "tau: %s", exactdp_last_error());
  }

  std::vector<char> buf(len);  // exactly len bytes: ASan sees any write past them
  rc = exactdp_sample_decimal(s, bits, len == 0 ? nullptr : buf.data(), len);
  if (len == 0) {
    FUZZ_CHECK(rc == EXACTDP_E_NULL, "decimal with no buffer: rc %d", rc);
  } else if (rc == EXACTDP_OK) {
    const std::size_t k = strnlen(buf.data(), len);
    FUZZ_CHECK(k < len, "no NUL within len");
    (void)exactdp::parse_integer("decimal", std::string(buf.data(), k));  // throws if not one
  } else {
    FUZZ_CHECK(rc == EXACTDP_E_BUFFER && buf[0] == '\0', "decimal: rc %d", rc);
  }
  check_message(rc);

  exactdp_sampler_free(s);
  exactdp_bits_free(bits);
  return 0;
}
