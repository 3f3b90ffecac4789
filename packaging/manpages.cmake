# Writes the man pages of rngvet and its commands from their --help, into OUTPUT_DIR:
#   cmake -DRNGVET=path/to/rngvet -DOUTPUT_DIR=dir -DVERSION=x.y.z -P manpages.cmake
# Each page is the command's --help (whose option values are written from the parsers' own
# tables, so the page names every value the command accepts), then EXIT STATUS, ENVIRONMENT,
# EXAMPLES and SEE ALSO. rngvet-campaign(5) and librngvet(3) are written by hand beside this
# script and installed with these.
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
# Commands whose page also holds each subcommand's --help.
set(_subcommands_campaign plan submit status merge resubmit run)
set(_subcommands_dc create verify)

# Examples, one "command|what it does" per entry (a command holds no '|').
set(_examples_rngvet
  "rngvet list|the generators, batteries, parameter sets, option values and backends of this build"
  "rngvet run --generator ranmar48 --seed 1802,9373 --battery smallcrush|SmallCrush on CERNLIB's RM48, stored in rngvet.sqlite"
  "rngvet report --out report.md|the report of every stored run")
set(_examples_list
  "rngvet list|everything this build knows, and the backends available here")
set(_examples_run
  "rngvet run --generator ranmar48 --seed 1802,9373 --battery SmallCrush|SmallCrush (any case) on one RM48 stream"
  "rngvet run -g ranmar48x -s 1802,9373 -n 8 --layout request:100 --seeding split:1000000 -b crush -j 8|Crush on 8 instances served 100 numbers a request, each instance a segment of one stream, 8 worker processes"
  "rngvet run -g mtdc --params nvidia-sdk-mt607 -s 777 -n 4096 --backend auto -b rabbit --nb 2^30|Rabbit on the NVIDIA SDK's 4096 twisters, on the faster backend here"
  "rngvet run --resume 3 --jobs 4|Finish run 3 of rngvet.sqlite, running only its missing tests")
set(_examples_status
  "rngvet status --db results.sqlite|each run with its progress")
set(_examples_campaign
  "rngvet campaign plan campaign.ini --nodes 4|tasks, CPU hours and wall time on four nodes"
  "rngvet campaign submit campaign.ini --slurm --out big|write the scripts into big/ and submit them"
  "rngvet campaign run campaign.ini --jobs 8|the same campaign on this machine")
set(_examples_report
  "rngvet report --db results.sqlite --out report.md --compare|the comparison across seeds, with SVG plots beside report.md"
  "rngvet report --fail-on suspect|exit 1 when a stored p-value is suspect")
set(_examples_generate
  "rngvet generate -g ranmar48 -s 1802,9373 --zero smallest --count 10 --format text-double|CORSIKA's first ten numbers"
  "rngvet generate -g mt19937 -s 5489 --count inf | dieharder -a -g 200|an endless stream for another test suite")
set(_examples_validate
  "rngvet validate|the built-in checks on the cpu backend"
  "rngvet validate --backend cuda --quiet|the same on CUDA, failures only"
  "rngvet validate --engine native --battery crush --tests 1,2|the native engine against TestU01 on two Crush tests")
set(_examples_bench
  "rngvet bench --backend cpu,openmp --csv bench.csv|throughput per configuration, written to bench.csv"
  "rngvet bench --feed smallcrush --backend auto|the cost of feeding SmallCrush from the faster backend")
set(_examples_dc
  "rngvet dc create --p 521 --count 32 --seed 4172 --out sets.txt|32 MT521 parameter sets"
  "rngvet dc verify nvidia-sdk-mt607|check the NVIDIA SDK's built-in sets")

set(_environment [=[
.TP
.B RNGVET_OPENCL_DEVICE
The OpenCL device of the opencl backend: an index, or part of a device name
(such as nvidia or portable). Default: the first GPU, else device 0.
The stream does not change.
.TP
.B RNGVET_MT_KERNEL
Forces CUDA's Mersenne Twister kernel: registers, registers:1, registers:2,
lanes or words; otherwise it is chosen by the parameter sets and the number of
instances. The stream does not change.
.TP
.B RNGVET_RANMAR_KERNEL
Forces CUDA's jump-parallel RANMAR kernel under interleave: segments (one warp
per unit, as for the other layouts) or interleaved:T (blocks of the same unit of
T instances, T from 1 to 8); otherwise blocks of min(N, 8) instances from 2
instances on. The stream does not change.
.TP
.B CUDA_VISIBLE_DEVICES
Read by campaign run --gpus G: its first G entries are the devices the tasks are
spread over (each task's process sees one of them alone); unset, 0 to G-1.
.TP
.B RNGVET_ISING_OVERLAP_FILLS
Set to 1: the ising battery's Metropolis chain on a CUDA device generates each
block of numbers beside the updates of the block before, into a second buffer,
rather than after them, to measure what the overlap gives. The statistics do
not change.
.TP
.B RNGVET_SHARD_THREADS
Threads of each native test in a sharded run (1 to 4096); unset, on a CUDA
device every core the run may use (the kernel shares them), on the host twice
the cores shared by the tests running at once. The p-values do not change.
.TP
.B RNGVET_AUTO_GPU
For --backend auto on a machine without a GPU: the available backend (such as
opencl) that plays the GPU's part. Meant for tests.
.TP
.B XDG_CACHE_HOME
The cache directory is $XDG_CACHE_HOME/rngvet, else $HOME/.cache/rngvet.
Its verified-params/ folder holds one empty file per SHA-256 of a parameter-set
file that passed the checks of rngvet dc verify, so that a later run does not
check it again. Deleting the cache only costs that check.
.TP
.B HOME
See XDG_CACHE_HOME.
.TP
.B PATH
Where rngvet campaign submit finds sbatch.
.TP
.B OMP_WAIT_POLICY
How idle OpenMP threads wait. Where it is unset, rngvet sets it to PASSIVE
(they sleep, leaving the cores to other workers) and starts itself again with
it, since the OpenMP runtime reads it only when loaded. Set it (to ACTIVE or
PASSIVE) to keep that choice, or to run rngvet without the restart, e.g. under
a debugger or valgrind.
.TP
.B RNGVET_DIE_WITH_PARENT
Set by rngvet campaign run for the task runs it starts; not meant to be set by
hand.
]=])

file(MAKE_DIRECTORY ${OUTPUT_DIR})

# roff needs its backslashes doubled and a leading '.' or "'" escaped.
function(_rngvet_roff text out)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The EXAMPLES section of a page from its "command|what" entries.
function(_rngvet_examples out)
  set(text "")
  foreach(_e IN LISTS ARGN)
    string(FIND "${_e}" "|" _bar)
    string(SUBSTRING "${_e}" 0 ${_bar} _command)
    math(EXPR _after "${_bar} + 1")
    string(SUBSTRING "${_e}" ${_after} -1 _what)
    _rngvet_roff("${_command}" _command)
    _rngvet_roff("${_what}" _what)
    string(APPEND text ".PP\n${_what}:\n.RS\n.nf\n${_command}\n.fi\n.RE\n")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# SEE ALSO: every other page of rngvet.
function(_rngvet_see_also self out)
  set(pages "rngvet(1)")
  foreach(_c IN LISTS _commands)
    list(APPEND pages "rngvet-${_c}(1)")
  endforeach()
  list(APPEND pages "rngvet-campaign(5)" "librngvet(3)")
  list(REMOVE_ITEM pages "${self}")
  list(LENGTH pages _count)
  set(text ".nh\n.ad l\n")
  set(_i 0)
  foreach(_p IN LISTS pages)
    math(EXPR _i "${_i} + 1")
    set(_comma ",")
    if(_i EQUAL _count)
      set(_comma "")
    endif()
    string(REGEX REPLACE "^(.*)\\((.)\\)$" ".BR \\1 (\\2)${_comma}" _line "${_p}")
    string(APPEND text "${_line}\n")
  endforeach()
  string(APPEND text ".PP\nThe documentation in /usr/share/doc/rngvet.\n")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(_rngvet_page file title name summary help examples_var)
  _rngvet_roff("${help}" body)
  _rngvet_examples(examples ${${examples_var}})
  _rngvet_see_also("${name}(1)" see_also)
  file(WRITE ${file}
    ".TH ${title} 1 \"\" \"rngvet ${VERSION}\" \"User Commands\"\n"
    ".SH NAME\n${name} \\- ${summary}\n"
    ".SH SYNOPSIS AND OPTIONS\n.nf\n${body}.fi\n"
    ".SH EXIT STATUS\n0 on success; 1 when a run or a check fails or the machine does (a full disk,\n"
    "an output that cannot be written); 2 for bad input, before anything is stored; 3 when a\n"
    "--fail-on gate is reached (run, report, campaign merge) and nothing else failed; 130 when\n"
    "interrupted by SIGINT or SIGTERM.\n"
    ".SH ENVIRONMENT\n${_environment}"
    ".SH EXAMPLES\n${examples}"
    ".SH SEE ALSO\n${see_also}")
endfunction()

execute_process(COMMAND ${RNGVET} --help OUTPUT_VARIABLE _help RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "rngvet --help failed: ${_rc}")
endif()
_rngvet_page(${OUTPUT_DIR}/rngvet.1 RNGVET rngvet
  "validate parallel random number generators with TestU01" "${_help}" _examples_rngvet)
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
    string(APPEND _help "\n${_sub}")
  endforeach()
  string(TOUPPER "rngvet-${_c}" _title)
  _rngvet_page(${OUTPUT_DIR}/rngvet-${_c}.1 ${_title} rngvet-${_c} "${_summary_${_c}}" "${_help}"
    _examples_${_c})
endforeach()
