#!/usr/bin/env python3
"""Tables of docs/findings.md, "ising on the CPU, 2026-11-26", from the stores and logs here:
per run and test, the deviations in standard errors from the logs ("from blocks" and "over
replicas"), the stored p-values of "C from blocks" and "E from blocks", and the smallest of the
test's 4 + 2R p-values. Usage: summarize.py ising-L16.sqlite [...]"""
import os
import re
import sqlite3
import sys

here = os.path.dirname(os.path.abspath(__file__))
names = {"r250/1": "r250", "mt19937/1": "mt19937", "ranmar48/1": "ranmar48",
         "ranmar48/64": "ranmar48x64"}
algorithms = {1: "Wolff", 2: "Metropolis", 3: "Swendsen-Wang"}


def label(config, battery):
    key = "/".join(config.split("/")[:2])
    name = names.get(key, key)
    return name + ("-lanes64" if "lanes=64" in battery else "")


for db in sys.argv[1:]:
    L = re.search(r"L(\d+)", os.path.basename(db)).group(1)
    con = sqlite3.connect(db)
    print(f"\nL = {L}\n")
    print("| configuration | seed | test | C sigmas (blocks) | C p (blocks) | E sigmas (blocks) "
          "| E p (blocks) | C sigmas (replicas) | smallest p of the test |")
    print("|---|---|---|---|---|---|---|---|---|")
    for run_id, config, seed, battery in con.execute(
            "SELECT run_id, config, seed, battery FROM runs ORDER BY run_id"):
        name = label(config, battery)
        for (test,) in con.execute("SELECT DISTINCT test_number FROM statistics WHERE run_id = ? "
                                   "ORDER BY test_number", (run_id,)):
            stats = {n: p for n, p in con.execute(
                "SELECT test_name, pvalue FROM statistics WHERE run_id = ? AND test_number = ?",
                (run_id, test))}
            prefix = f"Ising {algorithms[test]}, "
            log = os.path.join(here, "logs", f"L{L}-{name}-{seed.replace(',', '_')}.test{test}")
            text = open(log).read()
            blocks = re.search(r"from blocks: +E = \S+ \+- \S+ \(([-+.\d]+)\), C = \S+ \+- \S+ "
                               r"\(([-+.\d]+)\)", text)
            reps = re.search(r"over replicas: E = \S+ \+- \S+ \(([-+.\d]+)\), C = \S+ \+- \S+ "
                             r"\(([-+.\d]+)\)", text)
            low = min(stats, key=stats.get)
            smallest = f"{stats[low]:.2g} ({low[len(prefix):]})"
            print(f"| {name} | {seed} | {test} {algorithms[test]} | {blocks.group(2)} | "
                  f"{stats[prefix + 'C from blocks']:.2g} | {blocks.group(1)} | "
                  f"{stats[prefix + 'E from blocks']:.2g} | {reps.group(2)} | {smallest} |")

# Per configuration and test, over its seeds: Stouffer's sum of the "from blocks" deviations,
# sum z / sqrt(seeds) (normal under a sound generator, the seeds' runs independent), the typical
# standard error of C and E from blocks, and the statistics outside [0.001, 0.999] (rngvet's
# suspect level) among all of them.
for db in sys.argv[1:]:
    L = re.search(r"L(\d+)", os.path.basename(db)).group(1)
    con = sqlite3.connect(db)
    rows = {}
    for run_id, config, seed, battery in con.execute(
            "SELECT run_id, config, seed, battery FROM runs ORDER BY run_id"):
        name = label(config, battery)
        for test, count, outside in con.execute(
                "SELECT test_number, count(*), sum(pvalue < 0.001 OR pvalue > 0.999) FROM "
                "statistics WHERE run_id = ? GROUP BY test_number", (run_id,)):
            log = os.path.join(here, "logs", f"L{L}-{name}-{seed.replace(',', '_')}.test{test}")
            text = open(log).read()
            m = re.search(r"from blocks: +E = \S+ \+- (\S+) \(([-+.\d]+)\), C = \S+ \+- (\S+) "
                          r"\(([-+.\d]+)\)", text)
            r = rows.setdefault((name, test), {"zc": [], "ze": [], "ec": [], "ee": [], "n": 0,
                                               "out": 0, "seeds": []})
            r["zc"].append(float(m.group(4)))
            r["ze"].append(float(m.group(2)))
            r["ec"].append(float(m.group(3)))
            r["ee"].append(float(m.group(1)))
            r["n"] += count
            r["out"] += outside
            r["seeds"].append(seed)
    print(f"\nL = {L}, over seeds\n")
    print("| configuration | test | seeds | C: sum z / sqrt(seeds) | C error (blocks) | "
          "E: sum z / sqrt(seeds) | E error (blocks) | outside [0.001, 0.999] |")
    print("|---|---|---|---|---|---|---|---|")
    for (name, test), r in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        k = len(r["zc"])
        print(f"| {name} | {test} {algorithms[test]} | {'; '.join(r['seeds'])} | "
              f"{sum(r['zc']) / k ** 0.5:+.2f} | {sum(r['ec']) / k:.2g} | "
              f"{sum(r['ze']) / k ** 0.5:+.2f} | {sum(r['ee']) / k:.2g} | {r['out']} of {r['n']} |")
