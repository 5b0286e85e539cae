#!/usr/bin/env python3
"""One search, many seeds: imcts's root against the paper's Java code's root, position by position.

Optional and not used by any test; like `scripts/compare_paper_java.py` it needs a checkout of
the paper's code (tpepels/mcts_gameframe at 5a6fb5f) that you pass, and says "skipped" without one.

A game between two players tells whether one is stronger only after hundreds of games. Two
implementations of the same search are compared far more sharply at the root: searched from
the same position with many seeds, they must choose each move equally often and give each root
move the same share of the simulations on average. This script searches each position SEEDS
times with each side (`imcts search --seed s` and the code's player through
`scripts/java/PaperRootStats.java`, both with exactly --sims simulations) and compares:

- the mean share of the root's visits per move (a Welch z per move), and
- how often each move is chosen (a chi-square test of the two count tables),

then sums the chi-squares over the positions (a Wilson-Hilferty normal approximation gives
the p-value). With node priors both sides count a child's prior visits among its visits.

    python3 scripts/compare_root_stats.py --java-src /tmp/mcts_gameframe --ours 'mcts(ipp)' \\
        --theirs mcts_s_h --sims 1000 --seeds 200 --positions-from docs/results/table2-row10-tenth-seed1.records.jsonl

Positions: `--positions FILE` (one position string a line), or `--positions-from RECORDS` (an
`imcts match --record` file: the position after each of --plies in each of the first --games
games that lasted that long).
"""

import argparse
import json
import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import compare_paper_java  # noqa: E402  (build() and the source layout)

DRIVERS = [ROOT / "scripts" / "java" / "PaperRate.java", ROOT / "scripts" / "java" / "PaperRootStats.java"]
START = "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w"


def parse(pos):
    """A Breakthrough position string as (64 cells, rank 8 first; side to move)."""
    rows, side = pos.split()
    cells = []
    for c in rows:
        if c == "/":
            continue
        cells += ["."] * int(c) if c.isdigit() else [c]
    return cells, side


def unparse(cells, side):
    out = []
    for r in range(8):
        row, empty = "", 0
        for c in cells[8 * r: 8 * r + 8]:
            if c == ".":
                empty += 1
            else:
                row += (str(empty) if empty else "") + c
                empty = 0
        out.append(row + (str(empty) if empty else ""))
    return "/".join(out) + " " + side


def play(pos, moves):
    """The position after `moves` (imcts notation, `e2-e3` / `e4xd5`) from `pos`."""
    cells, side = parse(pos)
    for m in moves:
        f, t = m[:2], m[3:5]
        fi = (8 - int(f[1])) * 8 + ord(f[0]) - 97
        ti = (8 - int(t[1])) * 8 + ord(t[0]) - 97
        cells[ti], cells[fi] = cells[fi], "."
        side = "b" if side == "w" else "w"
    return unparse(cells, side)


def positions_from(records, plies, games):
    out = []
    with open(records) as f:
        for n, line in enumerate(f):
            if n >= games:
                break
            r = json.loads(line)
            for p in plies:
                if p < len(r["moves"]) - 2:
                    out.append(play(r.get("start", START), r["moves"][:p]))
    return out


def ours(binary, spec, pos, sims, seed):
    r = subprocess.run([binary, "search", "breakthrough", "--player", spec, "--position", pos,
                        "--sims", str(sims), "--seed", str(seed), "--pool", str(sims * 48 + 64),
                        "--json"], capture_output=True, text=True, check=True)
    j = json.loads(r.stdout)
    return {"best": j["best"], "sims": j["sims"], "children": {c["move"]: c["visits"] for c in j["children"]},
            "means": {c["move"]: c["mean"] for c in j["children"]}}


def theirs(cp, label, positions, sims, seeds, first):
    r = subprocess.run(["java", "-Xmx1g", "-XX:+UseSerialGC", "-cp", cp, "PaperRootStats", label,
                        str(sims), str(seeds), str(first)], input="\n".join(positions) + "\n",
                       capture_output=True, text=True, check=True)
    out = {}
    for line in r.stdout.splitlines():
        j = json.loads(line)
        out[(j["pos"], j["seed"])] = {"best": j["best"], "sims": j["sims"],
                                      "children": {c[0]: c[1] for c in j["children"]},
                                      "means": {c[0]: c[2] for c in j["children"]}}
    return out


def chi2_sf(x, df):
    """P(chi-square with df degrees > x), Wilson-Hilferty."""
    if df <= 0:
        return 1.0
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def compare(a, b):
    """(chi2, df) of the chosen moves, and per move (move, share a, share b, z)."""
    moves = sorted(set(m for r in a + b for m in r["children"]))
    rows = []
    for m in moves:
        sa = [r["children"].get(m, 0) / max(1, sum(r["children"].values())) for r in a]
        sb = [r["children"].get(m, 0) / max(1, sum(r["children"].values())) for r in b]
        ma, mb = sum(sa) / len(sa), sum(sb) / len(sb)
        va = sum((x - ma) ** 2 for x in sa) / max(1, len(sa) - 1)
        vb = sum((x - mb) ** 2 for x in sb) / max(1, len(sb) - 1)
        se = math.sqrt(va / len(sa) + vb / len(sb))
        # shares that never vary (a proven loss's 0, a forced move's 1) compare exactly
        z = (ma - mb) / se if se > 1e-9 else (0.0 if abs(ma - mb) < 1e-9 else math.copysign(99.0, ma - mb))
        rows.append((m, ma, mb, z))
    ca = {m: sum(r["best"] == m for r in a) for m in moves}
    cb = {m: sum(r["best"] == m for r in b) for m in moves}
    # pool moves chosen fewer than 5 times in both tables into one cell
    cells, rest = [], [0, 0]
    for m in moves:
        if ca[m] + cb[m] >= 10:
            cells.append([ca[m], cb[m]])
        else:
            rest[0] += ca[m]
            rest[1] += cb[m]
    if sum(rest):
        cells.append(rest)
    na, nb = len(a), len(b)
    chi2 = 0.0
    for x, y in cells:
        t = x + y
        for obs, n in ((x, na), (y, nb)):
            e = t * n / (na + nb)
            if e > 0:
                chi2 += (obs - e) ** 2 / e
    return chi2, len(cells) - 1, rows, ca, cb


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--java-src", default=os.environ.get("MCTS_GAMEFRAME"))
    ap.add_argument("--build-dir", default=str(ROOT / "target" / "paper-java-root"))
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "imcts"))
    ap.add_argument("--ours", required=True)
    ap.add_argument("--theirs", required=True)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--positions")
    ap.add_argument("--positions-from")
    ap.add_argument("--plies", default="0,6,12,18,24,30,36,42")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--show", type=int, default=3, help="moves shown per position (largest |z|)")
    ap.add_argument("--save", help="write every search's root to this JSON-lines file")
    args = ap.parse_args()
    if not args.java_src or not Path(args.java_src).is_dir():
        print("skipped: no checkout of tpepels/mcts_gameframe (--java-src or $MCTS_GAMEFRAME)")
        return
    if args.positions:
        positions = [l.strip() for l in open(args.positions) if l.strip()]
    elif args.positions_from:
        positions = positions_from(args.positions_from, [int(p) for p in args.plies.split(",")], args.games)
    else:
        positions = [START]
    cp = compare_paper_java.build(Path(args.java_src), Path(args.build_dir), DRIVERS)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        # the code's side: one JVM per share of the positions
        shares = [list(range(i, len(positions), args.jobs)) for i in range(args.jobs)]
        jf = [ex.submit(theirs, cp, args.theirs, [positions[i] for i in s], args.sims, args.seeds, args.first_seed)
              for s in shares]
        java = {}
        for s, f in zip(shares, jf):
            for (p, seed), r in f.result().items():
                java[(s[p], seed)] = r
        of = {(p, s): ex.submit(ours, args.binary, args.ours, positions[p], args.sims, s)
              for p in range(len(positions)) for s in seeds}
        mine = {k: f.result() for k, f in of.items()}
    if args.save:
        with open(args.save, "w") as f:
            for (p, s), r in sorted(mine.items()):
                f.write(json.dumps({"side": "ours", "pos": p, "seed": s, **r}) + "\n")
            for (p, s), r in sorted(java.items()):
                f.write(json.dumps({"side": "theirs", "pos": p, "seed": s, **r}) + "\n")
    print(f"ours {args.ours} / theirs {args.theirs}, {args.sims} simulations, {args.seeds} seeds, "
          f"{len(positions)} positions")
    total, dof, zs = 0.0, 0, []
    for p, pos in enumerate(positions):
        a = [mine[(p, s)] for s in seeds]
        b = [java[(p, s)] for s in seeds]
        chi2, df, rows, ca, cb = compare(a, b)
        total += chi2
        dof += df
        zs += [r[3] for r in rows]
        sa = sum(r["sims"] for r in a) / len(a)
        sb = sum(r["sims"] for r in b) / len(b)
        top = sorted(rows, key=lambda r: -abs(r[3]))[: args.show]
        shown = ", ".join(f"{m} {x:.3f}/{y:.3f} (z {z:+.1f}; chosen {ca[m]}/{cb[m]})" for m, x, y, z in top)
        print(f"pos {p} [{pos}] sims {sa:.0f}/{sb:.0f}: chosen chi2 {chi2:.1f} df {df} "
              f"p {chi2_sf(chi2, df):.3f}; visit shares ours/theirs: {shown}")
    big = sum(abs(z) > 3 for z in zs)
    print(f"all positions: chosen-move chi2 {total:.1f} df {dof} p {chi2_sf(total, dof):.4f}; "
          f"visit-share z: {big} of {len(zs)} moves beyond |3|, mean z^2 {sum(z * z for z in zs) / max(1, len(zs)):.2f} (1 if equal)")


if __name__ == "__main__":
    main()
