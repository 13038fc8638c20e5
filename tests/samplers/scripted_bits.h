// scripted_bits.h — a BitSource that replays a fixed string of '0'/'1' characters (then zero bits),
// for known-answer tests that pin exactly which bits a sampler reads (cf. absl's sequence_urbg).
#pragma once

#include <stdexcept>
#include <string>

#include <exactdp/samplers/bit_source.h>

namespace exactdp::test_support {

class ScriptedBits final : public BitSource {
 public:
  explicit ScriptedBits(std::string script) : BitSource(&state_), script_(std::move(script)) {}

 protected:
  void refill(unsigned char* out, std::size_t n) override {
    for (std::size_t i = 0; i < n; ++i) {
      unsigned char byte = 0;
      for (int j = 0; j < 8; ++j) {
        if (position_ >= script_.size()) {
          // Past the script the stream is all zeros; tests pin bits_consumed() to catch that.
          byte = static_cast<unsigned char>(byte << 1);
          ++overrun_;
          continue;
        }
        byte = static_cast<unsigned char>((byte << 1) | (script_[position_++] == '1' ? 1 : 0));
      }
      out[i] = byte;
    }
  }

 private:
  BitBufferState state_{};
  std::string script_;
  std::size_t position_ = 0;
  std::size_t overrun_ = 0;
};

}  // namespace exactdp::test_support

namespace exactdp {
// The other spelling some tests use for the one helper namespace.
namespace testing_support = test_support;  // NOLINT(misc-unused-alias-decls)
}  // namespace exactdp
