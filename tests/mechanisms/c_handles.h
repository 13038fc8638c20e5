// c_handles.h — owning C++ handles for the C interface's objects in the gtest suites
// (std::unique_ptr with the C free functions as deleters).
#pragma once

#include <memory>

#include <exactdp/exactdp.h>

namespace exactdp::test_support {

struct BitsDeleter {
  void operator()(exactdp_bits* b) const { exactdp_bits_free(b); }
};
struct SamplerDeleter {
  void operator()(exactdp_sampler* s) const { exactdp_sampler_free(s); }
};
using CBits = std::unique_ptr<exactdp_bits, BitsDeleter>;
using CSampler = std::unique_ptr<exactdp_sampler, SamplerDeleter>;

}  // namespace exactdp::test_support
