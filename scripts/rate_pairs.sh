#!/bin/bash
# Speed of build B against build A on one configuration, as the median ratio over alternating
# pairs of searches (A then B, the same seed in both, seeds 1..ROUNDS), so that a shared
# machine's drift falls on both builds alike. Prints the median of B's simulations/s over A's,
# the range, how many pairs B won, and A's median rate.
# Usage: scripts/rate_pairs.sh A B SPEC SIMS ROUNDS [POSITION] [GAME]   (GAME: breakthrough)
set -euo pipefail
A=$1; B=$2; SPEC=$3; N=$4; R=$5; POS=${6:-}; GAME=${7:-breakthrough}
F=$(mktemp)
for r in $(seq "$R"); do
  for X in "$A" "$B"; do
    if [ -n "$POS" ]; then
      o=$("$X" search "$GAME" --player "$SPEC" --sims "$N" --pool 8000000 --seed "$r" --position "$POS" --json)
    else
      o=$("$X" search "$GAME" --player "$SPEC" --sims "$N" --pool 8000000 --seed "$r" --json)
    fi
    echo "$o" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sims_per_s"], end=" ")' >> "$F"
  done
  echo >> "$F"
done
LABEL="$GAME $SPEC${POS:+ (position given)}" python3 - "$F" <<'PY'
import os, statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
r = sorted(float(b) / float(a) for a, b in rows)
print("%s: B/A median %.3f (%.3f-%.3f), B faster in %d of %d pairs; A's median %.0f sims/s" % (
    os.environ["LABEL"], statistics.median(r), r[0], r[-1], sum(x > 1 for x in r), len(r),
    statistics.median(float(a) for a, _ in rows)))
PY
rm -f "$F"
