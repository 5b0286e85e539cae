#!/bin/bash
# Whether two builds search alike: runs `imcts ARGS...` (e.g. `search breakthrough --player
# 'mcts(ipp)' --sims 20000 --seed 1 --json`) with both and compares the JSON without its timings
# (`ms`, `sims_per_s`). Prints "same" or "DIFFERENT" (exit status 1).
# Usage: scripts/same_search.sh A B ARGS...
set -euo pipefail
a=$1; b=$2; shift 2
strip() { python3 -c 'import json,sys; d=json.load(sys.stdin); [d.pop(k, None) for k in ("ms", "sims_per_s")]; print(json.dumps(d, sort_keys=True))'; }
if cmp -s <("$a" "$@" | strip) <("$b" "$@" | strip); then echo same; else echo DIFFERENT; exit 1; fi
