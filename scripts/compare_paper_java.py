#!/usr/bin/env python3
"""imcts against the paper authors' own Java code, game by game, with a Wilson interval.

Optional and not used by any test. The paper's code (tpepels/mcts_gameframe, the games of the
paper were played at commit 5a6fb5f) is NOT part of imcts: fetch it yourself and pass its path.
Without it the script says so and exits with status 0.

    git clone https://github.com/tpepels/mcts_gameframe /tmp/mcts_gameframe
    git -C /tmp/mcts_gameframe checkout 5a6fb5f
    cargo build --release -p imcts-cli
    python3 scripts/compare_paper_java.py --java-src /tmp/mcts_gameframe \\
        --game breakthrough --ours 'mcts(bl,im0.4)' --theirs mcts_s_h_ege0.1_det0.5_im0.4 \\
        --sims 1000 --games 100 --jobs 2 --seed 1

The script compiles the paper's `mcts`, `breakthrough` and `kalah` sources with javac into a
build directory (default `target/paper-java`), together with this project's own driver
`scripts/java/ImctsVsPaper.java`. The driver builds the paper's player from its SimGame label
(`mcts_s_h_pd20_np10_efv1_im0.6`, ...), uses the paper's board as referee and talks to
`imcts engine` for our side. Seats alternate (game i: imcts first when i is even); with --sims
both sides run that many simulations a move, with --ms both get that much wall-clock time.
--our-sims J (with --sims K) gives our side J simulations a move and the code's K, to set the
two searches against each other at a fixed ratio of simulations.
Kalah plays the paper's protocol: each random board twice with seats swapped, a pair counts as
a win for the side that won one game and at least drew the other, pairs won by the same seat
are discarded. Draws count half. For Kalah it also prints the score of every game on its own
(each board's two games, none discarded). imcts is given the Kalah rules the paper's board plays
(`paper-code`: its capture rule and its end test, docs/reproduction.md row K3). --jobs splits the games over parallel driver processes; the
result does not depend on it (each game's seeds come from --seed and its index).

    python3 scripts/compare_paper_java.py --java-src /tmp/mcts_gameframe --game kalah --check-rules 300

checks the rules instead: random games on the paper's board, each move replayed by
`imcts engine` from the same position, the resulting positions compared.
"""

import argparse
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "scripts" / "java" / "ImctsVsPaper.java"
# The parts of the paper's code a Breakthrough or Kalah MCTS player needs.
JAVA_DIRS = ["mcts/src", "breakthrough/src/breakthrough/game", "kalah/src"]


def wilson(wins, n, z=1.96):
    """The 95% Wilson score interval of a rate, as (low, high)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def build(src, out, drivers=(DRIVER,)):
    """Compiles the paper's sources and our drivers into `out`; returns the class path."""
    if shutil.which("javac") is None:
        sys.exit("javac not found: install a JDK (17 works)")
    files = []
    for d in JAVA_DIRS:
        files += [str(p) for p in (src / d).rglob("*.java")]
    if not files:
        sys.exit(f"no Java sources under {src}: is it a checkout of tpepels/mcts_gameframe?")
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["javac", "-nowarn", "-d", str(out)] + files, check=True)
    subprocess.run(["javac", "-nowarn", "-cp", str(out), "-d", str(out)] + [str(d) for d in drivers], check=True)
    return str(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--java-src", default=os.environ.get("MCTS_GAMEFRAME"),
                    help="checkout of tpepels/mcts_gameframe (or $MCTS_GAMEFRAME)")
    ap.add_argument("--game", default="breakthrough", choices=["breakthrough", "kalah"])
    ap.add_argument("--ours", help="imcts player spec, e.g. 'mcts(bl,im0.4)'")
    ap.add_argument("--theirs", help="SimGame label, e.g. mcts_s_h_im0.4")
    ap.add_argument("--check-rules", type=int, metavar="N",
                    help="instead of a match: N random games, every move's result compared")
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--sims", type=int, help="simulations a move, both sides")
    budget.add_argument("--ms", type=int, help="milliseconds a move, both sides")
    ap.add_argument("--our-sims", type=int,
                    help="with --sims: imcts's simulations a move (the code's stay --sims)")
    ap.add_argument("--games", type=int, default=100, help="games (Kalah: board pairs)")
    ap.add_argument("--first", type=int, default=0, help="index of the first game")
    ap.add_argument("--kalah-rules", default="paper-code", choices=["paper-code", "empty-capture"],
                    help="Kalah rules imcts is told (the referee always plays the code's own); "
                         "empty-capture hides the code's end test from imcts (row K3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "imcts"))
    ap.add_argument("--build-dir", default=str(ROOT / "target" / "paper-java"))
    ap.add_argument("--log", help="append every result line to this file")
    args = ap.parse_args()

    if not args.java_src or not Path(args.java_src, "mcts").is_dir():
        print("paper's Java code not found (pass --java-src or set MCTS_GAMEFRAME): skipped")
        return 0
    binary = Path(args.binary)
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release", "-p", "imcts-cli"], cwd=ROOT, check=True)
    cp = build(Path(args.java_src), Path(args.build_dir))
    if args.check_rules:
        subprocess.run(["java", "-cp", cp, "ImctsVsPaper", "--imcts", str(binary), "--game",
                        args.game, "--check-rules", str(args.check_rules), "--seed",
                        str(args.seed), "--kalah-rules", args.kalah_rules], check=True)
        return 0
    if not (args.ours and args.theirs and (args.sims or args.ms)):
        ap.error("a match needs --ours, --theirs and --sims or --ms")

    if args.our_sims and not args.sims:
        ap.error("--our-sims needs --sims")
    budget = ["--sims", str(args.sims)] if args.sims else ["--ms", str(args.ms)]
    if args.our_sims:
        budget += ["--our-sims", str(args.our_sims)]
    jobs = max(1, min(args.jobs, args.games))
    per = [args.games // jobs + (1 if j < args.games % jobs else 0) for j in range(jobs)]
    procs, start = [], args.first
    for n in per:
        cmd = ["java", "-Xmx1g", "-XX:+UseSerialGC", "-cp", cp, "ImctsVsPaper",
               "--imcts", str(binary), "--game", args.game, "--ours", args.ours,
               "--theirs", args.theirs, "--games", str(n), "--first", str(start),
               "--seed", str(args.seed), "--kalah-rules", args.kalah_rules] + budget
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True))
        start += n

    counts = {"win": 0, "loss": 0, "draw": 0, "discard": 0}
    games = {"win": 0, "loss": 0, "draw": 0}
    our_sims = their_sims = moves = 0
    log = open(args.log, "a") if args.log else None
    for p in procs:
        for line in p.stdout:
            w = line.split()
            if not w or w[0] != "result":
                continue
            counts[w[4]] += 1
            f = dict(zip(w[5::2], w[6::2]))
            moves += int(f["plies"])
            our_sims += int(f["our_sims"])
            their_sims += int(f["their_sims"])
            for k, field in (("win", "game_wins"), ("loss", "game_losses"), ("draw", "game_draws")):
                games[k] += int(f.get(field, 0))
            if log:
                log.write(line)
                log.flush()
            print(line.rstrip(), flush=True)
        if p.wait() != 0:
            sys.exit(f"driver failed with status {p.returncode}")
    n = counts["win"] + counts["loss"] + counts["draw"]
    score = counts["win"] + 0.5 * counts["draw"]
    lo, hi = wilson(score, n)
    rate = 100 * score / n if n else 0.0
    print(f"{args.game}: {args.ours} vs paper's {args.theirs}, "
          f"{'%d sims' % args.sims if args.sims else '%d ms' % args.ms} a move"
          f"{' (ours %d)' % args.our_sims if args.our_sims else ''}: "
          f"{counts['win']} wins, {counts['loss']} losses, {counts['draw']} draws"
          f"{', %d discarded' % counts['discard'] if counts['discard'] else ''} -> "
          f"{rate:.1f}% (Wilson 95%: {100 * lo:.1f}-{100 * hi:.1f}%)")
    gn = sum(games.values())
    if gn:
        # Kalah: every game of every pair on its own, none discarded.
        gs = games["win"] + 0.5 * games["draw"]
        glo, ghi = wilson(gs, gn)
        print(f"kalah games one by one: {games['win']} wins, {games['loss']} losses, "
              f"{games['draw']} draws of {gn} -> {100 * gs / gn:.1f}% "
              f"(Wilson 95%: {100 * glo:.1f}-{100 * ghi:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
