#!/usr/bin/env python3
"""Two builds of imcts against each other (Breakthrough unless GAME is given): the same player spec, a fixed number of
simulations a move, seats alternating, per-game seeds, each side through `imcts engine`. For
checking that a change to the search or a playout does not make a player weaker than the last
landed build (build that from a clean checkout of the previous commit).

Usage: scripts/compare_builds.py NEW_IMCTS OLD_IMCTS SPEC SIMS GAMES [SEED_BASE [GAME]]
SEED_BASE (default 0) offsets every game seed, for a further run on fresh games; GAME (default
breakthrough) is any game `imcts engine` knows (`loa`, `kalah`, ...).
Prints NEW's score with a Wilson 95% interval. Optional; not used by tests.
"""
import subprocess, sys, math
new, old, spec, sims, games = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
base = int(sys.argv[6]) if len(sys.argv) > 6 else 0
game = sys.argv[7] if len(sys.argv) > 7 else "breakthrough"
def eng(path, seed):
    p = subprocess.Popen([path, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def cmd(c):
        p.stdin.write(c + "\n"); p.stdin.flush(); return p.stdout.readline().strip()
    assert cmd(f"game {game}").startswith("ok")
    assert cmd(f"player {spec}").startswith("ok"); assert cmd(f"seed {seed}").startswith("ok")
    return p, cmd
score = 0.0
for g in range(games):
    pn, cn = eng(new, base + 1000 + g); po, co = eng(old, base + 5000 + g)
    first = cn if g % 2 == 0 else co   # new plays first in even games
    second = co if g % 2 == 0 else cn
    side = [first, second]; t = 0
    while True:
        st = cn("status")
        if st.startswith("ok over"):
            break
        r = side[t % 2](f"go sims {sims}").split()
        mv = r[r.index("bestmove") + 1]
        assert cn(f"play {mv}").startswith("ok") and co(f"play {mv}").startswith("ok")
        t += 1
    if "draw" in st: s = 0.5
    else:
        first_won = "first wins" in st
        s = 1.0 if first_won == (g % 2 == 0) else 0.0
    score += s
    for c in (cn, co): c("quit")
n = games; p = score / n; z = 1.96
den = 1 + z*z/n; c = (p + z*z/(2*n)) / den; h = z*math.sqrt(p*(1-p)/n + z*z/(4*n*n)) / den
print(f"{game} {spec} new vs old, {sims} sims, {n} games: {100*p:.1f}% (Wilson 95% {100*(c-h):.1f}-{100*(c+h):.1f})")
