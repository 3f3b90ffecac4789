/* The C side of the Python module's BitGenerator: the four functions numpy's bitgen_t calls, one
 * number of a librngvet stream each, and the state they share. The module (rngvet/__init__.py)
 * loads this library with ctypes; it needs no Python headers.
 *
 *   next_uint32  one number of the stream as rngvet_u32 gives it (the word TestU01 reads)
 *   next_double  one number as rngvet_u01 gives it (x * 2^-bits, in [0, 1))
 *   next_uint64  two numbers' rngvet_u32 words, the first in the high half
 *   next_raw     one number as rngvet_raw gives it (the integer, < 2^bits)
 *
 * A library call costs more than a number, so the state reads the integers a block at a time
 * (rngvet_raw) and converts each as rngvet_u32 and rngvet_u01 do (docs/library.md), by the
 * conversions the library compiles (generators/u01.hpp): the word is the top 32 bits
 * (x >> (bits - 32), or x << (32 - bits) for 24 bits), the double x * 2^-bits.
 * The bulk calls below deliver the block's rest first, so every call of the module reads the
 * same one stream in order. A file: stream is read one number at a time, so that a file that
 * ends fails at the first number it lacks.
 *
 * numpy cannot be told that a draw failed. A call that fails (a file: stream that ends, a device
 * that fails) returns 0 (NaN for a double), keeps the library's message in the state, and marks
 * the state failed, so that every later draw fails too. Where the module gave the Python hooks,
 * the message is also raised as a Python exception in the calling thread, which numpy's call
 * then reports (as the cause of its SystemError).
 */
#include "generators/u01.hpp"
#include "rngvet/rngvet.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define RNGVET_PY_API __attribute__((visibility("default")))
#else
#define RNGVET_PY_API
#endif

/* numpy's bitgen_t (numpy/random/bitgen.h), field for field. */
typedef struct rngvet_py_bitgen {
    void* state;
    uint64_t (*next_uint64)(void* state);
    uint32_t (*next_uint32)(void* state);
    double (*next_double)(void* state);
    uint64_t (*next_raw)(void* state);
} rngvet_py_bitgen;

/* Python's C API functions the failure report needs, passed in by the module (ctypes.pythonapi),
   so that this library links against no particular Python. */
typedef struct rngvet_py_hooks {
    int (*gil_ensure)(void); /* PyGILState_Ensure */
    void (*gil_release)(int); /* PyGILState_Release */
    void* (*err_occurred)(void); /* PyErr_Occurred */
    void (*err_set_string)(void*, const char*); /* PyErr_SetString */
    void* exception; /* the exception type raised */
} rngvet_py_hooks;

enum { BLOCK = 512 };

typedef struct rngvet_py_state {
    rngvet_stream* stream;
    int failed;
    char message[512];
    rngvet_py_hooks hooks;
    int bits;
    double scale; /* 2^-bits */
    size_t block; /* integers read a call: BLOCK, or 1 for a file: stream */
    size_t next, have; /* cache[next..have) are the stream's next integers */
    uint64_t cache[BLOCK];
} rngvet_py_state;

static void set_failed(rngvet_py_state* s, const char* message)
{
    if (!s->failed) {
        s->failed = 1;
        snprintf(s->message, sizeof s->message, "%s", message);
    }
}

/* A draw of a failed state: the Python caller gets the message. */
static void raise_error(const rngvet_py_state* s)
{
    const rngvet_py_hooks* h = &s->hooks;
    if (!h->gil_ensure || !h->gil_release || !h->err_occurred || !h->err_set_string
        || !h->exception)
        return;
    const int gil = h->gil_ensure();
    if (!h->err_occurred()) h->err_set_string(h->exception, s->message);
    h->gil_release(gil);
}

static uint32_t word(const rngvet_py_state* s, uint64_t x)
{
    return top32(x, s->bits);
}

/* The next integer of the stream into *x; 0 after a failure. */
static int take(rngvet_py_state* s, uint64_t* x)
{
    if (s->next == s->have) {
        if (!s->failed && rngvet_raw(s->stream, s->cache, s->block) != RNGVET_OK)
            set_failed(s, rngvet_last_error());
        if (s->failed) {
            raise_error(s);
            return 0;
        }
        s->next = 0;
        s->have = s->block;
    }
    *x = s->cache[s->next++];
    return 1;
}

static uint32_t next_uint32(void* state)
{
    rngvet_py_state* s = (rngvet_py_state*)state;
    uint64_t x;
    return take(s, &x) ? word(s, x) : 0;
}

static uint64_t next_uint64(void* state)
{
    rngvet_py_state* s = (rngvet_py_state*)state;
    uint64_t high, low;
    if (!take(s, &high) || !take(s, &low)) return 0;
    return (uint64_t)word(s, high) << 32 | word(s, low);
}

static double next_double(void* state)
{
    rngvet_py_state* s = (rngvet_py_state*)state;
    uint64_t x;
    return take(s, &x) ? (double)x * s->scale : NAN;
}

static uint64_t next_raw(void* state)
{
    rngvet_py_state* s = (rngvet_py_state*)state;
    uint64_t x;
    return take(s, &x) ? x : 0;
}

/* A state over an open stream (which it then owns) and its bitgen_t; NULL when out of memory. */
RNGVET_PY_API rngvet_py_state* rngvet_py_state_new(
    rngvet_stream* stream, const rngvet_py_hooks* hooks, rngvet_py_bitgen* bitgen)
{
    rngvet_py_state* s = (rngvet_py_state*)calloc(1, sizeof *s);
    if (!s) return NULL;
    s->stream = stream;
    if (hooks) s->hooks = *hooks;
    s->bits = rngvet_bits(stream);
    s->scale = u01_scale(s->bits);
    s->block = strncmp(rngvet_stream_name(stream), "file:", 5) == 0 ? 1 : BLOCK;
    bitgen->state = s;
    bitgen->next_uint64 = next_uint64;
    bitgen->next_uint32 = next_uint32;
    bitgen->next_double = next_double;
    bitgen->next_raw = next_raw;
    return s;
}

/* Closes the stream now; the state stays, and its draws fail with "the stream is closed". */
RNGVET_PY_API void rngvet_py_state_close(rngvet_py_state* s)
{
    set_failed(s, "the stream is closed");
    s->next = s->have = 0;
    rngvet_close(s->stream);
    s->stream = NULL;
}

/* Closes the stream and frees the state; NULL is allowed. */
RNGVET_PY_API void rngvet_py_state_free(rngvet_py_state* s)
{
    if (!s) return;
    rngvet_close(s->stream);
    free(s);
}

/* The message of the first failed draw, or NULL while none failed. */
RNGVET_PY_API const char* rngvet_py_state_error(const rngvet_py_state* s)
{
    return s->failed ? s->message : NULL;
}

/* Numbers delivered or skipped through the state (those read ahead not counted). */
RNGVET_PY_API uint64_t rngvet_py_position(const rngvet_py_state* s)
{
    return rngvet_position(s->stream) - (s->have - s->next);
}

/* The bulk calls: the block's rest first, then the library straight into out. A call that fails
   fails the state. */
#define RNGVET_PY_BULK(NAME, TYPE, CONVERT, LIBRARY_CALL)                                          \
    RNGVET_PY_API int NAME(rngvet_py_state* s, TYPE* out, size_t n)                                \
    {                                                                                              \
        if (s->failed) return RNGVET_ERROR_BACKEND;                                                \
        for (; n > 0 && s->next < s->have; --n) {                                                  \
            const uint64_t x = s->cache[s->next++];                                                \
            *out++ = CONVERT;                                                                      \
        }                                                                                          \
        if (n == 0) return RNGVET_OK;                                                              \
        const int status = LIBRARY_CALL(s->stream, out, n);                                        \
        if (status != RNGVET_OK) set_failed(s, rngvet_last_error());                               \
        return status;                                                                             \
    }
RNGVET_PY_BULK(rngvet_py_u32, uint32_t, word(s, x), rngvet_u32)
RNGVET_PY_BULK(rngvet_py_u01, double, (double)x * s->scale, rngvet_u01)
RNGVET_PY_BULK(rngvet_py_raw, uint64_t, x, rngvet_raw)

/* Skips n numbers: the block's rest, then by the library (exact jump-ahead where it has one). */
RNGVET_PY_API int rngvet_py_skip(rngvet_py_state* s, uint64_t n)
{
    if (s->failed) return RNGVET_ERROR_BACKEND;
    const size_t cached = s->have - s->next;
    const size_t dropped = n < cached ? (size_t)n : cached;
    s->next += dropped;
    n -= dropped;
    if (n == 0) return RNGVET_OK;
    const int status = rngvet_skip(s->stream, n);
    if (status != RNGVET_OK && status != RNGVET_ERROR_INPUT) set_failed(s, rngvet_last_error());
    return status;
}
