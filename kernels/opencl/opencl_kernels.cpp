// OpenCL backend: host side of kernels/opencl/ranmar.cl and mt.cl. OpenCL 1.2 API only, so that
// PoCL and NVIDIA's driver behave alike.
#define CL_TARGET_OPENCL_VERSION 120
#include "generators/error.hpp"
#include "kernels/families.hpp"
#include "kernels/launch_plan.hpp"

#include <CL/cl.h>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>

namespace rngvet {
namespace {

const char* const program_text =
#include "kernels_cl.inc"
    ;

struct ClDevice {
    cl_platform_id platform;
    cl_device_id device;
    std::string name; // "platform / device"
    bool gpu;
};

std::string info_string(cl_platform_id p, cl_platform_info what)
{
    std::size_t size = 0;
    if (clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "?";
    std::string s(size, '\0');
    clGetPlatformInfo(p, what, size, s.data(), nullptr);
    s.resize(size - 1);
    return s;
}

std::string info_string(cl_device_id d, cl_device_info what)
{
    std::size_t size = 0;
    if (clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "?";
    std::string s(size, '\0');
    clGetDeviceInfo(d, what, size, s.data(), nullptr);
    s.resize(size - 1);
    return s;
}

// Every device of every platform, in platform order. `error` is set when the platform
// query itself fails (no ICD registered, for instance).
std::vector<ClDevice> list_devices(std::string* error = nullptr)
{
    std::vector<ClDevice> devices;
    cl_uint count = 0;
    const cl_int rc = clGetPlatformIDs(0, nullptr, &count);
    if (rc != CL_SUCCESS || count == 0) {
        if (error)
            *error = rc == CL_SUCCESS || rc == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */
                ? "no OpenCL platform found"
                : "clGetPlatformIDs failed with error " + std::to_string(rc);
        return devices;
    }
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    for (cl_platform_id p : platforms) {
        cl_uint n = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS || n == 0) continue;
        std::vector<cl_device_id> ids(n);
        clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr);
        for (cl_device_id d : ids) {
            cl_device_type type = 0;
            clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
            devices.push_back(
                { p, d, info_string(p, CL_PLATFORM_NAME) + " / " + info_string(d, CL_DEVICE_NAME),
                    (type & CL_DEVICE_TYPE_GPU) != 0 });
        }
    }
    if (devices.empty() && error) *error = "no OpenCL platform with a device found";
    return devices;
}

std::string lower(std::string s)
{
    for (char& ch : s)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

ClDevice choose(int index)
{
    const std::vector<ClDevice> devices = list_devices();
    std::string names;
    for (std::size_t k = 0; k < devices.size(); ++k)
        names += (k ? ", " : "") + std::to_string(k) + ": " + devices[k].name;
    if (devices.empty()) throw InputError("backend 'opencl': no OpenCL device found");
    if (index < 0) {
        if (const char* env = std::getenv("RNGVET_OPENCL_DEVICE"); env && *env) {
            const std::string want = env;
            if (want.find_first_not_of("0123456789") == std::string::npos) {
                index = std::atoi(env);
            } else {
                for (std::size_t k = 0; k < devices.size() && index < 0; ++k)
                    if (lower(devices[k].name).find(lower(want)) != std::string::npos)
                        index = static_cast<int>(k);
                if (index < 0)
                    throw InputError("RNGVET_OPENCL_DEVICE='" + want
                        + "' matches no OpenCL device (" + names + ")");
            }
        } else {
            index = 0;
            for (std::size_t k = 0; k < devices.size(); ++k)
                if (devices[k].gpu) {
                    index = static_cast<int>(k);
                    break;
                }
        }
    }
    if (index < 0 || static_cast<std::size_t>(index) >= devices.size())
        throw InputError(
            "OpenCL device " + std::to_string(index) + " does not exist (" + names + ")");
    return devices[static_cast<std::size_t>(index)];
}

bool out_of_memory(cl_int rc)
{
    return rc == CL_MEM_OBJECT_ALLOCATION_FAILURE || rc == CL_OUT_OF_RESOURCES
        || rc == CL_OUT_OF_HOST_MEMORY || rc == CL_INVALID_BUFFER_SIZE;
}

// Owns one OpenCL object.
template <class T, cl_int (*Release)(T)> struct Handle {
    T value = nullptr;
    Handle() = default;
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() { reset(nullptr); }
    void reset(T v)
    {
        if (value) Release(value);
        value = v;
    }
};

// Context, queue, program, output buffer and kernel on one device.
class OpenclDevice : public KernelDevice {
public:
    explicit OpenclDevice(int index)
        : dev_(choose(index))
    {
        cl_int rc = CL_SUCCESS;
        context_.reset(clCreateContext(nullptr, 1, &dev_.device, nullptr, nullptr, &rc));
        check(rc, "clCreateContext");
        queue_.reset(clCreateCommandQueue(context_.value, dev_.device, 0, &rc));
        check(rc, "clCreateCommandQueue");
        build();
    }

    void reserve(std::size_t words) override
    {
        if (words <= capacity_) return;
        out_.reset(nullptr);
        capacity_ = 0;
        out_.reset(make_buffer(words * sizeof(std::uint64_t), "output buffer"));
        capacity_ = words;
    }

    void upload(const std::uint64_t* host, std::size_t words) override
    {
        write(out_.value, host, words * sizeof(std::uint64_t), "writing the output buffer");
    }

    void download(std::uint64_t* host, std::size_t words) override
    {
        check(clEnqueueReadBuffer(queue_.value, out_.value, CL_TRUE, 0,
                  words * sizeof(std::uint64_t), host, 0, nullptr, nullptr),
            "reading the output buffer");
    }

    std::string description() const override { return "opencl: " + dev_.name; }

protected:
    void check(cl_int rc, const char* what) const
    {
        if (rc == CL_SUCCESS) return;
        if (out_of_memory(rc))
            throw InputError("backend 'opencl' ran out of memory on " + dev_.name + " (" + what
                + ", error " + std::to_string(rc) + "); use fewer instances");
        throw InputError("backend 'opencl': " + std::string(what) + " failed with error "
            + std::to_string(rc) + " on " + dev_.name);
    }

    cl_mem make_buffer(std::size_t bytes, const char* what)
    {
        cl_ulong max_alloc = 0;
        clGetDeviceInfo(
            dev_.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr);
        if (max_alloc != 0 && bytes > max_alloc)
            throw InputError("backend 'opencl': the " + std::string(what) + " needs "
                + std::to_string(bytes >> 20) + " MiB but " + dev_.name + " allocates at most "
                + std::to_string(max_alloc >> 20)
                + " MiB at once (out of device memory); use fewer instances");
        cl_int rc = CL_SUCCESS;
        cl_mem m = clCreateBuffer(context_.value, CL_MEM_READ_WRITE, bytes, nullptr, &rc);
        check(rc, what);
        return m;
    }

    cl_mem make_buffer(const void* host, std::size_t bytes, const char* what)
    {
        cl_mem m = make_buffer(bytes, what);
        try {
            write(m, host, bytes, what);
        } catch (...) {
            clReleaseMemObject(m);
            throw;
        }
        return m;
    }

    void write(cl_mem m, const void* host, std::size_t bytes, const char* what)
    {
        check(clEnqueueWriteBuffer(queue_.value, m, CL_TRUE, 0, bytes, host, 0, nullptr, nullptr),
            what);
    }

    template <class T> void arg(cl_uint index, const T& value)
    {
        check(clSetKernelArg(kernel_.value, index, sizeof(T), &value), "clSetKernelArg");
    }

    void run(std::uint64_t blocks, std::size_t local)
    {
        const std::size_t global = static_cast<std::size_t>(blocks) * local;
        check(clEnqueueNDRangeKernel(
                  queue_.value, kernel_.value, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            "launching the kernel");
        check(clFinish(queue_.value), "running the kernel");
    }

    ClDevice dev_;
    Handle<cl_context, clReleaseContext> context_;
    Handle<cl_command_queue, clReleaseCommandQueue> queue_;
    Handle<cl_program, clReleaseProgram> program_;
    Handle<cl_kernel, clReleaseKernel> kernel_;
    Handle<cl_mem, clReleaseMemObject> out_;
    std::size_t capacity_ = 0;

private:
    void build()
    {
        cl_int rc = CL_SUCCESS;
        const char* text = program_text;
        program_.reset(clCreateProgramWithSource(context_.value, 1, &text, nullptr, &rc));
        check(rc, "clCreateProgramWithSource");
        const std::string options = "-cl-std=CL1.2";
        rc = clBuildProgram(program_.value, 1, &dev_.device, options.c_str(), nullptr, nullptr);
        if (rc == CL_SUCCESS) return;
        std::size_t size = 0;
        clGetProgramBuildInfo(program_.value, dev_.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(
            program_.value, dev_.device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        // One line: the log's lines joined by " | ".
        std::string line;
        bool separate = false;
        for (char ch : log) {
            if (ch == '\0') break;
            if (ch == '\n' || ch == '\r') {
                separate = !line.empty();
                continue;
            }
            if (separate) line += " | ";
            separate = false;
            line += ch;
        }
        throw InputError("backend 'opencl': building the kernels (ranmar.cl, mt.cl) for "
            + dev_.name + " failed (error " + std::to_string(rc) + "): " + line);
    }
};

// One device class for every generator: the plan (launch_plan.hpp) fixes the grid, whose
// wrapper (ranmar.cl, mt.cl) takes the launch parameters, the plan's buffers in order, the output
// buffer and the offset into it.
class OpenclKernels final : public OpenclDevice {
public:
    template <class Setup>
    OpenclKernels(const Setup& setup, int index)
        : OpenclDevice(index)
        , plan_(setup, opencl_grid_shape())
    {
        for (const PlanBuffer& b : plan_buffers(setup)) {
            if (b.bytes == 0) continue; // the grid does not take it
            // Jump-parallel MT's buffers (mt_segments_body): no OpenCL grid takes them.
            if (buffer_count_ == std::size(buffers_))
                throw InputError("backend 'opencl' has no jump-parallel Mersenne Twister");
            buffers_[buffer_count_++].reset(make_buffer(b.data, b.bytes, b.what));
        }
        cl_int rc = CL_SUCCESS;
        kernel_.reset(clCreateKernel(program_.value, kernel_name(plan_.grid()), &rc));
        check(rc, "clCreateKernel");
    }

    void launch(std::uint64_t g0, std::uint64_t len, std::size_t offset, bool count_mode) override
    {
        const Launch l = plan_.launch(g0, len, count_mode);
        cl_uint k = 0;
        if (plan_.ranmar())
            arg(k++, l.ranmar);
        else
            arg(k++, l.mt);
        for (std::size_t b = 0; b < buffer_count_; ++b)
            arg(k++, buffers_[b].value);
        arg(k++, out_.value);
        arg(k++, static_cast<cl_ulong>(offset));
        run(l.blocks, l.threads);
    }

private:
    static const char* kernel_name(Grid grid)
    {
        switch (grid) {
        case Grid::ranmar_warps:
            return "ranmar_generate";
        case Grid::ranmar_tiled:
            return "ranmar_generate_tiled";
        case Grid::ranmar_segments:
            return "ranmar_generate_segments";
        case Grid::mt_words:
            return "mt_generate";
        case Grid::mt_lanes:
            return "mt_generate_lanes";
        case Grid::ranmar_interleaved:
        case Grid::mt_registers:
        case Grid::mt_segments:
            break;
        }
        throw InputError("backend 'opencl' has no such grid");
    }

    LaunchPlan plan_;
    Handle<cl_mem, clReleaseMemObject> buffers_[3];
    std::size_t buffer_count_ = 0;
};

} // namespace

bool opencl_usable(std::string& why)
{
    std::string error;
    const bool ok = !list_devices(&error).empty();
    if (!ok) why = error;
    return ok;
}

std::vector<std::string> opencl_device_names()
{
    std::vector<std::string> names;
    for (const ClDevice& d : list_devices())
        names.push_back(d.name);
    return names;
}

bool opencl_gpu_present()
{
    for (const ClDevice& d : list_devices())
        if (d.gpu) return true;
    return false;
}

// OpenCL's one device template: the grids' device (the refusal of a family without grids).
template <class Family>
std::unique_ptr<KernelDevice> make_opencl_device(const typename Family::Setup& setup, int device)
{
    return make_grid_device<Family, OpenclKernels>("opencl", setup, device);
}

RNGVET_INSTANTIATE_DEVICES(opencl)

} // namespace rngvet
