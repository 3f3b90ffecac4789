// The generator families that have kernels, listed once, and the dispatch over them and the
// backends (whose list is generators/backend_list.hpp).
//
// A family states its kernels once, as a traits struct beside its host-side setup
// (ranmar_device.hpp's RanmarKernels, mt_device.hpp's MtKernels, r250_device.hpp's R250Kernels):
//   family  its GeneratorFamily (generators/registry.hpp), which the dispatch matches;
//   form    KernelForm::grids (kernel bodies every backend runs through the launch plan) or
//           KernelForm::instance_loop (the reference step, instance by instance, OpenMP only;
//           the family then names its State and its step, next(State&));
//   Setup   what every backend uploads: the instances' states at combined index `start`, the
//           stream's `bits` and canonical `name`;
//   plan(c, options)   its jump-parallel plan on c.backend (SegmentPlan{} for none);
//   setup(c, plan)     the instances of a validated configuration, seeded and jumped.
// Each backend has one device template, make_<backend>_device<Family> (device.hpp), which its
// folder instantiates for every family of the list below (RNGVET_INSTANTIATE_DEVICES), as
// kernels/not_built.cpp does for a backend configured off. So a family with kernels is a traits
// struct with its setup plus one line of RNGVET_FOR_EACH_KERNEL_FAMILY. A backend is its own
// folder plus an entry in each of three files: its line of RNGVET_FOR_EACH_KERNEL_BACKEND
// (generators/backend_list.hpp), its RNGVET_NOT_BUILT block in kernels/not_built.cpp (what a
// build configured without it links instead) and its sources in kernels/CMakeLists.txt.
#pragma once

#include "generators/configuration.hpp"
#include "kernels/device.hpp"
#include "kernels/mt_device.hpp"
#include "kernels/r250_device.hpp"
#include "kernels/ranmar_device.hpp"

#include <memory>
#include <stdexcept>
#include <string>

// Every family with kernels: X(Family, arg) for each, arg passed through.
#define RNGVET_FOR_EACH_KERNEL_FAMILY(X, arg)                                                      \
    X(RanmarKernels, arg) X(MtKernels, arg) X(R250Kernels, arg)

// In a backend's file, after its make_<backend>_device template: its instances for every family.
#define RNGVET_DEVICE_INSTANCE(Family, backend)                                                    \
    template std::unique_ptr<KernelDevice> make_##backend##_device<Family>(                        \
        const Family::Setup&, int);
#define RNGVET_INSTANTIATE_DEVICES(backend)                                                        \
    RNGVET_FOR_EACH_KERNEL_FAMILY(RNGVET_DEVICE_INSTANCE, backend)

namespace rngvet {

// The device of a family's setup on a backend that runs kernels (not cpu, not auto).
template <class Family>
std::unique_ptr<KernelDevice> make_device(
    Backend backend, const typename Family::Setup& setup, int device)
{
#define RNGVET_DEVICE_ON(name, gpu)                                                                \
    if (backend == Backend::name) return make_##name##_device<Family>(setup, device);
    RNGVET_FOR_EACH_KERNEL_BACKEND(RNGVET_DEVICE_ON)
#undef RNGVET_DEVICE_ON
    throw std::logic_error(
        std::string("make_device: backend '") + to_string(backend) + "' runs no kernels");
}

// Calls visit(Family{}) with the traits of `family`'s kernels and returns true; false for a
// family without kernels (the external streams, plugins).
template <class Visit> bool visit_kernel_family(GeneratorFamily family, Visit&& visit)
{
#define RNGVET_VISIT_FAMILY(Family, unused)                                                        \
    if (family == Family::family) {                                                                \
        visit(Family{});                                                                           \
        return true;                                                                               \
    }
    RNGVET_FOR_EACH_KERNEL_FAMILY(RNGVET_VISIT_FAMILY, unused)
#undef RNGVET_VISIT_FAMILY
    return false;
}

// What a GPU backend's device template makes of a family: its grids' device, or the refusal
// of a family whose kernels are written as an instance loop (OpenMP's).
template <class Family, class GridDevice>
std::unique_ptr<KernelDevice> make_grid_device(
    const char* backend, const typename Family::Setup& setup, int device)
{
    if constexpr (Family::form == KernelForm::grids) {
        return std::make_unique<GridDevice>(setup, device);
    } else {
        (void)device;
        throw InputError(std::string("backend '") + backend + "' has no kernel for '" + setup.name
            + "'; it runs on cpu and openmp (or --backend auto)");
    }
}

} // namespace rngvet
