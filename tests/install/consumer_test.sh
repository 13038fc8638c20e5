#!/usr/bin/env bash
# tests/install/consumer_test.sh — build and run programs against an INSTALLED exactdp only.
#
#   consumer_test.sh --build-dir BUILD [--version X.Y.Z]
#       (the ctest test install_consumer) `cmake --install BUILD` into a temporary prefix, run the
#       checks below against it, then move the whole tree elsewhere (mv) and run them again: the
#       package must be relocatable.
#   consumer_test.sh --prefix PREFIX [--version X.Y.Z]
#       run the checks against an existing installation, e.g. --prefix /usr after installing the
#       Debian packages (scripts/package --test).
#
# Checks, for one prefix (the consumers are copied out of the source tree first, and nothing but
# the prefix is put on a search path: PKG_CONFIG_PATH and CMAKE_PREFIX_PATH):
#   1. C99 through pkg-config, shared: links libexactdp.so.0 (checked in DT_NEEDED), runs.
#   2. C99 through `pkg-config --static` and -static: no libexactdp.so needed, runs.
#   3. a CMake C project (consumer_c/) linking exactdp::c, runs.
#   4. a CMake C++ project (consumer_cxx/) using the C++ facade (<exactdp/sampler.h>, ...) and
#      linking exactdp::exactdp (the static layer libraries), runs.
#   and no installed pkg-config or CMake file names the build machine's paths or the prefix.
# CC and CXX choose the compilers (default cc and c++). Exit 0 when everything passes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/install/install_args.sh
source "$here/install_args.sh"
parse_install_args with-version "$@"
if [[ -n "$build_dir" ]]; then build_dir=$(cd "$build_dir" && pwd); fi
cc=${CC:-cc}
cxx=${CXX:-c++}
work=$(mktemp -d "${TMPDIR:-/tmp}/exactdp-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$here/consumer_c" "$here/consumer_cxx" "$work/"

fail() { echo "consumer_test: FAILED: $*" >&2; exit 1; }
say() { echo "consumer_test: $*"; }

# check_prefix PREFIX LABEL
check_prefix() {
  local p=$1 label=$2 out="$work/out-$2"
  mkdir -p "$out"
  local pc
  pc=$(find "$p"/lib* -maxdepth 3 -path '*/pkgconfig/exactdp.pc' 2>/dev/null | head -n 1)
  [[ -n "$pc" ]] || fail "no exactdp.pc under $p"
  local pcdir libdir
  pcdir=$(dirname "$pc")
  libdir=$(dirname "$pcdir")
  say "[$label] prefix $p, exactdp.pc in $pcdir"

  # Nothing installed may name the build machine's folders, nor the prefix itself (relocatable).
  local f
  for f in "$pc" "$libdir"/cmake/exactdp/*.cmake; do
    for path in ${build_dir:+"$build_dir"} "$(cd "$here/../.." && pwd)" "$p"; do
      [[ "$path" == / || "$path" == /usr ]] && continue
      if grep -qF "$path" "$f"; then fail "$f names $path (not relocatable)"; fi
    done
  done

  export PKG_CONFIG_PATH="$pcdir"
  local cflags libs static_libs
  cflags=$(pkg-config --cflags exactdp)
  libs=$(pkg-config --libs exactdp)
  static_libs=$(pkg-config --static --libs exactdp)
  [[ "$(pkg-config --modversion exactdp)" == "${version:-$(pkg-config --modversion exactdp)}" ]] ||
    fail "pkg-config --modversion exactdp is $(pkg-config --modversion exactdp), expected $version"

  # 1. C99, shared library.
  # shellcheck disable=SC2086
  "$cc" -std=c99 -Wall -Wextra -Werror "$work/consumer_c/consumer.c" -o "$out/c_shared" $cflags $libs ||
    fail "[$label] C program through pkg-config (shared) did not build: $cc ... $cflags $libs"
  readelf -d "$out/c_shared" | grep -q 'NEEDED.*\[libexactdp\.so\.0\]' ||
    fail "[$label] the pkg-config C program does not need libexactdp.so.0"
  LD_LIBRARY_PATH="$libdir" "$out/c_shared" $version || fail "[$label] C program (shared) failed"

  # 2. C99, static: libexactdp.a + the static C++ layers + GMP, MPFR, libsodium, libstdc++.
  # shellcheck disable=SC2086
  "$cc" -std=c99 -Wall -Wextra -Werror -static "$work/consumer_c/consumer.c" -o "$out/c_static" \
    $cflags $static_libs ||
    fail "[$label] C program through pkg-config --static did not build: $cc -static ... $cflags $static_libs"
  if readelf -d "$out/c_static" 2>/dev/null | grep -q 'NEEDED'; then
    fail "[$label] the static C program needs shared libraries"
  fi
  "$out/c_static" $version || fail "[$label] C program (static) failed"

  # 3 and 4. CMake projects through find_package(exactdp), this prefix only.
  local proj
  for proj in consumer_c consumer_cxx; do
    CC="$cc" CXX="$cxx" cmake -S "$work/$proj" -B "$out/$proj" -DCMAKE_PREFIX_PATH="$p" \
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release >"$out/$proj.log" 2>&1 ||
      { cat "$out/$proj.log"; fail "[$label] cmake configure of $proj"; }
    cmake --build "$out/$proj" -j2 >>"$out/$proj.log" 2>&1 ||
      { cat "$out/$proj.log"; fail "[$label] cmake build of $proj"; }
    grep -q "exactdp_DIR:PATH=$p" "$out/$proj/CMakeCache.txt" ||
      fail "[$label] $proj found exactdp somewhere else: $(grep exactdp_DIR "$out/$proj/CMakeCache.txt")"
  done
  "$out/consumer_c/consumer_c" $version || fail "[$label] CMake C project failed"
  readelf -d "$out/consumer_c/consumer_c" | grep -q 'NEEDED.*\[libexactdp\.so\.0\]' ||
    fail "[$label] the CMake C project does not use libexactdp.so.0"
  "$out/consumer_cxx/consumer_cxx" || fail "[$label] CMake C++ project failed"
  say "[$label] pkg-config C (shared, static), CMake C (exactdp::c), CMake C++ (exactdp::exactdp): ok"
}

start=$SECONDS
if [[ -n "$build_dir" ]]; then
  cmake --install "$build_dir" --prefix "$work/installed" >"$work/install.log" ||
    { cat "$work/install.log"; fail "cmake --install"; }
  check_prefix "$work/installed" installed
  mkdir -p "$work/elsewhere"
  mv "$work/installed" "$work/elsewhere/moved"
  check_prefix "$work/elsewhere/moved" moved
else
  check_prefix "$prefix" system
fi
say "all checks passed in $((SECONDS - start)) s"
