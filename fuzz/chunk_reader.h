// chunk_reader.h — a mechanisms::ByteReader over a string that hands out at most `chunk` bytes a
// read, so that records, quotes and fields straddle buffer ends (aggregate_fuzzer.cc,
// csv_reader_fuzzer.cc). The string must outlive the reader.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

#include <exactdp/mechanisms/release/byte_source.h>

namespace exactdp::fuzz {

class ChunkReader final : public mechanisms::ByteReader {
 public:
  ChunkReader(const std::string& text, std::size_t chunk) : text_(text), chunk_(chunk) {}
  std::size_t read(char* out, std::size_t n) override {
    std::size_t k = text_.size() - pos_;
    if (k > n) k = n;
    if (k > chunk_) k = chunk_;
    std::memcpy(out, text_.data() + pos_, k);
    pos_ += k;
    return k;
  }

 private:
  const std::string& text_;
  std::size_t chunk_;
  std::size_t pos_ = 0;
};

}  // namespace exactdp::fuzz
