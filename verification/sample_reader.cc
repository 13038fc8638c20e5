#include <exactdp/verification/sample_reader.h>

#include <charconv>
#include <cstdint>
#include <string_view>
#include <vector>

#include <exactdp/core/rational.h>

namespace exactdp::verification {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

[[noreturn]] void fail(unsigned long long line_number, const std::string& why) {
  throw SampleInputError("line " + std::to_string(line_number) + ": " + why);
}

// Parses one line as an integer into the counter; scratch and text are reused buffers.
void add_line(std::string_view line, unsigned long long line_number, SampleCounter& counter, mpz_class& scratch,
              std::string& text) {
  std::size_t b = 0, e = line.size();
  while (b < e && is_blank(line[b])) ++b;
  while (e > b && is_blank(line[e - 1])) --e;
  const std::string_view s = line.substr(b, e - b);
  if (s.empty()) fail(line_number, "empty line (expected one integer)");
  const std::size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) fail(line_number, "'" + abbreviate(s) + "' is not an integer");
  for (std::size_t j = i; j < s.size(); ++j) {
    if (s[j] < '0' || s[j] > '9') fail(line_number, "'" + abbreviate(s) + "' is not an integer (decimal digits only)");
  }
  const char* first = s.data() + (s[0] == '+' ? 1 : 0);
  if (s.size() - i <= 18) {
    std::int64_t v = 0;
    const auto r = std::from_chars(first, s.data() + s.size(), v);
    if (r.ec != std::errc()) fail(line_number, "'" + abbreviate(s) + "' is not an integer");
    counter.add(v);
    return;
  }
  text.assign(first, s.data() + s.size());
  if (mpz_set_str(scratch.get_mpz_t(), text.c_str(), 10) != 0) {
    fail(line_number, "'" + abbreviate(s) + "' is not an integer");
  }
  counter.add(scratch);
}

}  // namespace

void read_samples(std::istream& in, const std::string& source, SampleCounter& counter,
                  const SampleProgress& progress) {
  // getline stores at most size - 1 characters and sets failbit on a longer line: a line of
  // exactly kMaxSampleLineLength characters is accepted, one more is refused.
  std::vector<char> buffer(kMaxSampleLineLength + 1);
  mpz_class scratch;
  std::string text;
  unsigned long long line_number = 0;
  for (;;) {
    in.getline(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::streamsize got = in.gcount();
    if (in.bad()) throw SampleInputError("read error on " + source);
    if (got == 0 && in.eof()) break;  // end of input (a final newline is not an empty line)
    ++line_number;
    if (in.fail() && !in.eof()) fail(line_number, "longer than " + std::to_string(kMaxSampleLineLength) + " characters");
    // got counts the newline when one was extracted.
    std::size_t len = static_cast<std::size_t>(got);
    if (!in.eof() && len > 0) --len;
    add_line(std::string_view(buffer.data(), len), line_number, counter, scratch, text);
    if (counter.n() > kMaxSampleCount) {
      throw SampleInputError("more than " + std::to_string(kMaxSampleCount) + " samples");
    }
    if (progress && (line_number & 0xfffff) == 0) progress(line_number);
    if (in.eof()) break;
  }
  if (counter.n() == 0) throw SampleInputError(source + ": no samples (expected one integer per line)");
}

}  // namespace exactdp::verification
