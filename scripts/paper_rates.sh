#!/bin/bash
# Simulations per second of issue 12's table rows (the papers' configurations), one 5 s search
# per row, all rows in turn, repeated REPEAT times (default 2). Prints
# `<repeat> <game> <spec> <start|mid> <sims_per_s> <1-minute load> <full>` per search, where
# `full` says whether the tree filled the node pool before the time was up (simulations then go
# on without expanding, and the rate is no longer the search's).
# Usage: scripts/paper_rates.sh [IMCTS_BINARY] (default target/release/imcts); MS=5000 REPEAT=2
# POOL=40000000 (issue 12's pool, nodes; a 5 s `mcts(efLH,bl')` search from the middle position
# outgrows it since session 30: POOL=80000000 takes 1.9 GB).
set -euo pipefail
B=${1:-target/release/imcts}
MS=${MS:-5000}
REPEAT=${REPEAT:-2}
POOL=${POOL:-40000000}
MID='8/1pp3p1/pppp1ppp/1p1p1p1p/1P1P1P1P/PPPP1PPP/P3P2P/8 w'
rate() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["sims_per_s"], "full" if d["pool_full"] else "-")'; }
for rep in $(seq 1 "$REPEAT"); do
  for spec in "mcts" "mcts(ipp)" "mcts(bl)" "mcts(bl,im0.4)" "mcts(efLH,bl')" "mcts(efLH,bl',im0.6)"; do
    r=$("$B" search breakthrough --player "$spec" --ms "$MS" --pool "$POOL" --json | rate)
    read -r r full <<< "$r"
    echo "$rep breakthrough $spec start $r $(cut -d' ' -f1 /proc/loadavg) $full"
    r=$("$B" search breakthrough --player "$spec" --ms "$MS" --pool "$POOL" --position "$MID" --json | rate)
    read -r r full <<< "$r"
    echo "$rep breakthrough $spec mid $r $(cut -d' ' -f1 /proc/loadavg) $full"
  done
  for spec in "mcts(fet4)" "mcts(fet4,im0.3)"; do
    r=$("$B" search kalah --player "$spec" --ms "$MS" --pool "$POOL" --json | rate)
    read -r r full <<< "$r"
    echo "$rep kalah $spec start $r $(cut -d' ' -f1 /proc/loadavg) $full"
  done
done
