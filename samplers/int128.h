// int128.h — 128-bit integer types for the fast path (GCC/Clang extension, marked so that
// -Wpedantic builds accept it).
#pragma once

namespace exactdp {
__extension__ typedef unsigned __int128 uint128;
__extension__ typedef __int128 int128;
}  // namespace exactdp
