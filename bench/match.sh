#!/usr/bin/env bash
# Strength of xqdb's search (xqdb uci) against Fairy-Stockfish in Xiangqi at
# the same node budget per move, in one run (target: xqdb scores >= 35%):
# PAIRS openings of random plies, each played twice with the colours
# swapped, every game judged by xqdb's referee (asian rules, as
# Fairy-Stockfish plays). First the harness check: a random mover in the
# same harness must score about 0.
#   bench/match.sh                       # 100 pairs = 200 games at 3000 nodes/move
#   NODES=10000 PAIRS=20 bench/match.sh  # other budgets
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/games"
command -v fairy-stockfish >/dev/null || { echo "match.sh needs fairy-stockfish (apt-get install fairy-stockfish)" >&2; exit 1; }
NODES=${NODES:-3000}
PAIRS=${PAIRS:-100}
CONCURRENCY=${CONCURRENCY:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/xqdb" ./cmd/xqdb
go build -o "$tmp/match" ./bench/match
fsf=$(command -v fairy-stockfish)
echo "harness check: a random mover against Fairy-Stockfish, $NODES nodes/move"
"$tmp/match" -engine1 random -engine2 "$fsf" -variant xiangqi -nodes "$NODES" -pairs 10 -concurrency "$CONCURRENCY" -seed 2
echo "xqdb uci against Fairy-Stockfish, $NODES nodes/move, $((2 * PAIRS)) games"
"$tmp/match" -engine1 "$tmp/xqdb uci" -engine2 "$fsf" -variant xiangqi -nodes "$NODES" -pairs "$PAIRS" -concurrency "$CONCURRENCY" -seed 1
