#!/usr/bin/env python3
"""Simulations per second of OpenSpiel's MCTS and imcts's on Breakthrough, in the same run.

Optional and not used by any test. OpenSpiel's side is `pyspiel.MCTSBot` with one random
rollout per simulation (`pyspiel.RandomRolloutEvaluator(1, seed)`), the solver on, from the
8x8 start position; imcts's side is `imcts search breakthrough --player mcts --sims N --json`
(UCT, MCTS-Solver, one random playout per simulation), field `sims_per_s`. Both use the same
UCT constant (0.8, imcts's Breakthrough default) and one thread.

    pip install open-spiel            # once (the script offers to do it with --install)
    cargo build --release -p imcts-cli
    python3 scripts/compare_openspiel.py --sims 20000 --repeats 3

Each side is run --repeats times, alternating, and the median rate is reported with the ratio.
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def import_pyspiel(install):
    try:
        import pyspiel  # noqa: F401

        return pyspiel
    except ImportError:
        if not install:
            sys.exit("pyspiel is missing: pip install open-spiel (or pass --install)")
        subprocess.run([sys.executable, "-m", "pip", "install", "open-spiel"], check=True)
        import pyspiel

        return pyspiel


def openspiel_rate(pyspiel, sims, seed, uct_c):
    game = pyspiel.load_game("breakthrough")
    state = game.new_initial_state()
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    # MCTSBot(game, evaluator, uct_c, max_simulations, max_memory_mb, solve, seed, verbose)
    bot = pyspiel.MCTSBot(game, evaluator, uct_c, sims, 1 << 14, True, seed, False)
    t = time.perf_counter()
    bot.step(state)
    return sims / (time.perf_counter() - t)


def imcts_rate(binary, sims, seed):
    out = subprocess.run(
        [str(binary), "search", "breakthrough", "--player", "mcts", "--sims", str(sims),
         "--seed", str(seed), "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    d = json.loads(out)
    assert d["sims"] == sims, d
    return float(d["sims_per_s"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--uct-c", type=float, default=0.8)
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "imcts"))
    ap.add_argument("--install", action="store_true", help="pip install open-spiel if missing")
    args = ap.parse_args()

    pyspiel = import_pyspiel(args.install)
    binary = Path(args.binary)
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release", "-p", "imcts-cli"], cwd=ROOT, check=True)

    ours, theirs = [], []
    for i in range(args.repeats):
        theirs.append(openspiel_rate(pyspiel, args.sims, args.seed + i, args.uct_c))
        ours.append(imcts_rate(binary, args.sims, args.seed + i))
    o, t = statistics.median(ours), statistics.median(theirs)
    print(f"breakthrough start, {args.sims} simulations, median of {args.repeats}")
    print(f"openspiel MCTSBot (1 random rollout): {t:12.0f} sims/s  runs {[round(x) for x in theirs]}")
    print(f"imcts mcts:                           {o:12.0f} sims/s  runs {[round(x) for x in ours]}")
    print(f"ratio imcts / openspiel:              {o / t:12.2f}")


if __name__ == "__main__":
    main()
