#!/usr/bin/env python3
"""The table of docs/findings.md, "The lattice battery on 10 and 20 seeds": per configuration
and test (Wolff, Metropolis), over the seeds in each store, how many seeds have "C from blocks"
and "E from blocks" outside [0.001, 0.999], and the smallest of each. Usage: summarize.py
ising-L16.sqlite [...]"""
import re
import sqlite3
import sys

for db in sys.argv[1:]:
    con = sqlite3.connect(db)
    L = re.search(r"L=(\d+)", con.execute("select battery from runs limit 1").fetchone()[0]).group(1)
    print(f"\nL = {L}\n")
    print("| configuration | seeds | Wolff C: suspect, smallest p | Wolff E | Metropolis C | Metropolis E |")
    print("|---|---|---|---|---|---|")
    rows = con.execute(
        "select r.config, r.battery, s.test_name, s.pvalue from statistics s join runs r "
        "using (run_id) where s.test_name like '%from blocks'").fetchall()
    table = {}
    for config, battery, name, p in rows:
        key = re.sub(r"/[^/]*$", "", config) + (" lanes=64" if "lanes=64" in battery else "")
        table.setdefault(key, {}).setdefault(name, []).append(p)
    for key in sorted(table):
        cells = []
        for name in ("Ising Wolff, C from blocks", "Ising Wolff, E from blocks",
                     "Ising Metropolis, C from blocks", "Ising Metropolis, E from blocks"):
            ps = table[key].get(name, [])
            bad = sum(p < 0.001 or p > 0.999 for p in ps)
            cells.append(f"{bad}/{len(ps)}, {min(ps):.2g}" if ps else "-")
        seeds = len(table[key].get("Ising Wolff, C from blocks", []))
        print(f"| {key} | {seeds} | " + " | ".join(cells) + " |")
