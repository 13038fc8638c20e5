// sample_reader.h — reads a sample file (one integer per line) into a SampleCounter, streaming:
// the input of `exactdp audit --expect` and of anything else that audits samples it did not draw.
//
// Format: one decimal integer per line, any size, optional sign, blanks (space, tab, CR) around it;
// a final newline is optional. Lines are at most kMaxSampleLineLength characters, and at most
// kMaxSampleCount samples are read. Memory does not grow with the number of lines.
//
// Errors: SampleInputError whose message names the line ("line 3: 'x' is not an integer"), or
// the source for a read error or an empty input. Nothing is counted twice; on an error the
// counter holds the lines before it.
#pragma once

#include <functional>
#include <istream>
#include <stdexcept>
#include <string>

#include <exactdp/verification/sample_counter.h>

namespace exactdp::verification {

inline constexpr unsigned long long kMaxSampleCount = 10'000'000'000ULL;
inline constexpr std::size_t kMaxSampleLineLength = 100'000;  // characters per input line

// Malformed sample input.
class SampleInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Called with the number of lines read, every 2^20 lines (for a progress display).
using SampleProgress = std::function<void(unsigned long long lines)>;

// Adds every line of `in` to `counter`. `source` names the input in messages ("standard input",
// "'file.txt'"). Throws SampleInputError.
void read_samples(std::istream& in, const std::string& source, SampleCounter& counter,
                  const SampleProgress& progress = {});

}  // namespace exactdp::verification
