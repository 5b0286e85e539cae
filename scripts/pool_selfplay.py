#!/usr/bin/env python3
"""Equal-time self-play in Breakthrough that measures what a larger node pool is worth: one
build and spec through `imcts engine`, side A with `pool A_POOL`, side B with `pool B_POOL`,
seats alternating, per-game engine seeds. Prints each game, then A's score (Wilson 95%) and how
many moves of each side filled its pool (the answer's `size` within 64 nodes of the capacity).
Optional; not used by tests (docs/performance.md, "Session 15").

Usage: scripts/pool_selfplay.py IMCTS SPEC MS GAMES A_POOL B_POOL [SEED_BASE]"""
import subprocess, sys, math
imcts, spec, ms, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
a_pool, b_pool = int(sys.argv[5]), int(sys.argv[6])
base = int(sys.argv[7]) if len(sys.argv) > 7 else 0
def eng(seed, pool):
    p = subprocess.Popen([imcts, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def cmd(c):
        p.stdin.write(c + "\n"); p.stdin.flush(); return p.stdout.readline().strip()
    assert cmd("game breakthrough").startswith("ok")
    assert cmd(f"player {spec}").startswith("ok"); assert cmd(f"seed {seed}").startswith("ok")
    assert cmd(f"pool {pool}").startswith("ok")
    return p, cmd
score = 0.0; full = {"a": [0, 0], "b": [0, 0]}
for g in range(games):
    pa, ca = eng(base + 1000 + g, a_pool); pb, cb = eng(base + 5000 + g, b_pool)
    a_first = g % 2 == 0
    side = [ca, cb] if a_first else [cb, ca]
    names = ["a", "b"] if a_first else ["b", "a"]
    t = 0
    while True:
        st = ca("status")
        if st.startswith("ok over"):
            break
        r = side[t % 2](f"go ms {ms}").split()
        mv = r[r.index("bestmove") + 1]
        size = int(r[r.index("size") + 1])
        who = names[t % 2]
        cap = a_pool if who == "a" else b_pool
        full[who][0] += size >= cap - 64; full[who][1] += 1
        assert ca(f"play {mv}").startswith("ok") and cb(f"play {mv}").startswith("ok")
        t += 1
    first_won = "first wins" in st
    s = 1.0 if first_won == a_first else 0.0
    score += s
    for p in (pa, pb): p.stdin.close(); p.wait()
    print(f"game {g} a_first {int(a_first)} a_score {s} plies {t} a_full {full['a'][0]}/{full['a'][1]} b_full {full['b'][0]}/{full['b'][1]}", flush=True)
n = games; p = score / n; z = 1.96
c = (p + z*z/(2*n)) / (1 + z*z/n); h = z*math.sqrt(p*(1-p)/n + z*z/(4*n*n)) / (1 + z*z/n)
print(f"A ({spec}, pool {a_pool}) vs B (pool {b_pool}), {ms} ms: {score}/{n} = {100*p:.1f}% (Wilson {100*(c-h):.1f}-{100*(c+h):.1f}); full moves A {full['a'][0]}/{full['a'][1]} B {full['b'][0]}/{full['b'][1]}")
