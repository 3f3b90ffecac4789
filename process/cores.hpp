// The cores this process may run on.
#pragma once

namespace rngvet {

// The processors in this process's affinity mask (what `taskset`, a cgroup's cpuset or a Slurm
// allocation leaves it), at least 1; the machine's online processors where the mask cannot be
// read. A 16-core allocation on a 64-core node is 16 here, not 64.
int usable_cores();

} // namespace rngvet
