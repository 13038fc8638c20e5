// wide_value.h — a draw of a batch that does not fit in int64, kept whole (sample_n_wide).
#pragma once

#include <gmpxx.h>

#include <cstddef>

namespace exactdp {

struct WideValue {
  std::size_t index;  // its position in the batch (out[index] holds 0)
  mpz_class value;    // the exact value
};

}  // namespace exactdp
