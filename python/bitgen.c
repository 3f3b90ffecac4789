/* The C side of the Python module's BitGenerator: the four functions numpy's bitgen_t calls, one
 * number of a librngvet stream each, and the state they share. The module (rngvet/__init__.py)
 * loads this library with ctypes; it needs no Python headers.
 *
 *   next_uint32  one number of the stream as rngvet_u32 gives it (the word TestU01 reads)
 *   next_double  one number as rngvet_u01 gives it (x * 2^-bits, in [0, 1))
 *   next_uint64  two numbers' rngvet_u32 words, the first in the high half
 *   next_raw     one number as rngvet_raw gives it (the integer, < 2^bits)
 *
 * numpy cannot be told that a draw failed. A call that fails (a file: stream that ends, a device
 * that fails) returns 0 (NaN for a double), keeps the library's message in the state, and marks
 * the state failed, so that every later draw fails too. Where the module gave the Python hooks,
 * the message is also raised as a Python exception in the calling thread, which numpy's call
 * then reports (as the cause of its SystemError).
 */
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

typedef struct rngvet_py_state {
    rngvet_stream* stream;
    int failed;
    char message[512];
    rngvet_py_hooks hooks;
} rngvet_py_state;

static void fail(rngvet_py_state* s)
{
    if (!s->failed) {
        s->failed = 1;
        snprintf(s->message, sizeof s->message, "%s", rngvet_last_error());
    }
    const rngvet_py_hooks* h = &s->hooks;
    if (!h->gil_ensure || !h->gil_release || !h->err_occurred || !h->err_set_string
        || !h->exception)
        return;
    const int gil = h->gil_ensure();
    if (!h->err_occurred()) h->err_set_string(h->exception, s->message);
    h->gil_release(gil);
}

static uint32_t next_uint32(void* state)
{
    rngvet_py_state* s = (rngvet_py_state*)state;
    uint32_t x = 0;
    if (s->failed || rngvet_u32(s->stream, &x, 1) != RNGVET_OK) {
        fail(s);
        return 0;
    }
    return x;
}

static uint64_t next_uint64(void* state)
{
    rngvet_py_state* s = (rngvet_py_state*)state;
    uint32_t x[2] = { 0, 0 };
    if (s->failed || rngvet_u32(s->stream, x, 2) != RNGVET_OK) {
        fail(s);
        return 0;
    }
    return (uint64_t)x[0] << 32 | x[1];
}

static double next_double(void* state)
{
    rngvet_py_state* s = (rngvet_py_state*)state;
    double x = 0;
    if (s->failed || rngvet_u01(s->stream, &x, 1) != RNGVET_OK) {
        fail(s);
        return NAN;
    }
    return x;
}

static uint64_t next_raw(void* state)
{
    rngvet_py_state* s = (rngvet_py_state*)state;
    uint64_t x = 0;
    if (s->failed || rngvet_raw(s->stream, &x, 1) != RNGVET_OK) {
        fail(s);
        return 0;
    }
    return x;
}

/* A state over an open stream (which it then owns) and its bitgen_t; NULL when out of memory. */
RNGVET_PY_API rngvet_py_state* rngvet_py_state_new(
    rngvet_stream* stream, const rngvet_py_hooks* hooks, rngvet_py_bitgen* bitgen)
{
    rngvet_py_state* s = (rngvet_py_state*)calloc(1, sizeof *s);
    if (!s) return NULL;
    s->stream = stream;
    if (hooks) s->hooks = *hooks;
    bitgen->state = s;
    bitgen->next_uint64 = next_uint64;
    bitgen->next_uint32 = next_uint32;
    bitgen->next_double = next_double;
    bitgen->next_raw = next_raw;
    return s;
}

/* Closes the stream and frees the state; NULL is allowed. */
RNGVET_PY_API void rngvet_py_state_free(rngvet_py_state* s)
{
    if (!s) return;
    rngvet_close(s->stream);
    free(s);
}

/* Closes the stream now; the state stays, and its draws fail with "the stream is closed". */
RNGVET_PY_API void rngvet_py_state_close(rngvet_py_state* s)
{
    if (!s->failed) {
        s->failed = 1;
        snprintf(s->message, sizeof s->message, "%s", "the stream is closed");
    }
    rngvet_close(s->stream);
    s->stream = NULL;
}

/* The message of the first failed draw, or NULL while none failed. */
RNGVET_PY_API const char* rngvet_py_state_error(const rngvet_py_state* s)
{
    return s->failed ? s->message : NULL;
}

/* Marks the state failed with the library's last error (a bulk call of the module failed), so
   that later draws fail as well. */
RNGVET_PY_API void rngvet_py_state_fail(rngvet_py_state* s)
{
    if (!s->failed) {
        s->failed = 1;
        snprintf(s->message, sizeof s->message, "%s", rngvet_last_error());
    }
}
