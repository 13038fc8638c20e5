# exactdp_add_layer(<layer> <link dependencies...>): the library of one layer folder
# (shared/DESIGN.md section 1): exactdp_<layer>, alias exactdp::<layer>, its sources globbed from
# the folder (add a .cc beside its .h and re-run cmake), the include root (<exactdp/...>), the given PUBLIC link
# dependencies and exactdp_target_defaults.
function(exactdp_add_layer layer)
  file(GLOB_RECURSE _srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  add_library(exactdp_${layer} STATIC ${_srcs})
  add_library(exactdp::${layer} ALIAS exactdp_${layer})
  set_target_properties(exactdp_${layer} PROPERTIES EXPORT_NAME ${layer} POSITION_INDEPENDENT_CODE ON)
  target_include_directories(exactdp_${layer} PUBLIC $<BUILD_INTERFACE:${EXACTDP_BUILD_INCLUDE_DIR}>
                                                     $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(exactdp_${layer} PUBLIC ${ARGN})
  exactdp_target_defaults(exactdp_${layer})
endfunction()
