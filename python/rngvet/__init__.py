"""rngvet from Python: the tested streams as a numpy BitGenerator, and the result store as
pandas DataFrames.

    import numpy as np, rngvet
    g = np.random.Generator(rngvet.BitGenerator("ranmar48/8/interleave/increment/1802,9373"))
    x = g.random(10)          # bit for bit rngvet_u01, i.e. `rngvet generate --format double`
    store = rngvet.read_store("results.sqlite")
    store.pvalues[store.pvalues.verdict != "pass"]

The streams are librngvet's (docs/library.md), reached through ctypes and a small C library of
this package (_bitgen.so) that holds the functions numpy's bitgen_t calls and reads the
stream's integers a block at a time for them. docs/python.md says
what each numpy draw takes from the stream.
"""

import ctypes
import os
import sqlite3
import threading
import urllib.parse
from dataclasses import dataclass

from . import _build

__all__ = [
    "BitGenerator",
    "Error",
    "InputError",
    "BackendError",
    "StoreError",
    "StreamError",
    "Store",
    "read_store",
    "library_version",
    "VERDICTS",
]

# The verdict classes of a p-value, from best to worst (the store's view `pvalues`).
VERDICTS = ("pass", "suspect", "fail")


class Error(RuntimeError):
    """An error of librngvet; `status` is its code (rngvet.h's enum rngvet_status)."""

    def __init__(self, message, status=0):
        super().__init__(message)
        self.status = status


class InputError(Error, ValueError):
    """A configuration, option or argument that is not valid (RNGVET_ERROR_INPUT)."""


class BackendError(Error):
    """A backend that is not available here, or that failed (RNGVET_ERROR_BACKEND)."""


class StoreError(Error):
    """A file that cannot be read as an rngvet store."""


class StreamError(Error):
    """A draw that failed (a file: stream that ended, a device that failed); the stream
    delivers nothing more."""


_STATUS_ERRORS = {1: InputError, 2: BackendError, 3: StoreError}
_INTERFACES = {"buffered": 0, "direct": 1}
# PyCapsule_New keeps the pointer to the name, so the name must outlive every capsule.
_CAPSULE_NAME = ctypes.create_string_buffer(b"BitGenerator")


class _Options(ctypes.Structure):
    _fields_ = [
        ("backend", ctypes.c_char_p),
        ("interface", ctypes.c_int),
        ("buffer_numbers", ctypes.c_size_t),
        ("launch_numbers", ctypes.c_size_t),
        ("locked", ctypes.c_int),
    ]


class _Bitgen(ctypes.Structure):
    # numpy's bitgen_t: the state and four function pointers, filled by _bitgen.so.
    _fields_ = [
        ("state", ctypes.c_void_p),
        ("next_uint64", ctypes.c_void_p),
        ("next_uint32", ctypes.c_void_p),
        ("next_double", ctypes.c_void_p),
        ("next_raw", ctypes.c_void_p),
    ]


class _Hooks(ctypes.Structure):
    _fields_ = [
        ("gil_ensure", ctypes.c_void_p),
        ("gil_release", ctypes.c_void_p),
        ("err_occurred", ctypes.c_void_p),
        ("err_set_string", ctypes.c_void_p),
        ("exception", ctypes.c_void_p),
    ]


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    # _bitgen.so needs librngvet.so.0 (found by the loader, or by its build tree's RUNPATH);
    # loaded first, it makes the same librngvet the one ctypes finds by its soname.
    shim = ctypes.CDLL(os.path.join(here, "_bitgen.so"))
    lib = ctypes.CDLL("librngvet.so.0")
    sp = ctypes.c_void_p
    lib.rngvet_options_init.argtypes = [ctypes.POINTER(_Options)]
    lib.rngvet_options_init.restype = None
    lib.rngvet_open.argtypes = [ctypes.POINTER(sp), ctypes.c_char_p, ctypes.POINTER(_Options)]
    lib.rngvet_open.restype = ctypes.c_int
    lib.rngvet_close.argtypes = [sp]
    lib.rngvet_close.restype = None
    lib.rngvet_bits.argtypes = [sp]
    lib.rngvet_bits.restype = ctypes.c_int
    for name in ("rngvet_stream_name", "rngvet_stream_backend"):
        getattr(lib, name).argtypes = [sp]
        getattr(lib, name).restype = ctypes.c_char_p
    lib.rngvet_last_error.argtypes = []
    lib.rngvet_last_error.restype = ctypes.c_char_p
    lib.rngvet_version.argtypes = []
    lib.rngvet_version.restype = ctypes.c_char_p
    shim.rngvet_py_state_new.argtypes = [sp, ctypes.POINTER(_Hooks), ctypes.POINTER(_Bitgen)]
    shim.rngvet_py_state_new.restype = sp
    shim.rngvet_py_state_free.argtypes = [sp]
    shim.rngvet_py_state_free.restype = None
    shim.rngvet_py_state_close.argtypes = [sp]
    shim.rngvet_py_state_close.restype = None
    shim.rngvet_py_state_error.argtypes = [sp]
    shim.rngvet_py_state_error.restype = ctypes.c_char_p
    for name, item in (("u01", ctypes.c_double), ("u32", ctypes.c_uint32), ("raw", ctypes.c_uint64)):
        f = getattr(shim, "rngvet_py_" + name)
        f.argtypes = [sp, ctypes.POINTER(item), ctypes.c_size_t]
        f.restype = ctypes.c_int
    shim.rngvet_py_skip.argtypes = [sp, ctypes.c_uint64]
    shim.rngvet_py_skip.restype = ctypes.c_int
    shim.rngvet_py_position.argtypes = [sp]
    shim.rngvet_py_position.restype = ctypes.c_uint64
    api = ctypes.pythonapi
    api.PyCapsule_New.argtypes = [sp, ctypes.c_char_p, sp]
    api.PyCapsule_New.restype = ctypes.py_object
    hooks = _Hooks(
        ctypes.cast(api.PyGILState_Ensure, sp).value,
        ctypes.cast(api.PyGILState_Release, sp).value,
        ctypes.cast(api.PyErr_Occurred, sp).value,
        ctypes.cast(api.PyErr_SetString, sp).value,
        id(StreamError),  # CPython: the address of the type object, alive as long as the module
    )
    return lib, shim, hooks


_lib, _shim, _hooks = _load()


def _message(default="librngvet failed"):
    text = _lib.rngvet_last_error()
    return text.decode("utf-8", "replace") if text else default


def library_version():
    """librngvet's version, "0.1.0 (commit ...)"."""
    return _lib.rngvet_version().decode()


class BitGenerator:
    """A librngvet stream as a numpy bit generator: numpy.random.Generator(BitGenerator(...)).

    configuration: a canonical name as rngvet stores it
    ("ranmar48/8/interleave/increment/1802,9373") or `rngvet run`'s options in one string
    ("--generator mt19937 --seed 1"). backend: "auto", "cpu", "openmp", "opencl" or "cuda".
    interface: "buffered" (prefetch buffers refilled in the background) or "direct".

    Each numpy draw takes whole numbers of the stream: next_uint32 one number as rngvet_u32
    gives it (the 32-bit word `rngvet generate --format u32` writes), next_double one number as
    rngvet_u01 gives it (`--format double`), next_uint64 two numbers' words, the first in the high
    half, next_raw one number's integer (< 2^bits).
    """

    def __init__(self, configuration, backend="auto", interface="buffered", buffer_numbers=0,
                 launch_numbers=0):
        if not isinstance(configuration, str):
            raise TypeError("configuration must be a str, not " + type(configuration).__name__)
        if interface not in _INTERFACES:
            raise InputError("interface must be 'buffered' or 'direct', not %r" % (interface,), 1)
        for label, v in (("buffer_numbers", buffer_numbers), ("launch_numbers", launch_numbers)):
            if not isinstance(v, int) or v < 0:
                raise InputError("%s must be an integer >= 0, not %r" % (label, v), 1)
        self._state = None
        options = _Options()
        _lib.rngvet_options_init(ctypes.byref(options))
        options.backend = str(backend).encode()
        options.interface = _INTERFACES[interface]
        options.buffer_numbers = buffer_numbers
        options.launch_numbers = launch_numbers
        options.locked = 0  # self.lock serialises every call
        stream = ctypes.c_void_p()
        status = _lib.rngvet_open(ctypes.byref(stream), configuration.encode(), ctypes.byref(options))
        if status != 0:
            raise _STATUS_ERRORS.get(status, Error)(_message(), status)
        self._bitgen = _Bitgen()
        state = _shim.rngvet_py_state_new(stream, ctypes.byref(_hooks), ctypes.byref(self._bitgen))
        if not state:
            _lib.rngvet_close(stream)
            raise MemoryError("no memory for the stream's state")
        # The state owns the stream from here; both live as long as this object, which every
        # numpy Generator made from it keeps.
        self._state = state
        self._stream = stream.value
        self.lock = threading.Lock()
        self.capsule = ctypes.pythonapi.PyCapsule_New(
            ctypes.addressof(self._bitgen), ctypes.cast(_CAPSULE_NAME, ctypes.c_char_p), None)
        self._name = _lib.rngvet_stream_name(self._stream).decode()
        self._backend = _lib.rngvet_stream_backend(self._stream).decode()
        self._bits = _lib.rngvet_bits(self._stream)

    def __del__(self):
        state, self._state = getattr(self, "_state", None), None
        if state:
            _shim.rngvet_py_state_free(state)

    def __repr__(self):
        return "rngvet.BitGenerator(%r, backend=%r)" % (self._name, self._backend)

    @property
    def name(self):
        """The configuration's canonical name, as the store and the reports name it."""
        return self._name

    @property
    def backend(self):
        """The backend in use: "cpu", "openmp", "opencl" or "cuda"."""
        return self._backend

    @property
    def bits(self):
        """The resolution in bits: every raw number is < 2^bits."""
        return self._bits

    @property
    def position(self):
        """Numbers delivered or skipped since the stream was opened."""
        with self.lock:
            self._check()
            return _shim.rngvet_py_position(self._state)

    @property
    def error(self):
        """The message of the draw that failed, or None."""
        message = _shim.rngvet_py_state_error(self._state)
        return message.decode("utf-8", "replace") if message else None

    def close(self):
        """Closes the stream; later draws, numpy's included, raise StreamError."""
        with self.lock:
            _shim.rngvet_py_state_close(self._state)

    def _check(self):
        message = self.error
        if message is not None:
            raise StreamError(message, 2)

    def _draw(self, name, size, dtype):
        import numpy as np

        n = 1 if size is None else size
        out = np.empty(n, dtype=dtype)
        if out.size:
            with self.lock:
                self._check()
                ctype = {np.float64: ctypes.c_double, np.uint32: ctypes.c_uint32,
                         np.uint64: ctypes.c_uint64}[dtype]
                status = getattr(_shim, "rngvet_py_" + name)(
                    self._state, out.ctypes.data_as(ctypes.POINTER(ctype)), out.size)
                if status != 0:
                    raise StreamError(self.error or _message(), status)
        return out[0] if size is None else out

    def u01(self, size=None):
        """The next numbers as rngvet_u01's doubles x * 2^-bits (numpy float64)."""
        import numpy as np

        return self._draw("u01", size, np.float64)

    def u32(self, size=None):
        """The next numbers as rngvet_u32's 32-bit words (numpy uint32)."""
        import numpy as np

        return self._draw("u32", size, np.uint32)

    def random_raw(self, size=None):
        """The next numbers as their integers, < 2^bits (numpy uint64), as numpy's
        BitGenerator.random_raw gives its generators' raw output."""
        import numpy as np

        return self._draw("raw", size, np.uint64)

    def skip(self, n):
        """Skips n numbers (exact jump-ahead where the backend has it)."""
        if not isinstance(n, int) or n < 0:
            raise InputError("skip needs an integer >= 0, not %r" % (n,), 1)
        with self.lock:
            self._check()
            status = _shim.rngvet_py_skip(self._state, n)
            if status != 0:
                raise _STATUS_ERRORS.get(status, Error)(_message(), status)


@dataclass
class Store:
    """An rngvet store read into pandas DataFrames (docs/store.md has every column).

    runs: one row per run, the table `runs` with each run's statistics, suspect and failed
    counts and its verdict; tests: the table `tests` with each test's statistics, suspect and
    failed counts and verdict; pvalues: the view `pvalues` (one row per p-value and its
    verdict). A verdict is the worst class of the p-values it covers, "none" where there are none.
    """

    path: str
    schema_version: int
    runs: "object"
    tests: "object"
    pvalues: "object"


def _store_uri(path):
    return "file:" + urllib.parse.quote(os.path.abspath(path), safe="/") + "?mode=ro"


_GROUP_VERDICT = """count(p.pvalue) AS statistics,
       coalesce(sum(p.verdict = 'suspect'), 0) AS suspect,
       coalesce(sum(p.verdict = 'fail'), 0) AS failed,
       CASE WHEN sum(p.verdict = 'fail') > 0 THEN 'fail'
            WHEN sum(p.verdict = 'suspect') > 0 THEN 'suspect'
            WHEN count(p.pvalue) > 0 THEN 'pass' ELSE 'none' END AS verdict"""


def read_store(path):
    """Reads an rngvet store (`rngvet run --db PATH`) read-only into a Store of DataFrames.

    The verdicts are the store's own (its view `pvalues`). A file that is not an rngvet store of
    the schema this rngvet reads is refused with StoreError; the file is never changed."""
    import pandas as pd

    path = os.fspath(path)
    label = "cannot read '%s' as an rngvet store: " % path
    if not os.path.exists(path):
        raise StoreError(label + "no such file", 3)
    if not os.path.isfile(path):
        raise StoreError(label + "not a regular file", 3)
    try:
        con = sqlite3.connect(_store_uri(path), uri=True)
    except sqlite3.Error as e:
        raise StoreError(label + str(e), 3) from None
    try:
        try:
            con.execute("BEGIN")  # one snapshot for every table
            version = con.execute("PRAGMA user_version").fetchone()[0]
            objects = {row[0] for row in con.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as e:
            raise StoreError(label + str(e), 3) from None
        if version == 0:
            raise StoreError(label + ("the file holds tables but is not an rngvet store" if objects
                                      else "the file is not an rngvet store"), 3)
        if version > _build.STORE_SCHEMA_VERSION:
            raise StoreError(label + "schema version %d is newer than this rngvet understands (%d)"
                             % (version, _build.STORE_SCHEMA_VERSION), 3)
        if version < _build.STORE_SCHEMA_VERSION:
            raise StoreError(label + "schema version %d needs an upgrade; open it once with a "
                             "command that writes (rngvet run --resume, campaign merge) or from "
                             "a writable copy" % version, 3)
        missing = sorted({"runs", "tests", "statistics", "pvalues"} - objects)
        if missing:
            raise StoreError(label + "the file says schema version %d but has no %s"
                             % (version, ", ".join(missing)), 3)
        try:
            runs = pd.read_sql_query(
                "SELECT r.*, " + _GROUP_VERDICT + " FROM runs AS r LEFT JOIN pvalues AS p "
                "USING (run_id) GROUP BY r.run_id ORDER BY r.run_id", con)
            tests = pd.read_sql_query(
                "SELECT t.*, " + _GROUP_VERDICT + " FROM tests AS t LEFT JOIN pvalues AS p "
                "ON p.run_id = t.run_id AND p.test_number = t.test_number "
                "GROUP BY t.run_id, t.test_number ORDER BY t.run_id, t.test_number", con)
            pvalues = pd.read_sql_query(
                "SELECT * FROM pvalues ORDER BY run_id, stat_index", con)
        except (sqlite3.Error, pd.errors.DatabaseError) as e:
            raise StoreError(label + str(e), 3) from None
    finally:
        con.close()
    classes = list(VERDICTS)
    pvalues["verdict"] = pd.Categorical(pvalues["verdict"], categories=classes, ordered=True)
    for frame in (runs, tests):
        frame["verdict"] = pd.Categorical(frame["verdict"], categories=["none"] + classes,
                                          ordered=True)
    return Store(path=path, schema_version=version, runs=runs, tests=tests, pvalues=pvalues)
