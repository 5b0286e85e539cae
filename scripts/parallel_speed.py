#!/usr/bin/env python3
"""Simulations per second of `imcts search` with 1 and N search threads (docs/parallel.md).

Runs each (game, spec) row with 1 thread and with N threads, alternating, REPEAT times, at a
fixed simulation budget from the initial position, and prints for each the median wall-clock
rate, their ratio, the median rate per CPU-second (user + system time of the process), the
CPU ratio, and the 1-minute load average before and after the row.

On a shared machine the wall-clock ratio mostly measures the other processes. The CPU ratio
does not: N threads that never wait on each other spend the same CPU time per simulation as
one, so N x (CPU ratio) is the speed-up the search would have on N idle cores; what it loses
below N is the cost of the threads meeting on shared nodes. Usage:

    scripts/parallel_speed.py [--imcts target/release/imcts] [--threads 2] [--repeat 3]
                              [--parallel tree|root] [--sims-scale 1] [--pool N]

`--parallel root` measures root parallelism (a tree per thread) instead of the shared tree;
`--sims-scale K` multiplies every row's simulations (longer searches, less start-up).
"""

import argparse
import json
import os
import resource
import statistics
import subprocess

ROWS = [
    ("breakthrough", "mcts", 100_000),
    ("breakthrough", "mcts(ipp)", 100_000),
    ("breakthrough", "mcts(efLH,bl')", 50_000),
    ("kalah", "mcts(fet4)", 300_000),
]


def rate(imcts, game, spec, sims, threads, parallel="tree", pool=None):
    """(simulations per wall-clock second, simulations per CPU-second)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    extra = ["--pool", str(pool)] if pool else []
    out = subprocess.run(
        [imcts, "search", game, "--player", spec, "--sims", str(sims), "--seed", "1",
         "--search-threads", str(threads), "--parallel", parallel, "--json"] + extra,
        check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    assert r["sims"] == sims, r
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return r["sims_per_s"], sims / cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--imcts", default="target/release/imcts")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--parallel", choices=["tree", "root"], default="tree")
    ap.add_argument("--sims-scale", type=int, default=1)
    ap.add_argument("--pool", type=int, help="nodes (imcts search --pool); default imcts's")
    args = ap.parse_args()
    n = args.threads
    print(f"{'game':13} {'spec':16} {'sims':>7} {'wall 1':>8} {'wall ' + str(n):>8} "
          f"{'ratio':>6} {'cpu 1':>8} {'cpu ' + str(n):>8} {'ratio':>6} {n}x{'cpu':3}  load")
    for game, spec, sims in ROWS:
        sims *= args.sims_scale
        load0 = os.getloadavg()[0]
        one, many = [], []
        for _ in range(args.repeat):
            one.append(rate(args.imcts, game, spec, sims, 1, "tree", args.pool))
            many.append(rate(args.imcts, game, spec, sims, args.threads, args.parallel, args.pool))
        load1 = os.getloadavg()[0]
        a = statistics.median(w for w, _ in one)
        b = statistics.median(w for w, _ in many)
        c = statistics.median(c for _, c in one)
        d = statistics.median(c for _, c in many)
        print(f"{game:13} {spec:16} {sims:>7} {a:>8.0f} {b:>8.0f} {b / a:>6.2f} "
              f"{c:>8.0f} {d:>8.0f} {d / c:>6.2f} {n * d / c:>6.2f}  {load0:.1f}/{load1:.1f}",
              flush=True)


if __name__ == "__main__":
    main()
