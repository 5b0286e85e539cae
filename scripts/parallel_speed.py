#!/usr/bin/env python3
"""Simulations per second of `imcts search` with 1 and N search threads (docs/parallel.md).

Runs each (game, spec) row with 1 thread and with N threads, alternating, REPEAT times, at a
fixed simulation budget from the initial position, and prints the median rate of each, their
ratio, and the 1-minute load average before and after each row (the machine is shared: a ratio
measured under load says little). Usage:

    scripts/parallel_speed.py [--imcts target/release/imcts] [--threads 2] [--repeat 3]
"""

import argparse
import json
import os
import statistics
import subprocess

ROWS = [
    ("breakthrough", "mcts", 100_000),
    ("breakthrough", "mcts(ipp)", 100_000),
    ("breakthrough", "mcts(efLH,bl')", 50_000),
    ("kalah", "mcts(fet4)", 300_000),
]


def rate(imcts, game, spec, sims, threads):
    out = subprocess.run(
        [imcts, "search", game, "--player", spec, "--sims", str(sims), "--seed", "1",
         "--search-threads", str(threads), "--json"],
        check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    assert r["sims"] == sims, r
    return r["sims_per_s"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--imcts", default="target/release/imcts")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"{'game':13} {'spec':16} {'sims':>7} {'1 thread/s':>11} "
          f"{args.threads} threads/s".rjust(12) + f" {'ratio':>6}  load before/after")
    for game, spec, sims in ROWS:
        load0 = os.getloadavg()[0]
        one, many = [], []
        for _ in range(args.repeat):
            one.append(rate(args.imcts, game, spec, sims, 1))
            many.append(rate(args.imcts, game, spec, sims, args.threads))
        load1 = os.getloadavg()[0]
        a, b = statistics.median(one), statistics.median(many)
        print(f"{game:13} {spec:16} {sims:>7} {a:>11.0f} {b:>12.0f} {b / a:>6.2f}  "
              f"{load0:.2f}/{load1:.2f}", flush=True)


if __name__ == "__main__":
    main()
