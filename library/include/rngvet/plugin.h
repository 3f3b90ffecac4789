/* rngvet plugin generators: the C ABI a shared library implements so that rngvet tests its
 * generator as it tests its own (`rngvet run --generator lib:PATH[:SYMBOL]`, docs/plugins.md).
 *
 * The library exports one function, by default named rngvet_generator (RNGVET_PLUGIN_SYMBOL),
 * that returns a pointer to a description of the generator. rngvet loads the library once,
 * calls the function once, checks the description (abi_version, bits, the functions it needs)
 * and then makes one state per instance of the configuration:
 *
 *   - the state: either state_size bytes that rngvet allocates (zeroed, aligned for any type,
 *     freed by rngvet), or create() and destroy() when the generator allocates its own
 *     (state_size is then 0);
 *   - seed(state, words, count): the run's --seed as its comma-separated integers (each
 *     0..2^63-1), in order; returns 0, or non-zero to refuse the seed (rngvet then refuses the
 *     run with one line, before anything is stored);
 *   - next(state): the next output; a 32-bit generator returns it in the low 32 bits (the high
 *     32 are ignored), a 64-bit generator all 64 bits;
 *   - skip(state, n): optional (NULL when absent): advances the state by exactly n outputs, as
 *     n calls of next would. Sharded runs (--jobs > 1, --mode sharded, campaigns) start each
 *     test 2^40 outputs further on and need it; without it only serial runs are possible.
 *
 * Every function is called from one thread at a time per state; several states may be used
 * at once by different processes (rngvet forks its sharded workers after loading). The
 * description and the name must stay valid while the library is loaded. The stream must be a
 * function of the seed alone: rngvet records the library's SHA-256, the name and the seed as
 * the run's provenance, and a resumed run continues the stream it started.
 */
#ifndef RNGVET_PLUGIN_H
#define RNGVET_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the description below. rngvet refuses a library of another version. */
#define RNGVET_PLUGIN_ABI_VERSION 1

/* The name of the exported function rngvet looks up when --generator lib:PATH names none. */
#define RNGVET_PLUGIN_SYMBOL "rngvet_generator"

typedef struct rngvet_plugin {
    /* RNGVET_PLUGIN_ABI_VERSION, the version the library was written for. */
    uint32_t abi_version;
    /* Bits of each output: 32 or 64. A 64-bit generator is read through --view (the high
     * halves by default, low32, or packed: both halves). */
    uint32_t bits;
    /* The generator's name: 1 to 64 letters, digits, '.', '_', '+', '-'. With the first 8 hex
     * digits of the library's SHA-256 it names the configuration ("lib[NAME#1a2b3c4d]/..."). */
    const char* name;
    /* Bytes of state rngvet allocates per instance; 0 when create and destroy are given. */
    size_t state_size;
    /* A new state (NULL on failure) and its release; both NULL when state_size is used. */
    void* (*create)(void);
    void (*destroy)(void* state);
    /* Seeds the state from count words (count >= 1); 0 when accepted. */
    int (*seed)(void* state, const uint64_t* words, size_t count);
    /* The next output (32-bit generators: in the low 32 bits). */
    uint64_t (*next)(void* state);
    /* Optional: advances the state by n outputs. NULL: serial runs only. */
    void (*skip)(void* state, uint64_t n);
} rngvet_plugin;

/* The exported function's type: `const rngvet_plugin* rngvet_generator(void)`. */
typedef const rngvet_plugin* (*rngvet_plugin_entry)(void);

#ifdef __cplusplus
}
#endif

#endif /* RNGVET_PLUGIN_H */
