// release_test_support.h — inputs for the release tests: a ByteReader over a string that hands
// out at most `chunk` bytes per read (to cross every buffer boundary), and a table builder.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>

#include <exactdp/mechanisms/release/byte_source.h>

namespace exactdp::test_support {

class StringReader final : public mechanisms::ByteReader {
 public:
  explicit StringReader(std::string text, std::size_t chunk = 1 << 16)
      : text_(std::move(text)), chunk_(chunk) {}
  std::size_t read(char* out, std::size_t n) override {
    const std::size_t k = std::min({n, chunk_, text_.size() - pos_});
    std::memcpy(out, text_.data() + pos_, k);
    pos_ += k;
    return k;
  }
  void rewind() { pos_ = 0; }

 private:
  std::string text_;
  std::size_t chunk_;
  std::size_t pos_ = 0;
};

// "id,value\n" then `rows` rows "i,<value>\n".
inline std::string constant_table(std::size_t rows, const std::string& value) {
  std::string t = "id,value\n";
  for (std::size_t i = 0; i < rows; ++i) t += std::to_string(i) + "," + value + "\n";
  return t;
}

}  // namespace exactdp::test_support
