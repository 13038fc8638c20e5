# `cmake --install` lays out (relative to the prefix; LIBDIR is lib, or lib/<multiarch> under /usr):
#   LIBDIR/libexactdp.so.X.Y.Z, .so.0 (SONAME), .so   the C interface, shared (component runtime; the
#                                                     .so link goes with dev)
#   LIBDIR/libexactdp.a                               the C interface, static (same objects as
#                                                     libexactdp_c_api.a; for pkg-config --static)
#   LIBDIR/libexactdp_<layer>.a                       the layers of EXACTDP_LAYERS (static only)
#   include/exactdp/...                               the public headers, included as <exactdp/...>:
#                                                     the source tree's include/exactdp/ (below)
#   LIBDIR/pkgconfig/exactdp.pc                       relocatable: prefix from ${pcfiledir}
#   LIBDIR/cmake/exactdp/                             find_package(exactdp): exactdp::exactdp, the
#                                                     layer targets exactdp::samplers ..., exactdp::c
#   bin/exactdp                                       the command (component tools)
# Nothing installed holds an absolute path of the build machine: the CMake files use the
# generated _IMPORT_PREFIX logic and the .pc file ${pcfiledir}. Components runtime, dev and tools
# become the Debian packages (cmake/ExactdpPackage.cmake).
include(CMakePackageConfigHelpers)
install(TARGETS exactdp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
install(TARGETS exactdp_c EXPORT exactdpTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
install(TARGETS ${EXACTDP_LAYER_TARGETS} exactdp_all
        EXPORT exactdpTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT dev)
install(FILES $<TARGET_FILE:exactdp_c_api> DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RENAME ${CMAKE_STATIC_LIBRARY_PREFIX}exactdp${CMAKE_STATIC_LIBRARY_SUFFIX} COMPONENT dev)

# The headers: exactly the folder include/exactdp/ of the source tree, as it is (docs/ABI.md lists
# it): the C interface exactdp.h, the C++ facade beside it and the few core headers it needs.
# No layer folder installs a header. What makes this safe: every installed header includes only
# installed ones (and system, GMP, MPFR headers) and compiles on its own from the installed tree
# (test installed_headers, tests/install/).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/exactdp/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/exactdp
        COMPONENT dev FILES_MATCHING PATTERN "*.h")
install(EXPORT exactdpTargets NAMESPACE exactdp:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/exactdp
        COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/exactdpConfig.cmake.in
  ${PROJECT_BINARY_DIR}/exactdpConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/exactdp)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/exactdpConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/exactdpConfig.cmake ${PROJECT_BINARY_DIR}/exactdpConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/exactdp COMPONENT dev)

# exactdp.pc: prefix is ${pcfiledir} followed by one ".." per component of LIBDIR/pkgconfig
# (lib/pkgconfig -> ../.., lib/x86_64-linux-gnu/pkgconfig -> ../../..), so the installed tree can
# be moved. An absolute LIBDIR cannot be relocated and is written as it is.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(EXACTDP_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(EXACTDP_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(EXACTDP_PC_PREFIX "\${pcfiledir}")
  string(REPLACE "/" ";" _parts "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
  foreach(_part ${_parts})
    string(APPEND EXACTDP_PC_PREFIX "/..")
  endforeach()
  set(EXACTDP_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(EXACTDP_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(EXACTDP_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# pkg-config --static: libexactdp.a holds the c_api layer; the layers before it in
# EXACTDP_LAYERS follow it, last first (a static library goes before the ones it uses).
list(FIND EXACTDP_LAYERS c_api _c_api_at)
list(SUBLIST EXACTDP_LAYERS 0 ${_c_api_at} _below)
list(REVERSE _below)
set(EXACTDP_PC_LIBS_PRIVATE "")
foreach(_layer ${_below})
  string(APPEND EXACTDP_PC_LIBS_PRIVATE "-lexactdp_${_layer} ")
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/exactdp.pc.in ${PROJECT_BINARY_DIR}/exactdp.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/exactdp.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT dev)
