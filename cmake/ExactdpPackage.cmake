# CPack: three Debian packages from the install components (cmake/ExactdpInstall.cmake), made by
# scripts/package (configured with CMAKE_INSTALL_PREFIX=/usr, so LIBDIR is lib/<multiarch>):
#   libexactdp0     runtime: libexactdp.so.0 (the C interface)
#   libexactdp-dev  headers, static libraries, the libexactdp.so link, exactdp.pc, CMake package
#   exactdp         the exactdp command
# Library dependencies (libc6, libstdc++6, libgmp10, libmpfr6, libsodium23) come from
# dpkg-shlibdeps; the -dev package names the -dev packages its headers and static libraries need.
set(CPACK_PACKAGE_NAME exactdp)
set(CPACK_PACKAGE_VENDOR "exactdp")
set(CPACK_PACKAGE_CONTACT "exactdp maintainers <exactdp@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev tools)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_STRIP_FILES ON)   # the shared library and the command (static libraries are not stripped)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libexactdp0)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "exact differential-privacy samplers and certified accounting (C library)\n libexactdp.so.0: the C interface <exactdp/exactdp.h>.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libexactdp-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "libexactdp0 (= ${PROJECT_VERSION}-1), libgmp-dev, libmpfr-dev, libsodium-dev, pkgconf | pkg-config")
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS OFF)
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "exact differential-privacy samplers and certified accounting (development files)\n Headers <exactdp/...>, static C++ layer libraries, exactdp.pc and the CMake package.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME exactdp)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION science)
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
    "exact differential-privacy samplers and certified accounting (command)\n The exactdp command: exact noise, certified accounting, audits.")
include(CPack)
