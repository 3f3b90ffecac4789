"""The Python module rngvet: numpy Generators over rngvet.BitGenerator draw exactly `rngvet
generate`'s numbers on every backend here, and rngvet.read_store reads exactly what the store
holds (compared with the sqlite3 command-line shell).

    RNGVET=build/cli/rngvet PYTHONPATH=build/python python3 tests/test_python.py [-v] [Class]
"""

import gc
import hashlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import unittest

import numpy as np

import rngvet

RNGVET = os.environ["RNGVET"]
COUNT = 20000

# (canonical name, `rngvet generate` options): 48-bit RANMAR with instances interleaved, the
# 24-bit RANMAR, mt19937 in blocks, and mtdc with a built-in parameter set.
CONFIGURATIONS = [
    ("ranmar48/8/interleave/increment/1802,9373",
     "--generator ranmar48 --seed 1802,9373 --instances 8 --layout interleave"),
    ("--generator ranmar24 --seed 1802,9373 --instances 3 --layout block:1000",
     "--generator ranmar24 --seed 1802,9373 --instances 3 --layout block:1000"),
    ("--generator mt19937 --seed 5489 --instances 4 --layout block:777",
     "--generator mt19937 --seed 5489 --instances 4 --layout block:777"),
    ("--generator mtdc --params fixstars-mt521 --seed 0 --instances 32 --layout block:1000 "
     "--seeding stride:0x33ff",
     "--generator mtdc --params fixstars-mt521 --seed 0 --instances 32 --layout block:1000 "
     "--seeding stride:0x33ff"),
]


def backends():
    out = subprocess.run([RNGVET, "list"], check=True, capture_output=True, text=True).stdout
    names, on = [], False
    for line in out.splitlines():
        if line.startswith("backends (available here)"):
            on = True
        elif on and line.strip():
            if not line.startswith(" "):
                break
            names.append(line.split()[0].rstrip(":"))
        elif on:
            break
    return names


def generate(options, fmt, count, skip=0):
    args = [RNGVET, "generate", *options.split(), "--count", str(count), "--format", fmt]
    if skip:
        args += ["--skip", str(skip)]
    data = subprocess.run(args, check=True, capture_output=True).stdout
    return np.frombuffer(data, dtype="<u4" if fmt == "u32" else "<f8")


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


class BitGeneratorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.backends = backends()
        cls.want = {}
        for name, options in CONFIGURATIONS:
            cls.want[name] = (generate(options, "u32", COUNT), generate(options, "double", COUNT))

    def test_backends_listed(self):
        self.assertIn("cpu", self.backends)

    def test_draws_equal_rngvet_generate(self):
        for name, _ in CONFIGURATIONS:
            u32, doubles = self.want[name]
            for backend in self.backends:
                for interface in ("buffered", "direct"):
                    with self.subTest(configuration=name, backend=backend, interface=interface):
                        bg = rngvet.BitGenerator(name, backend=backend, interface=interface)
                        self.assertEqual(bg.backend, backend)
                        g = np.random.Generator(bg)
                        # full-range uint32: numpy returns next_uint32 itself
                        got = g.integers(0, 2**32, size=COUNT, dtype=np.uint32)
                        self.assertTrue(same_bits(got, u32))
                        g = np.random.Generator(
                            rngvet.BitGenerator(name, backend=backend, interface=interface))
                        self.assertTrue(same_bits(g.random(COUNT), doubles))

    def test_uint64_is_two_words_first_high(self):
        name = CONFIGURATIONS[0][0]
        u32 = self.want[name][0].astype(np.uint64)
        g = np.random.Generator(rngvet.BitGenerator(name))
        got = g.integers(0, 2**64, size=COUNT // 2, dtype=np.uint64, endpoint=False)
        self.assertTrue(same_bits(got, (u32[0::2] << np.uint64(32)) | u32[1::2]))

    def test_mixed_draws_take_one_number_each(self):
        # random() and 32-bit integers interleaved read consecutive numbers of one stream
        for name, _ in CONFIGURATIONS:
            u32, doubles = self.want[name]
            g = np.random.Generator(rngvet.BitGenerator(name))
            for i in range(0, 200, 2):
                self.assertEqual(g.random(), doubles[i])
                self.assertEqual(g.integers(0, 2**32, dtype=np.uint32), u32[i + 1])
            self.assertEqual(g.bit_generator.position, 200)
            # the bulk calls and skip continue right after the numbers numpy took
            bg = g.bit_generator
            self.assertTrue(same_bits(bg.u32(1000), u32[200:1200]))
            g.random(3)
            self.assertTrue(same_bits(bg.u01(10), doubles[1203:1213]))
            g.random(1)
            bg.skip(600)
            self.assertEqual(bg.position, 1814)
            self.assertTrue(same_bits(g.integers(0, 2**32, size=100, dtype=np.uint32),
                                      u32[1814:1914]))
            self.assertTrue(same_bits(bg.random_raw(5).astype(np.float64) * 2.0**-bg.bits,
                                      doubles[1914:1919]))
            self.assertEqual(bg.position, 1919)

    def test_raw_and_bulk_calls(self):
        for name, _ in CONFIGURATIONS:
            u32, doubles = self.want[name]
            bg = rngvet.BitGenerator(name)
            raw = bg.random_raw(COUNT)
            self.assertEqual(raw.dtype, np.uint64)
            self.assertTrue(np.all(raw < np.uint64(2**bg.bits)))
            self.assertTrue(same_bits(raw.astype(np.float64) * 2.0**-bg.bits, doubles))
            top = raw >> np.uint64(bg.bits - 32) if bg.bits >= 32 else raw << np.uint64(32 - bg.bits)
            self.assertTrue(same_bits(top.astype(np.uint32), u32))
            bg = rngvet.BitGenerator(name)
            self.assertTrue(same_bits(bg.u32(100), u32[:100]))
            self.assertTrue(same_bits(bg.u01(100), doubles[100:200]))
            bg.skip(COUNT - 300)
            self.assertEqual(bg.u32(), u32[COUNT - 100])
            self.assertEqual(bg.position, COUNT - 99)

    def test_canonical_name_and_bits(self):
        bg = rngvet.BitGenerator(CONFIGURATIONS[0][0])
        self.assertTrue(bg.name.startswith("ranmar48/8/interleave/increment/1802,9373"), bg.name)
        self.assertEqual(bg.bits, 48)
        self.assertEqual(rngvet.BitGenerator(CONFIGURATIONS[1][0]).bits, 24)
        self.assertEqual(rngvet.library_version().split()[0], rngvet._build.VERSION)

    def test_generator_keeps_the_stream(self):
        name = CONFIGURATIONS[2][0]
        g = np.random.Generator(rngvet.BitGenerator(name, interface="direct"))
        gc.collect()
        self.assertTrue(same_bits(g.random(COUNT), self.want[name][1]))

    def test_threads_share_a_generator(self):
        # numpy takes the BitGenerator's lock: threads together draw the stream's numbers,
        # each exactly once
        name = CONFIGURATIONS[0][0]
        g = np.random.Generator(rngvet.BitGenerator(name))
        parts = []

        def draw():
            for _ in range(50):
                parts.append(g.integers(0, 2**32, size=100, dtype=np.uint32))

        threads = [threading.Thread(target=draw) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        got = np.sort(np.concatenate(parts))
        self.assertTrue(same_bits(got, np.sort(self.want[name][0])))

    def test_bad_configuration_is_refused(self):
        with self.assertRaises(rngvet.InputError) as e:
            rngvet.BitGenerator("ranmar48/8/interleave/increment/1802")
        self.assertEqual(e.exception.status, 1)
        self.assertNotIn("\n", str(e.exception))
        with self.assertRaises(rngvet.InputError):
            rngvet.BitGenerator(CONFIGURATIONS[0][0], backend="abacus")
        with self.assertRaises(rngvet.InputError):
            rngvet.BitGenerator(CONFIGURATIONS[0][0], interface="device")
        with self.assertRaises(rngvet.InputError):
            rngvet.BitGenerator(CONFIGURATIONS[0][0]).skip(-1)

    def test_a_stream_that_ends_raises(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "words.bin")
            np.arange(10, dtype="<u4").tofile(path)
            bg = rngvet.BitGenerator("--generator file:" + path, interface="direct")
            self.assertTrue(same_bits(bg.u32(10), np.arange(10, dtype=np.uint32)))
            with self.assertRaises(rngvet.StreamError):
                bg.u32(1)
            self.assertIsNotNone(bg.error)
            # through numpy: the failed draw's error is raised, and later draws fail too
            bg = rngvet.BitGenerator("--generator file:" + path, interface="direct")
            g = np.random.Generator(bg)
            self.assertTrue(same_bits(g.integers(0, 2**32, size=10, dtype=np.uint32),
                                      np.arange(10, dtype=np.uint32)))
            with self.assertRaises(Exception) as e:
                g.integers(0, 2**32, size=20, dtype=np.uint32)
            chain = [e.exception, e.exception.__cause__, e.exception.__context__]
            self.assertTrue(any(isinstance(x, rngvet.StreamError) for x in chain), repr(chain))
            with self.assertRaises(rngvet.StreamError):
                bg.u32(1)

    def test_closed_stream_raises(self):
        bg = rngvet.BitGenerator(CONFIGURATIONS[0][0])
        g = np.random.Generator(bg)
        bg.close()
        with self.assertRaises(rngvet.StreamError):
            bg.u01(1)
        with self.assertRaises(Exception) as e:
            g.random(3)
        chain = [e.exception, e.exception.__cause__, e.exception.__context__]
        self.assertTrue(any(isinstance(x, rngvet.StreamError) for x in chain), repr(chain))


class StoreTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="rngvet-python-", dir=os.environ.get("TEST_TMPDIR"))
        cls.db = os.path.join(cls.dir, "small.sqlite")
        for seed in ("1802,9373", "1,2"):
            subprocess.run([RNGVET, "run", "--generator", "ranmar48", "--seed", seed,
                            "--battery", "smallcrush", "--db", cls.db], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def sqlite3_rows(self, db, sql):
        out = subprocess.run(["sqlite3", "-separator", "|", db, sql], check=True,
                             capture_output=True, text=True).stdout
        return [line.split("|") for line in out.splitlines()]

    def test_pvalues_equal_sqlite3(self):
        with open(self.db, "rb") as f:
            before = hashlib.sha256(f.read()).hexdigest()
        store = rngvet.read_store(self.db)
        with open(self.db, "rb") as f:
            self.assertEqual(hashlib.sha256(f.read()).hexdigest(), before)
        rows = self.sqlite3_rows(self.db, "SELECT run_id, stat_index, test_number, test_name, "
                                 "printf('%!.20e', pvalue), verdict FROM pvalues "
                                 "ORDER BY run_id, stat_index")
        self.assertEqual(len(rows), 30)  # SmallCrush: 15 statistics a run
        p = store.pvalues
        self.assertEqual(len(p), len(rows))
        for (run_id, stat, test, name, pvalue, verdict), (_, r) in zip(rows, p.iterrows()):
            self.assertEqual((int(run_id), int(stat), int(test), name, verdict),
                             (r.run_id, r.stat_index, r.test_number, r.test_name, r.verdict))
            self.assertEqual(float(pvalue), r.pvalue)
        self.assertEqual(list(p.verdict.cat.categories), ["pass", "suspect", "fail"])

    def test_runs_and_tests(self):
        store = rngvet.read_store(self.db)
        self.assertEqual(store.schema_version, rngvet._build.STORE_SCHEMA_VERSION)
        runs = self.sqlite3_rows(self.db, "SELECT run_id, config, status FROM runs ORDER BY run_id")
        self.assertEqual([[str(r.run_id), r.config, r.status] for r in store.runs.itertuples()],
                         runs)
        self.assertEqual(list(store.runs.statistics), [15, 15])
        self.assertEqual(len(store.tests), 20)  # 10 tests a run
        self.assertEqual(int(store.tests.statistics.sum()), 30)
        for frame in (store.runs, store.tests):
            self.assertEqual(list(frame.verdict.cat.categories), ["none", "pass", "suspect", "fail"])

    def test_verdicts_are_the_worst_pvalue(self):
        # A copy with one p-value made a clear failure and one suspect: the run's and the test's
        # verdicts follow, and the other run stays as it was.
        copy = os.path.join(self.dir, "edited.sqlite")
        shutil.copyfile(self.db, copy)
        con = sqlite3.connect(copy)
        con.execute("UPDATE statistics SET pvalue = 1e-12 WHERE run_id = 1 AND stat_index = 3")
        con.execute("UPDATE statistics SET pvalue = 0.9995 WHERE run_id = 1 AND stat_index = 9")
        con.execute("UPDATE statistics SET pvalue = 0.0005 WHERE run_id = 2 AND stat_index = 1")
        con.execute("UPDATE statistics SET pvalue = 0.5 WHERE stat_index NOT IN (1, 3, 9)")
        con.commit()
        con.close()
        store = rngvet.read_store(copy)
        p = store.pvalues.set_index(["run_id", "stat_index"])
        self.assertEqual(p.loc[(1, 3), "verdict"], "fail")
        self.assertEqual(p.loc[(1, 9), "verdict"], "suspect")
        self.assertEqual(p.loc[(2, 1), "verdict"], "suspect")
        runs = store.runs.set_index("run_id")
        self.assertEqual((runs.loc[1, "verdict"], runs.loc[1, "failed"], runs.loc[1, "suspect"]),
                         ("fail", 1, 1))
        self.assertEqual(runs.loc[2, "verdict"], "suspect")
        tests = store.tests.set_index(["run_id", "test_number"])
        failing_test = int(p.loc[(1, 3), "test_number"])
        self.assertEqual(tests.loc[(1, failing_test), "verdict"], "fail")
        self.assertEqual(store.runs.verdict.max(), "fail")

    def test_what_is_not_a_store_is_refused(self):
        d = self.dir
        cases = {}
        cases["missing"] = os.path.join(d, "no-such.sqlite")
        cases["folder"] = d
        text = os.path.join(d, "text.sqlite")
        with open(text, "w") as f:
            f.write("run_id,pvalue\n1,0.5\n" * 100)
        cases["text"] = text
        empty = os.path.join(d, "empty.sqlite")
        open(empty, "w").close()
        cases["empty"] = empty
        other = os.path.join(d, "other.sqlite")
        con = sqlite3.connect(other)
        con.execute("CREATE TABLE runs (x)")
        con.close()
        cases["other"] = other
        newer = os.path.join(d, "newer.sqlite")
        shutil.copyfile(self.db, newer)
        con = sqlite3.connect(newer)
        con.execute("PRAGMA user_version = %d" % (rngvet._build.STORE_SCHEMA_VERSION + 1))
        con.close()
        cases["newer"] = newer
        older = os.path.join(d, "older.sqlite")
        shutil.copyfile(self.db, older)
        con = sqlite3.connect(older)
        con.execute("PRAGMA user_version = %d" % (rngvet._build.STORE_SCHEMA_VERSION - 1))
        con.close()
        cases["older"] = older
        for label, path in cases.items():
            with self.subTest(label):
                before = read_bytes(path) if os.path.isfile(path) else None
                with self.assertRaises(rngvet.StoreError) as e:
                    rngvet.read_store(path)
                message = str(e.exception)
                self.assertTrue(message.startswith("cannot read '%s' as an rngvet store: " % path),
                                message)
                self.assertNotIn("\n", message)
                if before is not None:
                    self.assertEqual(read_bytes(path), before)
                self.assertFalse(os.path.exists(path + "-journal"))
                self.assertIn({"missing": "no such file", "folder": "not a regular file",
                               "text": "not a database", "empty": "not an rngvet store",
                               "other": "holds tables but is not an rngvet store",
                               "newer": "is newer", "older": "needs an upgrade"}[label], message)
        self.assertFalse(os.path.exists(cases["missing"]))


if __name__ == "__main__":
    unittest.main()
