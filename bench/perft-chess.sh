#!/usr/bin/env bash
# perft-chess.sh: chess perft speed of engine/chess against Stockfish's
# "go perft" on the same positions and depths, in the same run.
#
# Usage: bench/perft-chess.sh [quick]
#   quick: one depth less everywhere (seconds instead of about a minute).
#
# Go side: the test binary's BenchmarkPerftEnv (engine/chess/bench_test.go),
# one iteration per position, nodes/s measured inside the process.
# Stockfish side: wall time of "position …; go perft N" minus the wall time of
# a bare start-up ("isready"), so NNUE loading is not charged to perft.
# Both are single-threaded; both count the last ply in bulk.
set -euo pipefail
cd "$(dirname "$0")/.."

SF="${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}"
[ -x "$SF" ] || { echo "perft-chess: stockfish not found (set STOCKFISH=...)" >&2; exit 1; }

less=0
[ "${1:-}" = quick ] && less=1

positions=(
  "start|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6"
  "kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5"
  "pos3|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|7"
  "pos4|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|6"
  "pos5|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|6"
)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/chess.test" ./engine/chess

now() { date +%s.%N; }
# Start-up time: the fastest of three bare runs.
startup=1000
for _ in 1 2 3; do
  t0=$(now); echo -e "isready\nquit" | "$SF" >/dev/null; t1=$(now)
  startup=$(echo "s = $t1 - $t0; if (s < $startup) s else $startup" | bc -l)
done

printf '%-9s %5s %14s %14s %14s %7s\n' position depth nodes "xqdb n/s" "stockfish n/s" ratio
sum_ratio=0; count=0
for entry in "${positions[@]}"; do
  IFS='|' read -r name fen depth <<<"$entry"
  depth=$((depth - less))
  out="$(XQDB_PERFT_FEN="$fen" XQDB_PERFT_DEPTH="$depth" "$tmp/chess.test" \
        -test.run '^$' -test.bench '^BenchmarkPerftEnv$' -test.benchtime 1x)"
  go_nps=$(awk '/BenchmarkPerftEnv/ { for (i = 1; i < NF; i++) if ($(i+1) == "nodes/s") print $i }' <<<"$out")
  go_nodes=$(awk '/BenchmarkPerftEnv/ { for (i = 1; i < NF; i++) if ($(i+1) == "nodes/op") print $i }' <<<"$out")
  t0=$(now)
  sf_out="$(echo -e "position fen $fen\ngo perft $depth\nquit" | "$SF")"
  t1=$(now)
  sf_nodes=$(awk '/Nodes searched/ { print $3 }' <<<"$sf_out")
  if [ "$(printf '%.0f' "$go_nodes")" != "$sf_nodes" ]; then
    echo "perft-chess: $name depth $depth: xqdb $go_nodes nodes, stockfish $sf_nodes" >&2
    exit 1
  fi
  sf_secs=$(echo "$t1 - $t0 - $startup" | bc -l)
  sf_nps=$(echo "$sf_nodes / $sf_secs" | bc -l)
  ratio=$(echo "$go_nps / $sf_nps" | bc -l)
  printf '%-9s %5d %14d %14.0f %14.0f %7.2f\n' "$name" "$depth" "$sf_nodes" "$go_nps" "$sf_nps" "$ratio"
  sum_ratio=$(echo "$sum_ratio + $ratio" | bc -l); count=$((count + 1))
done
printf 'mean ratio xqdb/stockfish: %.2f (target >= 0.5)\n' "$(echo "$sum_ratio / $count" | bc -l)"
