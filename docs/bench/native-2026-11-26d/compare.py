#!/usr/bin/env python3
"""Compares the p-values and numbers read of a native run with TestU01's run of the same
configuration.

    compare.py NATIVE.sqlite TESTU01.sqlite

For each configuration of NATIVE: the statistics are joined with TESTU01's on (test number,
statistic name, order among statistics of that name), and each pair of p-values is compared as
IEEE-754 bits; tests.numbers_used is compared test by test."""
import sqlite3
import struct
import sys
from collections import defaultdict


def load(path):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    runs = {}
    for run_id, config in con.execute("select run_id, config from runs"):
        pvalues = defaultdict(list)
        for test, name, p in con.execute(
                "select test_number, test_name, pvalue from statistics where run_id = ? "
                "order by stat_index", (run_id,)):
            pvalues[(test, name)].append(p)
        used = dict(con.execute(
            "select test_number, numbers_used from tests where run_id = ?", (run_id,)))
        runs[config] = (pvalues, used)
    return runs


def bits(x):
    return struct.pack("<d", x)


native, reference = load(sys.argv[1]), load(sys.argv[2])
status = 0
for config, (pvalues, used) in native.items():
    if config not in reference:
        print(f"{config}: no TestU01 run of it in {sys.argv[2]}")
        status = 1
        continue
    ref_pvalues, ref_used = reference[config]
    equal = differ = 0
    for key, ps in pvalues.items():
        rs = ref_pvalues.get(key, [])
        for i, p in enumerate(ps):
            if i < len(rs) and bits(p) == bits(rs[i]):
                equal += 1
            else:
                differ += 1
                print(f"  differs: test {key[0]} {key[1]}: {p!r} against "
                      f"{rs[i] if i < len(rs) else 'nothing'!r}")
    other_use = sorted(t for t in used if ref_used.get(t) != used[t])
    print(f"{config}: {equal} p-values equal as bits, {differ} differ; {len(used)} tests, "
          f"numbers read differ in {len(other_use)} {other_use[:10]}")
    status |= differ > 0 or len(other_use) > 0
sys.exit(status)
