# Writes the man pages of rngvet and its commands from their --help, into OUTPUT_DIR:
#   cmake -DRNGVET=path/to/rngvet -DOUTPUT_DIR=dir -DVERSION=x.y.z -P manpages.cmake
set(_commands list run status campaign report generate validate bench dc)
set(_summary_list "generators, batteries and backends of this build")
set(_summary_run "run a TestU01 battery on a configuration and store it")
set(_summary_status "runs in a database and their progress")
set(_summary_campaign "configurations x seeds as tasks on a Slurm queue or here")
set(_summary_report "write the markdown report of stored runs")
set(_summary_generate "write a configuration's stream for other tools")
set(_summary_validate "known answers, output contracts, layouts, instances")
set(_summary_bench "throughput of configurations and references, per backend")
set(_summary_dc "Dynamic Creator: create and verify MT parameter sets")
# Commands whose page also holds each subcommand's --help (their options).
set(_subcommands_campaign plan submit status merge resubmit run)
set(_subcommands_dc create verify)

file(MAKE_DIRECTORY ${OUTPUT_DIR})

# roff needs its backslashes doubled and a leading '.' or "'" escaped.
function(_rngvet_roff text out)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(_rngvet_page file title name summary help)
  _rngvet_roff("${help}" body)
  file(WRITE ${file}
    ".TH ${title} 1 \"\" \"rngvet ${VERSION}\" \"User Commands\"\n"
    ".SH NAME\n${name} \\- ${summary}\n"
    ".SH SYNOPSIS AND OPTIONS\n.nf\n${body}.fi\n"
    ".SH EXIT STATUS\n0 on success; 1 when the machine fails (a full disk, an output that cannot\n"
    "be written) or a --fail-on gate is reached; 2 for bad input, before anything is stored.\n"
    ".SH SEE ALSO\nrngvet(1); the documentation in /usr/share/doc/rngvet.\n")
endfunction()

execute_process(COMMAND ${RNGVET} --help OUTPUT_VARIABLE _help RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "rngvet --help failed: ${_rc}")
endif()
_rngvet_page(${OUTPUT_DIR}/rngvet.1 RNGVET rngvet
  "validate parallel random number generators with TestU01" "${_help}")
foreach(_c IN LISTS _commands)
  execute_process(COMMAND ${RNGVET} ${_c} --help OUTPUT_VARIABLE _help RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "rngvet ${_c} --help failed: ${_rc}")
  endif()
  foreach(_s IN LISTS _subcommands_${_c})
    execute_process(COMMAND ${RNGVET} ${_c} ${_s} --help OUTPUT_VARIABLE _sub RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "rngvet ${_c} ${_s} --help failed: ${_rc}")
    endif()
    string(APPEND _help "\nrngvet ${_c} ${_s}\n${_sub}")
  endforeach()
  string(TOUPPER "rngvet-${_c}" _title)
  _rngvet_page(${OUTPUT_DIR}/rngvet-${_c}.1 ${_title} rngvet-${_c} "${_summary_${_c}}" "${_help}")
endforeach()
