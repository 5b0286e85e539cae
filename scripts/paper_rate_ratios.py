#!/usr/bin/env python3
"""Java rates by ratio (issue 17): reads the `search` lines that scripts/java/PaperRate.java
prints, pairs each new label's search with its reference label's search of the same round and
position (run one after the other, so under about the same machine load), and scales the
reference's known idle rate by the median of those ratios over every round of every file.

Usage:
    python3 scripts/paper_rate_ratios.py --pair NEW=REF:START:MIDDLE [--pair ...] FILE...

START and MIDDLE are REF's known rates (simulations/s) at the start and middle positions, e.g.
issue 12's `mcts_s_h_im0.4=mcts_s_h:16800:64300`. Prints per pair and position the median ratio,
the number of ratios, and the scaled rate rounded to 100, then the mean of the two positions
(what `cli/src/paper_budget.rs` uses as the budget at 1 s a move).
"""
import argparse
import statistics


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pair", action="append", required=True, help="NEW=REF:START:MIDDLE")
    ap.add_argument("files", nargs="+", help="PaperRate outputs")
    args = ap.parse_args()
    ratios = {}
    pairs = []
    for p in args.pair:
        new, rest = p.split("=")
        ref, start, middle = rest.split(":")
        pairs.append((new, ref, {"start": float(start), "middle": float(middle)}))
    for f in args.files:
        rates = {}
        with open(f) as fh:
            for line in fh:
                w = line.split()
                if w and w[0] == "search":
                    rates[(int(w[1]), w[2], w[3])] = float(w[6])
        rounds = sorted({k[0] for k in rates})
        for new, ref, _ in pairs:
            for pos in ("start", "middle"):
                for r in rounds:
                    if (r, pos, new) in rates and (r, pos, ref) in rates:
                        ratios.setdefault((new, pos), []).append(rates[(r, pos, new)] / rates[(r, pos, ref)])
    for new, ref, known in pairs:
        scaled = {}
        for pos in ("start", "middle"):
            rs = ratios.get((new, pos), [])
            if not rs:
                raise SystemExit(f"no {pos} searches of both {new} and {ref}")
            m = statistics.median(rs)
            scaled[pos] = round(known[pos] * m, -2)
            print(f"{new} / {ref} {pos}: median ratio {m:.3f} over {len(rs)} rounds -> {scaled[pos]:.0f} sims/s")
        print(f"{new}: mean of start and middle {(scaled['start'] + scaled['middle']) / 2:.0f} sims/s")


if __name__ == "__main__":
    main()
