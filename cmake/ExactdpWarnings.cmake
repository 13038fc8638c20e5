# Warnings and sanitizers for every exactdp target: call exactdp_target_defaults(tgt).
# C targets (the C interface's test program) get the same warnings minus the C++-only ones.
function(exactdp_target_defaults tgt)
  target_compile_options(${tgt} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wimplicit-fallthrough
                                        $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>)
  if(EXACTDP_WERROR)
    target_compile_options(${tgt} PRIVATE -Werror)
  endif()
endfunction()

if(EXACTDP_SANITIZE)
  string(REPLACE ";" "," _exactdp_san "${EXACTDP_SANITIZE}")
  add_compile_options(-fsanitize=${_exactdp_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_exactdp_san})
endif()

# EXACTDP_BUILD_FUZZERS: every target of the project is compiled with libFuzzer's coverage
# instrumentation (-fsanitize=fuzzer-no-link) so libFuzzer sees the libraries' coverage, and every
# link carries the flag too, so that executables which are not fuzzers (the command, the examples,
# the tests) get the coverage callbacks' runtime and link. The fuzz targets add -fsanitize=fuzzer.
if(EXACTDP_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "EXACTDP_BUILD_FUZZERS=ON needs clang (CC=clang CXX=clang++)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
  add_link_options(-fsanitize=fuzzer-no-link)
endif()
