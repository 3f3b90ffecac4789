// How idle OpenMP threads wait. libgomp, unless OMP_WAIT_POLICY says otherwise, lets a thread
// that finished its share of a parallel loop spin for a while (about 300000 rounds) before it
// sleeps. The native engine's families read a chunk of numbers on one thread and then count it
// on several, so between two loops their helpers spin through every read; in a sharded run, where
// every core already has a worker of its own, that spinning takes the cores the other workers
// need (measured: one BigCrush AutoCor test, 21.1 CPU s spinning against 12.4 s sleeping, the
// same wall time). libgomp reads its environment once, when it is loaded, so the policy is set
// by starting the program again with it. A policy already set is kept, and the program is not
// started again (so setting one runs rngvet under a debugger or valgrind as it is started).
#pragma once

namespace rngvet {

// Where OMP_WAIT_POLICY is unset: sets it to PASSIVE and starts this program again with the same
// arguments (execv of /proc/self/exe); returns only where the variable was set already or the
// new start failed (the run then goes on with libgomp's default). Called first thing in main,
// before anything is opened or read.
void start_with_passive_openmp_waits(char** argv);

} // namespace rngvet
