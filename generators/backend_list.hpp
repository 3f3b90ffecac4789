// The backends that run kernels, once: X(name, gpu) for each, in `rngvet list`'s order. `name` is
// its Backend value (registry.hpp, between cpu and automatic), its --backend word and the prefix
// of its functions (kernels/device.hpp: name_usable, name_device_names, make_name_device), whose
// folder is kernels/name/ (kernels/not_built.cpp stands in where it is not built); gpu is 1 where
// a generator must also run on GPUs (FamilyTraits::on_gpus) to run there.
#pragma once

#define RNGVET_FOR_EACH_KERNEL_BACKEND(X) X(openmp, 0) X(opencl, 1) X(cuda, 1)
