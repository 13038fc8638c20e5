// c_api.cc — the library and bit-source functions of the C interface (exactdp.h).
#include <sodium.h>

#include <cstring>
#include <memory>
#include <string>

#include <exactdp/exactdp.h>
#include <exactdp/c_api/internal/c_api_support.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>

#ifndef EXACTDP_VERSION_STRING
#error "EXACTDP_VERSION_STRING is set by c_api/CMakeLists.txt from the project version"
#endif

using exactdp::internal::guard;
using exactdp::internal::require_non_null;

namespace {
// Wipes a local copy of a seed on every exit (the source keeps its own copy, wiped on free).
struct SeedWiper {
  exactdp::Seed& seed;
  ~SeedWiper() { sodium_memzero(seed.data(), seed.size()); }
};
}  // namespace

extern "C" {

const char* exactdp_version(void) { return EXACTDP_VERSION_STRING; }

const char* exactdp_last_error(void) { return exactdp::internal::last_error(); }

const char* exactdp_error_name(int code) {
  switch (code) {
    case EXACTDP_OK: return "EXACTDP_OK";
    case EXACTDP_E_PARAM: return "EXACTDP_E_PARAM";
    case EXACTDP_E_NULL: return "EXACTDP_E_NULL";
    case EXACTDP_E_BUFFER: return "EXACTDP_E_BUFFER";
    case EXACTDP_E_RANGE: return "EXACTDP_E_RANGE";
    case EXACTDP_E_LIMIT: return "EXACTDP_E_LIMIT";
    case EXACTDP_E_UNSUPPORTED: return "EXACTDP_E_UNSUPPORTED";
    case EXACTDP_E_NOMEM: return "EXACTDP_E_NOMEM";
    case EXACTDP_E_INTERNAL: return "EXACTDP_E_INTERNAL";
    default: return "unknown";
  }
}

int exactdp_bits_system(exactdp_bits** out) {
  return guard([&] {
    require_non_null(out, "out");
    auto b = std::make_unique<exactdp_bits>();
    b->source = std::make_unique<exactdp::SystemBits>();
    *out = b.release();
    return EXACTDP_OK;
  });
}

namespace {
// The all-zero seed is refused unless `allow_weak` (the command line's --allow-weak-seed): it is
// a key everyone knows, and what a seed buffer that was never filled holds. sodium_is_zero reads
// all 32 bytes whatever they are; the refusal reveals only whether the seed is all-zero.
void refuse_weak_seed(const exactdp::Seed& key, const char* argument) {
  if (sodium_is_zero(key.data(), key.size()) == 1) {
    throw exactdp::ParameterError(
        argument, std::string(argument) +
        ": the all-zero seed is refused (a key everyone knows, or a buffer never filled); "
        "exactdp_bits_seeded_weak accepts it for tests that need it");
  }
}

int make_seeded(const unsigned char* seed, exactdp_bits** out, bool allow_weak) {
  return guard([&] {
    require_non_null(seed, "seed");
    require_non_null(out, "out");
    exactdp::Seed key;
    std::memcpy(key.data(), seed, key.size());
    SeedWiper wipe{key};
    if (!allow_weak) refuse_weak_seed(key, "seed");
    auto b = std::make_unique<exactdp_bits>();
    b->source = std::make_unique<exactdp::SeededBits>(key);
    *out = b.release();
    return EXACTDP_OK;
  });
}
}  // namespace

int exactdp_bits_seeded(const unsigned char seed[32], exactdp_bits** out) {
  return make_seeded(seed, out, false);
}

int exactdp_bits_seeded_weak(const unsigned char seed[32], exactdp_bits** out) {
  return make_seeded(seed, out, true);
}

int exactdp_bits_seeded_hex(const char* seed_hex, exactdp_bits** out) {
  return guard([&] {
    require_non_null(seed_hex, "seed_hex");
    require_non_null(out, "out");
    exactdp::Seed key = exactdp::parse_seed_hex("seed_hex", seed_hex);
    SeedWiper wipe{key};
    refuse_weak_seed(key, "seed_hex");
    auto b = std::make_unique<exactdp_bits>();
    b->source = std::make_unique<exactdp::SeededBits>(key);
    *out = b.release();
    return EXACTDP_OK;
  });
}

int exactdp_bits_consumed(const exactdp_bits* bits, uint64_t* out) {
  return guard([&] {
    require_non_null(bits, "bits");
    require_non_null(out, "out");
    *out = bits->source->bits_consumed();
    return EXACTDP_OK;
  });
}

void exactdp_bits_free(exactdp_bits* bits) { delete bits; }  // the sources wipe their buffers

}  // extern "C"
