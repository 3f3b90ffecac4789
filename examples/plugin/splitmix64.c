/* A complete rngvet plugin: SplitMix64 (Steele, Lea and Flood 2014, as Vigna's splitmix64.c
 * writes it), a 64-bit generator with an O(1) skip.
 *
 *   cc -O2 -shared -fPIC splitmix64.c -o libsplitmix64.so     (rngvet/plugin.h installed, or
 *                                                              -I library/include in the source)
 *   rngvet run --generator lib:./libsplitmix64.so --seed 7 --battery smallcrush --jobs 2
 *
 * The state is one 64-bit counter x; each output adds the golden gamma to it and mixes it, so
 * n outputs later the counter is x + n * gamma (mod 2^64): skip is one multiplication.
 */
#include <rngvet/plugin.h>
#include <stdint.h>

typedef struct {
    uint64_t x;
} splitmix64_state;

static const uint64_t gamma64 = 0x9E3779B97F4A7C15ull;

static int splitmix64_seed(void* state, const uint64_t* words, size_t count)
{
    if (count != 1) return 1; /* one seed word, the starting counter */
    ((splitmix64_state*)state)->x = words[0];
    return 0;
}

static uint64_t splitmix64_next(void* state)
{
    splitmix64_state* s = (splitmix64_state*)state;
    uint64_t z = (s->x += gamma64);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void splitmix64_skip(void* state, uint64_t n)
{
    ((splitmix64_state*)state)->x += n * gamma64;
}

static const rngvet_plugin splitmix64 = {
    RNGVET_PLUGIN_ABI_VERSION, /* abi_version */
    64, /* bits */
    "splitmix64", /* name */
    sizeof(splitmix64_state), /* state_size: rngvet allocates it */
    0, /* create */
    0, /* destroy */
    splitmix64_seed,
    splitmix64_next,
    splitmix64_skip,
};

__attribute__((visibility("default"))) const rngvet_plugin* rngvet_generator(void)
{
    return &splitmix64;
}
