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
