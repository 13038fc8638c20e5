# EXACTDP_LAYERS: the layer folders of the library, in dependency order (a layer uses only the
# layers before it). Each is one library, exactdp_<layer> (exactdp_add_layer below, called by the
# folder's CMakeLists.txt; the top CMakeLists.txt adds every folder of the list), its headers are
# included as <exactdp/<layer>/...> (the build tree links include/exactdp/<layer> to the folder)
# and cmake/ExactdpInstall.cmake installs the library and every header of the folder except those
# under an internal/ folder (at any depth). A new layer folder is one more word here.
set(EXACTDP_LAYERS core samplers accounting verification laws mechanisms operations c_api)
list(TRANSFORM EXACTDP_LAYERS PREPEND exactdp_ OUTPUT_VARIABLE EXACTDP_LAYER_TARGETS)

# exactdp_add_layer(<layer> <link dependencies...>): the library of one layer folder
# (docs/DESIGN.md, "Layers"): exactdp_<layer>, alias exactdp::<layer>, its sources globbed from
# the folder (add a .cc beside its .h and re-run cmake), the include root (<exactdp/...>), the given PUBLIC link
# dependencies and exactdp_target_defaults.
# Compiled with hidden visibility (-fvisibility=hidden -fvisibility-inlines-hidden): the only
# symbols a shared object made from this code exports are the ones marked EXACTDP_API (the C
# interface, <exactdp/exactdp.h>); see c_api/CMakeLists.txt for libexactdp.so.
function(exactdp_add_layer layer)
  file(GLOB_RECURSE _srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  add_library(exactdp_${layer} STATIC ${_srcs})
  add_library(exactdp::${layer} ALIAS exactdp_${layer})
  set_target_properties(exactdp_${layer} PROPERTIES EXPORT_NAME ${layer} POSITION_INDEPENDENT_CODE ON
                        CXX_VISIBILITY_PRESET hidden C_VISIBILITY_PRESET hidden
                        VISIBILITY_INLINES_HIDDEN ON)
  target_include_directories(exactdp_${layer} PUBLIC $<BUILD_INTERFACE:${EXACTDP_BUILD_INCLUDE_DIR}>
                                                     $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(exactdp_${layer} PUBLIC ${ARGN})
  target_compile_features(exactdp_${layer} PUBLIC cxx_std_20)   # the headers need C++20, users too
  exactdp_target_defaults(exactdp_${layer})
endfunction()
