#!/usr/bin/env python3
"""A match of imcts (imcts.openspiel.Bot) against OpenSpiel's C++ MCTS (pyspiel.MCTSBot).

    python python/examples/openspiel_match.py GAME GAMES SIMS [SPEC]

GAME is an OpenSpiel name (breakthrough, mancala, tic_tac_toe); both bots get SIMS
simulations a move (OpenSpiel's with one random rollout per leaf, UCT c = 2, its solver on);
imcts plays SPEC (default ``mcts``). Colours alternate; seeds are fixed per game, so a run
repeats exactly. Prints imcts' score with a 95% Wilson interval.
"""

import math
import sys
import time

import pyspiel

from imcts.openspiel import Bot


def wilson(score: float, n: int, z: float = 1.96) -> "tuple[float, float]":
    """The Wilson score interval of a proportion ``score`` out of ``n`` (draws count 1/2)."""
    if n == 0:
        return (0.0, 1.0)
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def seeded(spec: str, seed: int) -> str:
    """``spec`` with ``seed<seed>`` added, unless it sets a seed itself."""
    if "seed" in spec:
        return spec
    if spec.endswith(")"):
        return f"{spec[:-1]},seed{seed})"
    return f"{spec}(seed{seed})"


def main() -> None:
    game_name, games, sims = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    spec = sys.argv[4] if len(sys.argv) > 4 else "mcts"
    game = pyspiel.load_game(game_name)
    wins = draws = losses = 0
    start = time.monotonic()
    for g in range(games):
        ours = Bot(game_name, spec=seeded(spec, g), sims=sims, pool_nodes=1 << 18)
        theirs = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1000 + g), 2.0, sims,
                                 100, True, 2000 + g, False)
        imcts_player = g % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            bot = ours if state.current_player() == imcts_player else theirs
            state.apply_action(bot.step(state))
        r = state.returns()[imcts_player]
        wins, draws, losses = wins + (r > 0), draws + (r == 0), losses + (r < 0)
    n = wins + draws + losses
    score = (wins + draws / 2) / n
    low, high = wilson(score, n)
    print(f"{game_name}: imcts {spec} vs pyspiel.MCTSBot, {sims} sims a move, {n} games: "
          f"+{wins} ={draws} -{losses}, score {score:.3f} [{low:.3f}, {high:.3f}] "
          f"({time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main()
