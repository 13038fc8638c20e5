# Warnings and sanitizers for every exactdp target: call exactdp_target_defaults(tgt).
function(exactdp_target_defaults tgt)
  target_compile_options(${tgt} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                        -Wimplicit-fallthrough)
  if(EXACTDP_WERROR)
    target_compile_options(${tgt} PRIVATE -Werror)
  endif()
endfunction()

if(EXACTDP_SANITIZE)
  string(REPLACE ";" "," _exactdp_san "${EXACTDP_SANITIZE}")
  add_compile_options(-fsanitize=${_exactdp_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_exactdp_san})
endif()
