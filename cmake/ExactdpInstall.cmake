# `cmake --install` exports find_package(exactdp) targets and a pkg-config file.
include(CMakePackageConfigHelpers)
install(TARGETS exactdp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS exactdp_samplers exactdp_accounting exactdp_mechanisms exactdp_verification exactdp_all
        EXPORT exactdpTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(layer samplers accounting mechanisms verification)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${layer}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/exactdp/${layer}
          FILES_MATCHING PATTERN "*.h" PATTERN "exactdp.h" EXCLUDE)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/mechanisms/exactdp.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/exactdp)
install(EXPORT exactdpTargets NAMESPACE exactdp:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/exactdp)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/exactdpConfig.cmake.in
  ${PROJECT_BINARY_DIR}/exactdpConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/exactdp)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/exactdpConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/exactdpConfig.cmake ${PROJECT_BINARY_DIR}/exactdpConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/exactdp)
configure_file(${PROJECT_SOURCE_DIR}/cmake/exactdp.pc.in ${PROJECT_BINARY_DIR}/exactdp.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/exactdp.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
