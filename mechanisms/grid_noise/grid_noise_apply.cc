// grid_noise_apply.cc — add_noise (grid_noise.h): the input check, the per-batch loop (draws in
// index order, then the exact grid arithmetic per coordinate) and the chunked threads.
// double and float appear here only as storage types whose bit patterns are
// decoded and encoded exactly (std::bit_cast and integer operations); no floating-point
// arithmetic is done on any value.
#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <exactdp/core/errors.h>
#include <exactdp/mechanisms/grid_noise/float_grid.h>
#include <exactdp/mechanisms/grid_noise/grid_noise.h>
#include <exactdp/samplers/int128.h>
#include <exactdp/samplers/seeded_bits.h>
#include <exactdp/samplers/system_bits.h>

namespace exactdp::mechanisms {
namespace {

constexpr std::size_t kBatch = 256;  // draws per sample_wide call
// Draws per call for a hardened sampler: its batch ends with a partial group and single draws
// (samplers/internal/hardened_rejection.h), a fixed cost per call that more draws amortise.
constexpr std::size_t kHardenedBatch = 2048;

// One thread's buffers, reused across batches and chunks.
struct Scratch {
  std::array<std::int64_t, kHardenedBatch> draws{};
  std::vector<WideValue> wide;
  mpz_class n, v;
  std::unique_ptr<SeededBits> seeded;  // the seeded substreams: one source per thread, seek()
};

// The sizes and the overlap of x and y (ParameterError naming "out").
template <class Float>
void check_shapes(std::span<const Float> x, std::span<Float> y) {
  if (x.size() != y.size()) {
    throw ParameterError::out_of_range("out", "size " + std::to_string(y.size()),
                                       "the size of x (" + std::to_string(x.size()) + ")");
  }
  const auto* x_begin = reinterpret_cast<const unsigned char*>(x.data());
  const auto* y_begin = reinterpret_cast<const unsigned char*>(y.data());
  const std::size_t bytes = x.size() * sizeof(Float);
  const std::less<const unsigned char*> before;
  const bool overlap = bytes > 0 && before(x_begin, y_begin + bytes) && before(y_begin, x_begin + bytes);
  if (overlap && x_begin != y_begin) {
    throw ParameterError("out", "out overlaps x without being x (allowed: out = x, in place, or disjoint arrays)");
  }
}

// ParameterError naming x and the first non-finite x[i], if any.
template <class Float>
void check_finite(std::span<const Float> x) {
  if (all_finite_bits(x.data(), x.size())) return;
  for (std::size_t i = 0; i < x.size(); ++i) {  // the first refused one, named
    if (!is_finite_bits(x[i])) {
      const std::string what = is_nan_bits(x[i]) ? "NaN" : (decode_float(x[i]).negative ? "-inf" : "inf");
      throw ParameterError("x", "x[" + std::to_string(i) + "] is " + what + "; allowed: finite values");
    }
  }
}

template <class Float>
void check_arguments(std::span<const Float> x, std::span<Float> y) {
  check_shapes(x, y);
  check_finite(x);
}

// y = (n + z) g for one coordinate past the fast path (x huge, or the draw wide).
template <class Float>
Float noisy_wide(Float x, long k, const mpz_class* wide_draw, std::int64_t draw, Scratch& s) {
  grid_index_wide(x, k, s.n);
  if (wide_draw != nullptr) {
    s.v = s.n + *wide_draw;
  } else {
    s.v = s.n;
    if (draw >= 0) {
      mpz_add_ui(s.v.get_mpz_t(), s.v.get_mpz_t(), static_cast<unsigned long>(draw));
    } else {
      mpz_sub_ui(s.v.get_mpz_t(), s.v.get_mpz_t(), static_cast<unsigned long>(-(draw + 1)) + 1UL);
    }
  }
  return encode_grid_value<Float>(s.v, k);
}

// x[0..count) -> y[0..count), count <= kHardenedBatch: the draws first (in index order, independent of
// x), then the exact arithmetic. x and y may be the same array (each x[i] is read before y[i]).
template <class Float>
void noise_batch(const laws::Sampler& sampler, long k, const Float* x, Float* y, std::size_t count,
                 BitSource& bits, Scratch& s) {
  s.wide.clear();
  sampler.sample_wide(bits, s.draws.data(), count, s.wide);
  std::size_t next_wide = 0;
  std::size_t i = 0;
  while (i < count) {
    // The coordinates up to the next wide draw in one run of the fast path.
    const std::size_t stop = next_wide < s.wide.size() ? s.wide[next_wide].index : count;
    i += add_on_grid_fast_run(x + i, k, s.draws.data() + i, y + i, stop - i);
    if (i == count) break;
    if (i == stop) {  // the wide draw
      y[i] = noisy_wide(x[i], k, &s.wide[next_wide].value, 0, s);
      ++next_wide;
    } else {  // x[i] past the fast path
      y[i] = noisy_wide(x[i], k, nullptr, s.draws[i], s);
    }
    ++i;
  }
}

template <class Float>
void noise_range(const GridNoise& noise, const Float* x, Float* y, std::size_t count, BitSource& bits, Scratch& s) {
  const std::size_t batch = noise.sampler().hardened() ? kHardenedBatch : kBatch;
  for (std::size_t start = 0; start < count; start += batch) {
    noise_batch(noise.sampler(), noise.granularity_exponent(), x + start, y + start,
                std::min(batch, count - start), bits, s);
  }
}

// Runs chunk_ok(chunk) for every chunk, then, when all were ok, work(chunk, scratch) for every
// chunk, on `threads` threads (chunks taken from shared counters; a barrier between the two
// passes, so nothing is drawn or written before every chunk passed). Returns false, having run
// no work, when a chunk was not ok. The first exception of any work is rethrown after all have
// joined. The check runs on every thread too: on one thread it would leave the others idle for
// its whole pass (a pass over x that is a few percent of the work).
template <class ChunkOk, class Work>
[[nodiscard]] bool run_chunks(std::size_t chunks, unsigned threads, const ChunkOk& chunk_ok, const Work& work) {
  const unsigned used = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(chunks, 1)));
  std::atomic<std::size_t> next_check{0};
  std::atomic<std::size_t> next{0};
  std::atomic<bool> refused{false};
  std::atomic<bool> failed{false};
  std::barrier checked(static_cast<std::ptrdiff_t>(used));
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (std::size_t c = next_check++; c < chunks; c = next_check++) {
      if (!chunk_ok(c)) refused = true;
    }
    checked.arrive_and_wait();
    if (refused) return;
    try {
      Scratch s;
      for (std::size_t c = next++; c < chunks && !failed; c = next++) work(c, s);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(used - 1);
  try {
    for (unsigned t = 1; t < used; ++t) pool.emplace_back(worker);
  } catch (...) {  // a thread that could not start: the barrier no longer waits for it
    for (std::size_t t = pool.size() + 1; t < used; ++t) checked.arrive_and_drop();
    refused = true;  // nothing is drawn; the threads started end after the check
    for (auto& t : pool) t.join();
    throw;
  }
  worker();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  return !refused;
}

template <class Float>
void add_noise_threads(const GridNoise& noise, std::span<const Float> x, std::span<Float> y,
                       const std::optional<Seed>& seed, unsigned threads) {
  if (threads < 1 || threads > kMaxGridNoiseThreads) {
    throw ParameterError::out_of_range("threads", std::to_string(threads),
                                       "1 <= threads <= " + std::to_string(kMaxGridNoiseThreads));
  }
  check_shapes(x, y);
  const std::size_t chunks = (x.size() + kGridNoiseChunk - 1) / kGridNoiseChunk;
  auto range_of = [&](std::size_t c) {
    const std::size_t start = c * kGridNoiseChunk;
    return std::pair{start, std::min(kGridNoiseChunk, x.size() - start)};
  };
  auto chunk_finite = [&](std::size_t c) {
    const auto [start, count] = range_of(c);
    return all_finite_bits(x.data() + start, count);
  };
  bool ran = false;
  if (seed) {
    ran = run_chunks(chunks, threads, chunk_finite, [&](std::size_t c, Scratch& s) {
      const uint128 block = static_cast<uint128>(c) << 64;  // chunk c: its own substream
      if (s.seeded) {
        s.seeded->seek(block);
      } else {
        s.seeded = std::make_unique<SeededBits>(*seed, block);
      }
      const auto [start, count] = range_of(c);
      noise_range(noise, x.data() + start, y.data() + start, count, *s.seeded, s);
    });
  } else {
    ran = run_chunks(chunks, threads, chunk_finite, [&](std::size_t c, Scratch& s) {
      thread_local std::unique_ptr<SystemBits> bits;  // one OS-CSPRNG source per thread
      if (!bits) bits = std::make_unique<SystemBits>();
      const auto [start, count] = range_of(c);
      noise_range(noise, x.data() + start, y.data() + start, count, *bits, s);
    });
  }
  if (!ran) check_finite(x);  // names the first non-finite x[i]
}

template <class Float>
void add_noise_bits(const GridNoise& noise, std::span<const Float> x, std::span<Float> y, BitSource& bits) {
  check_arguments(x, y);
  Scratch s;
  noise_range(noise, x.data(), y.data(), x.size(), bits, s);
}

}  // namespace

void add_noise(const GridNoise& noise, std::span<const double> x, std::span<double> y, BitSource& bits) {
  add_noise_bits(noise, x, y, bits);
}
void add_noise(const GridNoise& noise, std::span<const float> x, std::span<float> y, BitSource& bits) {
  add_noise_bits(noise, x, y, bits);
}
void add_noise(const GridNoise& noise, std::span<const double> x, std::span<double> y,
               const std::optional<Seed>& seed, unsigned threads) {
  add_noise_threads(noise, x, y, seed, threads);
}
void add_noise(const GridNoise& noise, std::span<const float> x, std::span<float> y,
               const std::optional<Seed>& seed, unsigned threads) {
  add_noise_threads(noise, x, y, seed, threads);
}

}  // namespace exactdp::mechanisms
