# Required dependencies. Each failure names the Debian package to install (scripts/setup does).

find_path(TESTU01_INCLUDE_DIR TestU01.h)
find_library(TESTU01_LIBRARY testu01)
find_library(TESTU01_PROBDIST_LIBRARY testu01probdist)
find_library(TESTU01_MYLIB_LIBRARY testu01mylib)
if(NOT TESTU01_INCLUDE_DIR OR NOT TESTU01_LIBRARY OR NOT TESTU01_PROBDIST_LIBRARY
   OR NOT TESTU01_MYLIB_LIBRARY)
  message(FATAL_ERROR "TestU01 not found: install libtestu01-0-dev (Debian non-free; "
                      "scripts/setup enables non-free and installs it)")
endif()
add_library(rngvet::testu01 INTERFACE IMPORTED)
target_include_directories(rngvet::testu01 INTERFACE ${TESTU01_INCLUDE_DIR})
target_link_libraries(rngvet::testu01 INTERFACE
  ${TESTU01_LIBRARY} ${TESTU01_PROBDIST_LIBRARY} ${TESTU01_MYLIB_LIBRARY} m)

find_package(Boost 1.71 COMPONENTS program_options)
if(NOT Boost_PROGRAM_OPTIONS_FOUND)
  message(FATAL_ERROR "Boost.Program_options not found: install libboost-program-options-dev")
endif()

find_package(SQLite3)
if(NOT SQLite3_FOUND)
  message(FATAL_ERROR "SQLite3 not found: install libsqlite3-dev")
endif()

find_package(Threads REQUIRED)
