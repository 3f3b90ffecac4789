# Turns a data file into a comma-separated list of byte literals for an array initialiser, so
# the rngvet binary carries the file's exact bytes (and so its SHA-256) without needing it at
# run time.  Usage: cmake -DINPUT=<file> -DOUTPUT=<file.inc> -P embed_bytes.cmake
if(NOT DEFINED INPUT OR NOT DEFINED OUTPUT)
  message(FATAL_ERROR "embed_bytes.cmake: set INPUT and OUTPUT")
endif()
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# 16 bytes a line (CMake's regular expressions have no {n} repetition).
string(REPEAT "0x..," 16 line_pattern)
string(REGEX REPLACE "(${line_pattern})" "\\1\n" bytes "${bytes}")
get_filename_component(name "${INPUT}" NAME)
file(WRITE "${OUTPUT}.tmp" "// Generated from ${name} by embed_bytes.cmake; do not edit.\n${bytes}\n")
configure_file("${OUTPUT}.tmp" "${OUTPUT}" COPYONLY)
file(REMOVE "${OUTPUT}.tmp")
