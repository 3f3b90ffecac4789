# The rngvet version and the git commit it was built from, recorded with every run.
#
# Included from CMakeLists.txt, it writes generated/rngvet/version.hpp and adds the target
# rngvet_version, which runs this file again as a script (cmake -P) at every build: the commit
# is read when the binary is built, not when CMake last configured, so a store never records the
# commit of an earlier configure. The header is rewritten only when its text changes, so an
# unchanged commit recompiles nothing. Targets that include the header depend on rngvet_version.
if(CMAKE_SCRIPT_MODE_FILE)
  set(source_dir "${RNGVET_SOURCE_DIR}")
  set(binary_dir "${RNGVET_BINARY_DIR}")
else()
  set(source_dir "${PROJECT_SOURCE_DIR}")
  set(binary_dir "${PROJECT_BINARY_DIR}")
  find_package(Git QUIET)
  set(GIT "${GIT_EXECUTABLE}")
endif()

set(RNGVET_GIT_COMMIT "unknown")
if(GIT AND EXISTS "${source_dir}/.git")
  execute_process(COMMAND "${GIT}" describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY "${source_dir}"
                  OUTPUT_VARIABLE RNGVET_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(NOT RNGVET_GIT_COMMIT)
    set(RNGVET_GIT_COMMIT "unknown")
  endif()
endif()
configure_file("${source_dir}/cmake/version.hpp.in"
               "${binary_dir}/generated/rngvet/version.hpp" @ONLY)

if(NOT CMAKE_SCRIPT_MODE_FILE)
  add_custom_target(rngvet_version
    COMMAND "${CMAKE_COMMAND}" -DRNGVET_SOURCE_DIR=${PROJECT_SOURCE_DIR}
            -DRNGVET_BINARY_DIR=${PROJECT_BINARY_DIR} -DPROJECT_VERSION=${PROJECT_VERSION}
            -DGIT=${GIT_EXECUTABLE} -P "${PROJECT_SOURCE_DIR}/cmake/version.cmake"
    BYPRODUCTS "${PROJECT_BINARY_DIR}/generated/rngvet/version.hpp"
    COMMENT "Reading the git commit for rngvet/version.hpp")
endif()
