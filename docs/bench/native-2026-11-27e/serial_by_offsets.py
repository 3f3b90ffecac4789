#!/usr/bin/env python3
"""Checks a native serial-mode battery run against TestU01 test by test, each test of TestU01 run
alone at the offset where the native run began it, many at once.

    serial_by_offsets.py RNGVET NATIVE.sqlite OUTDIR [--jobs P] [--tests LIST]
                         [--reference TESTU01.sqlite] -- GENERATOR OPTIONS...

In serial mode test k reads the stream from O_k = c_1 + ... + c_(k-1), c_j being the numbers
test j read. NATIVE.sqlite holds the native engine's O_k and c_k. For each test k this runs
`rngvet run GENERATOR OPTIONS --battery B --tests k --skip O_k --mode serial --engine testu01`
into OUTDIR/test-k.sqlite (P at once) and compares, as IEEE-754 bits, its p-values with the
native run's, and its numbers read with c_k. Where every test agrees, TestU01's whole serial run
reads the same c_k (by induction from O_1 = 0, TestU01 test k then starts at the same O_k) and
so gives the same p-values: the serial run of TestU01 is checked without running its tests one
after another. The native offsets are checked to follow one another without gap.
--reference compares the per-test TestU01 runs with a whole serial TestU01 run as well (this
shows that a test run alone at O_k is the test at position k of the serial run). --reuse takes
the OUTDIR/test-k.sqlite already there instead of running them again. The tests' numbers read,
CPU seconds and p-values are gathered into OUTDIR/by-offsets.sqlite.
Exit status 0 when everything compared is equal."""
import argparse
import os
import sqlite3
import struct
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor


def load(path):
    """The one run of a store: its battery, tests (offset, numbers read) and p-values."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    runs = con.execute("select run_id, battery, mode from runs").fetchall()
    if len(runs) != 1:
        sys.exit(f"{path}: {len(runs)} runs, expected one")
    run_id, battery, mode = runs[0]
    tests = {t: (o, n) for t, o, n in con.execute(
        "select test_number, start_offset, numbers_used from tests where run_id = ?", (run_id,))}
    pvalues = defaultdict(list)
    for t, name, p in con.execute(
            "select test_number, test_name, pvalue from statistics where run_id = ? "
            "order by stat_index", (run_id,)):
        pvalues[(t, name)].append(p)
    return battery, mode, tests, pvalues


def bits(x):
    return struct.pack("<d", x)


def same_pvalues(a, b, test):
    keys = sorted(k for k in set(a) | set(b) if k[0] == test)
    return bool(keys) and all(
        len(a.get(k, [])) == len(b.get(k, []))
        and all(bits(x) == bits(y) for x, y in zip(a.get(k, []), b.get(k, []))) for k in keys)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rngvet")
    ap.add_argument("native")
    ap.add_argument("outdir")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--tests", default="")
    ap.add_argument("--reference", default="")
    ap.add_argument("--reuse", action="store_true")
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("the generator's options follow --")
    cut = argv.index("--")
    a = ap.parse_args(argv[:cut])
    gen = argv[cut + 1:]
    battery, mode, tests, native_p = load(a.native)
    if mode != "serial":
        sys.exit(f"{a.native}: a {mode} run, not serial")
    order = sorted(tests)
    # The native offsets: each test begins where the one before it ended.
    gaps = 0
    for prev, k in zip(order, order[1:]):
        if tests[k][0] != tests[prev][0] + tests[prev][1]:
            print(f"test {k}: begins at {tests[k][0]}, test {prev} ended at "
                  f"{tests[prev][0] + tests[prev][1]}")
            gaps += 1
    status = 1 if gaps else 0
    chosen = [int(t) for t in a.tests.split(",")] if a.tests else order
    os.makedirs(a.outdir, exist_ok=True)

    def run(k):
        db = os.path.join(a.outdir, f"test-{k}.sqlite")
        if a.reuse and os.path.exists(db):
            return k, 0, db
        if os.path.exists(db):
            os.remove(db)
        cmd = [a.rngvet, "run", *gen, "--battery", battery, "--tests", str(k), "--skip",
               str(tests[k][0]), "--mode", "serial", "--engine", "testu01", "--db", db]
        with open(os.path.join(a.outdir, f"test-{k}.log"), "w") as log:
            rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode
        return k, rc, db

    reference = load(a.reference) if a.reference else None
    digest_path = os.path.join(a.outdir, "by-offsets.sqlite")
    if os.path.exists(digest_path):
        os.remove(digest_path)
    digest = sqlite3.connect(digest_path)
    digest.execute("create table tests (test_number integer primary key, skip integer, "
                   "numbers_used integer, cpu_seconds real)")
    digest.execute("create table statistics (test_number integer, stat_index integer, "
                   "test_name text, pvalue real)")
    equal = 0
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for k, rc, db in pool.map(run, sorted(chosen, key=lambda t: -tests[t][1])):
            if rc != 0:
                print(f"test {k}: rngvet exited with {rc} (see {a.outdir}/test-{k}.log)")
                status = 1
                continue
            _, _, one, one_p = load(db)
            con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            for t, n, c in con.execute("select test_number, numbers_used, cpu_seconds from tests"):
                digest.execute("insert into tests values (?, ?, ?, ?)", (t, tests[k][0], n, c))
            digest.executemany("insert into statistics values (?, ?, ?, ?)", con.execute(
                "select test_number, stat_index, test_name, pvalue from statistics"))
            ok = one.get(k, (None, None))[1] == tests[k][1] and same_pvalues(one_p, native_p, k)
            if reference is not None:
                ok = ok and reference[2].get(k) == tests[k] and same_pvalues(one_p, reference[3], k)
            if ok:
                equal += 1
            else:
                print(f"test {k}: differs (TestU01 alone read {one.get(k)}, native "
                      f"{tests[k]})")
                status = 1
    digest.commit()
    print(f"{battery}: {equal} of {len(chosen)} tests of TestU01, each run alone at the native "
          f"serial run's offset, read the numbers the native tests read and gave their p-values "
          f"as bits" + (" and the whole serial TestU01 run's" if reference else "")
          + f"; {len(order)} native tests, {gaps} gaps between them")
    return status


if __name__ == "__main__":
    sys.exit(main())
