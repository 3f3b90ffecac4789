# The rngvet version and the git commit it was built from, recorded with every run.
find_package(Git QUIET)
set(RNGVET_GIT_COMMIT "unknown")
if(GIT_FOUND AND EXISTS "${PROJECT_SOURCE_DIR}/.git")
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE RNGVET_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(NOT RNGVET_GIT_COMMIT)
    set(RNGVET_GIT_COMMIT "unknown")
  endif()
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/version.hpp.in
               ${PROJECT_BINARY_DIR}/generated/rngvet/version.hpp @ONLY)
