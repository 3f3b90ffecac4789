#include "kernels/host_grid.hpp"

#include <exception>
#include <memory>
#include <stdexcept>
#include <ucontext.h>
#include <vector>

namespace rngvet {
namespace {

// Stack of one fiber: a body's frame is a few hundred bytes of registers and indices.
constexpr std::size_t fiber_stack = 64 * 1024;

struct Fibers {
    ucontext_t host{};
    std::vector<ucontext_t> thread;
    std::vector<char> ended;
    std::unique_ptr<char[]> stacks;
    const std::function<void(std::uint64_t, unsigned)>* body = nullptr;
    std::uint64_t block = 0;
    unsigned current = 0;
    std::exception_ptr error;
};

thread_local Fibers* running = nullptr;

void fiber_main()
{
    Fibers& f = *running;
    try {
        (*f.body)(f.block, f.current);
    } catch (...) {
        if (!f.error) f.error = std::current_exception();
    }
    f.ended[f.current] = 1;
    // Returning resumes uc_link, the host loop.
}

// A fiber that starts at fiber_main on `stack` and returns to `host`. Out of line: the context
// getcontext saves is never resumed (makecontext replaces it), but the caller's variables
// would look clobbered to the compiler.
__attribute__((noinline)) void start_fiber(ucontext_t& fiber, char* stack, ucontext_t& host)
{
    getcontext(&fiber);
    fiber.uc_stack.ss_sp = stack;
    fiber.uc_stack.ss_size = fiber_stack;
    fiber.uc_link = &host;
    makecontext(&fiber, fiber_main, 0);
}

} // namespace

void host_barrier()
{
    Fibers* f = running;
    if (!f) throw std::logic_error("host_barrier() outside host_launch()");
    swapcontext(&f->thread[f->current], &f->host);
}

void host_launch(std::uint64_t blocks, unsigned threads,
    const std::function<void(std::uint64_t block, unsigned thread)>& body, bool reverse,
    const std::function<void(std::uint64_t block)>& begin_block)
{
    if (running) throw std::logic_error("host_launch() inside host_launch()");
    Fibers f;
    f.thread.resize(threads);
    f.ended.resize(threads);
    f.stacks.reset(new char[fiber_stack * threads]);
    f.body = &body;
    running = &f;
    for (std::uint64_t b = 0; b < blocks; ++b) {
        if (begin_block) begin_block(b);
        f.block = b;
        for (unsigned t = 0; t < threads; ++t) {
            start_fiber(f.thread[t], f.stacks.get() + fiber_stack * t, f.host);
            f.ended[t] = 0;
        }
        // One round per barrier: every thread that has not ended runs to its next barrier.
        for (bool live = true; live;) {
            live = false;
            for (unsigned k = 0; k < threads; ++k) {
                const unsigned t = reverse ? threads - 1 - k : k;
                if (f.ended[t]) continue;
                f.current = t;
                swapcontext(&f.host, &f.thread[t]);
                live = live || !f.ended[t];
            }
        }
        if (f.error) break;
    }
    running = nullptr;
    if (f.error) std::rethrow_exception(f.error);
}

} // namespace rngvet
