# Writes the man pages of rngvet and its commands from their --help, into OUTPUT_DIR:
#   cmake -DRNGVET=path/to/rngvet -DOUTPUT_DIR=dir -DVERSION=x.y.z -P manpages.cmake
set(_commands list run status campaign report generate validate bench dc)
set(_summary_list "generators, batteries and backends of this build")
set(_summary_run "run a TestU01 battery on a configuration and store it")
set(_summary_status "runs in a database and their progress")
set(_summary_campaign "configurations x seeds as tasks on a Slurm queue or here")
set(_summary_report "the report of stored runs: markdown, JSON or JUnit XML")
set(_summary_generate "write a configuration's stream for other tools")
set(_summary_validate "known answers, output contracts, layouts, instances")
set(_summary_bench "throughput of configurations and references, per backend")
set(_summary_dc "Dynamic Creator: create and verify MT parameter sets")

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
    ".SH EXIT STATUS\n0 on success; 1 when a run or a check fails or the machine does (a full disk,\n"
    "an output that cannot be written); 2 for bad input, before anything is stored; 3 when a\n"
    "--fail-on gate is reached (run, report, campaign merge) and nothing else failed; 130 when\n"
    "interrupted by SIGINT or SIGTERM.\n"
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
  string(TOUPPER "rngvet-${_c}" _title)
  _rngvet_page(${OUTPUT_DIR}/rngvet-${_c}.1 ${_title} rngvet-${_c} "${_summary_${_c}}" "${_help}")
endforeach()
