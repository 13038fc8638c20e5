#include <exactdp/mechanisms/release/release_table.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>

#include <exactdp/samplers/discrete_gaussian.h>
#include <exactdp/samplers/discrete_laplace.h>
#include <exactdp/samplers/hardened_discrete_gaussian.h>
#include <exactdp/samplers/hardened_discrete_laplace.h>
#include <exactdp/samplers/rational.h>

namespace exactdp::mechanisms {
namespace {

constexpr const char kBom[] = "\xEF\xBB\xBF";

// One noise draw per call, from the sampler the calibration chose.
class NoiseDrawer {
 public:
  explicit NoiseDrawer(const ReleaseCalibration& c) {
    const bool laplace = c.budget.mechanism == NoiseMechanism::kDiscreteLaplace;
    if (c.budget.hardened) {
      if (laplace) {
        hardened_laplace_.emplace(HardenedDiscreteLaplaceParams::make(c.scale));
      } else {
        hardened_gaussian_.emplace(HardenedDiscreteGaussianParams::make(c.sigma2));
      }
    } else if (laplace) {
      laplace_.emplace(DiscreteLaplaceParams::make(c.scale));
    } else {
      gaussian_.emplace(DiscreteGaussianParams::make(c.sigma2));
    }
  }
  // value += one draw.
  void add_noise(BitSource& bits, mpz_class& value) {
    std::int64_t small = 0;
    if (hardened_laplace_) {
      small = sample_discrete_laplace(bits, *hardened_laplace_);
    } else if (hardened_gaussian_) {
      small = sample_discrete_gaussian(bits, *hardened_gaussian_);
    } else {
      if (laplace_) {
        sample_discrete_laplace(bits, *laplace_, noise_);
      } else {
        sample_discrete_gaussian(bits, *gaussian_, noise_);
      }
      value += noise_;
      return;
    }
    mpz_class s;
    mpz_set_si(s.get_mpz_t(), static_cast<long>(small));
    value += s;
  }

 private:
  std::optional<DiscreteGaussianParams> gaussian_;
  std::optional<DiscreteLaplaceParams> laplace_;
  std::optional<HardenedDiscreteGaussianParams> hardened_gaussian_;
  std::optional<HardenedDiscreteLaplaceParams> hardened_laplace_;
  mpz_class noise_;
};

void check_output(std::ostream& out) {
  if (!out) {
    const int e = errno;
    throw ReleaseOutputError(std::string("error writing the output") +
                             (e != 0 ? std::string(": ") + std::strerror(e) : std::string()) +
                             " (the released table is incomplete)");
  }
}

}  // namespace

void parse_integer_cell(std::string_view value, std::size_t max_digits, std::uint64_t line,
                        const std::string& column, mpz_class& out) {
  std::size_t i = 0;
  if (!value.empty() && (value[0] == '+' || value[0] == '-')) i = 1;
  const std::size_t digits = value.size() - i;
  bool ok = digits > 0;
  for (std::size_t k = i; ok && k < value.size(); ++k) ok = value[k] >= '0' && value[k] <= '9';
  if (!ok) {
    throw CsvError(line, "column '" + column + "': '" + abbreviate(value) +
                             "' is not an integer (allowed: [+-]?[0-9]+, no spaces; decimals "
                             "need --granularity)");
  }
  if (digits > max_digits) {
    throw CsvError(line, "column '" + column + "': an integer of " + std::to_string(digits) +
                             " digits is over the limit of " + std::to_string(max_digits) +
                             " digits per cell");
  }
  const std::string text(value.substr(i));
  mpz_set_str(out.get_mpz_t(), text.c_str(), 10);
  if (value[0] == '-') out = -out;
}

TableScan scan_table(ByteReader& input, const std::vector<std::string>& columns,
                     const ReleaseLimits& limits) {
  CsvReader reader(input, limits.csv);
  CsvRecord record;
  TableScan scan;
  if (!reader.next(record)) {
    throw CsvError(1, "the input is empty: a header row naming the columns is required");
  }
  const std::uint64_t header_line = record.line;
  for (std::size_t i = 0; i < record.fields.size(); ++i) scan.header.push_back(record.value(i));
  for (std::size_t a = 0; a < columns.size(); ++a) {
    for (std::size_t b = 0; b < a; ++b) {
      if (columns[a] == columns[b]) {
        throw ParameterError("column", "column '" + columns[a] + "' is named twice");
      }
    }
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < scan.header.size(); ++i) {
      if (scan.header[i] != columns[a]) continue;
      if (found) {
        throw CsvError(header_line, "column '" + columns[a] +
                                        "' appears more than once in the header");
      }
      found = i;
    }
    if (!found) {
      throw CsvError(header_line, "no column named '" + columns[a] + "' in the header (" +
                                      std::to_string(scan.header.size()) + " columns)");
    }
    scan.noised.push_back(*found);
  }
  // Header order, so pass 2 walks each record left to right.
  std::sort(scan.noised.begin(), scan.noised.end());
  mpz_class value;
  while (reader.next(record)) {
    if (record.fields.size() != scan.header.size()) {
      const bool empty_line = record.raw.empty();
      throw CsvError(record.line,
                     (empty_line ? std::string("an empty line") :
                                   "a ragged row of " + std::to_string(record.fields.size()) + " fields") +
                         " (the header has " + std::to_string(scan.header.size()) + ")");
    }
    for (const std::size_t i : scan.noised) {
      parse_integer_cell(record.value(i), limits.max_cell_digits, record.line, scan.header[i], value);
    }
    ++scan.rows;
  }
  scan.bytes = reader.bytes_read();
  return scan;
}

void write_release(ByteReader& input, std::ostream& out, const TableScan& scan,
                   const ReleaseCalibration& calibration, BitSource& bits,
                   const ReleaseLimits& limits) {
  NoiseDrawer drawer(calibration);
  CsvReader reader(input, limits.csv);
  CsvRecord record;
  auto changed = [](std::uint64_t line) {
    return ReleaseInputChanged("the input changed between the two passes (at line " +
                               std::to_string(line) + "); the released table is incomplete");
  };
  if (!reader.next(record)) throw changed(1);
  errno = 0;
  if (reader.has_bom()) out.write(kBom, 3);
  out.write(record.raw.data(), static_cast<std::streamsize>(record.raw.size()));
  out.write(record.terminator.data(), static_cast<std::streamsize>(record.terminator.size()));
  check_output(out);
  mpz_class value;
  std::string text;
  std::uint64_t rows = 0;
  while (reader.next(record)) {
    if (++rows > scan.rows || record.fields.size() != scan.header.size()) throw changed(record.line);
    std::size_t copied = 0;  // bytes of record.raw written so far
    for (const std::size_t i : scan.noised) {
      const CsvField& f = record.fields[i];
      out.write(record.raw.data() + copied, static_cast<std::streamsize>(f.begin - copied));
      try {
        parse_integer_cell(record.value(i), limits.max_cell_digits, record.line, scan.header[i], value);
      } catch (const CsvError&) {
        throw changed(record.line);
      }
      drawer.add_noise(bits, value);
      text.resize(mpz_sizeinbase(value.get_mpz_t(), 10) + 2);
      mpz_get_str(text.data(), 10, value.get_mpz_t());
      const std::size_t len = std::strlen(text.c_str());
      if (f.quoted) out.put('"');
      out.write(text.data(), static_cast<std::streamsize>(len));
      if (f.quoted) out.put('"');
      copied = f.end;
    }
    out.write(record.raw.data() + copied, static_cast<std::streamsize>(record.raw.size() - copied));
    out.write(record.terminator.data(), static_cast<std::streamsize>(record.terminator.size()));
    check_output(out);
  }
  if (rows != scan.rows) throw changed(reader.line());
  out.flush();
  check_output(out);
}

}  // namespace exactdp::mechanisms
