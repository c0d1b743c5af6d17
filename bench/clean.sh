#!/usr/bin/env bash
# Cleaning speed: xqdb clean against pgn-extract -s (Debian) on the same chess
# corpus, in one run, and xqdb's Xiangqi figure on CCPD (no peer reads
# Xiangqi). Prints games/s and the ratio. Target: xqdb >= 2x pgn-extract.
#   bench/clean.sh [CHESS.pgn...]   default: the pgnmentor corpus of ../shared/data
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/games"
command -v pgn-extract >/dev/null || { echo "clean.sh needs pgn-extract (apt-get install pgn-extract)" >&2; exit 1; }
shared=${XQDB_SHARED_DATA:-../shared/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/xqdb" ./cmd/xqdb

# Both tools read the same uncompressed PGN (pgn-extract does not read gzip).
if [ $# -gt 0 ]; then
  cat "$@" >"$tmp/chess.pgn"
else
  for f in "$shared"/chess/pgnmentor-players/*.pgn.gz; do gzip -dc "$f"; done >"$tmp/chess.pgn"
fi
gzip -dc "$shared/xiangqi/ccpd/ccpd_unique.utf8.pgn.gz" >"$tmp/ccpd.pgn"
cat "$tmp/chess.pgn" "$tmp/ccpd.pgn" >/dev/null # warm the page cache

now() { date +%s.%N; }
games=$(grep -c '^\[Event ' "$tmp/chess.pgn" || true)

t0=$(now); pgn-extract -s -o "$tmp/pe.pgn" "$tmp/chess.pgn" 2>/dev/null; t1=$(now)
pe=$(echo "$t1 - $t0" | bc -l)
t0=$(now); "$tmp/xqdb" clean --json -o "$tmp/xq.pgn" "$tmp/chess.pgn" >"$tmp/xq.json"; t1=$(now)
xq=$(echo "$t1 - $t0" | bc -l)
t0=$(now); "$tmp/xqdb" clean --json -o "$tmp/xq1.pgn" --jobs 1 "$tmp/chess.pgn" >/dev/null; t1=$(now)
xq1=$(echo "$t1 - $t0" | bc -l)

printf "chess corpus: %d games, %s MB\n" "$games" "$(( $(stat -c %s "$tmp/chess.pgn") / 1000000 ))"
printf "%-28s %8.2fs %10.0f games/s\n" "pgn-extract -s -o" "$pe" "$(echo "$games / $pe" | bc -l)"
printf "%-28s %8.2fs %10.0f games/s  %.2fx\n" "xqdb clean (jobs $(nproc))" "$xq" "$(echo "$games / $xq" | bc -l)" "$(echo "$pe / $xq" | bc -l)"
printf "%-28s %8.2fs %10.0f games/s  %.2fx\n" "xqdb clean --jobs 1" "$xq1" "$(echo "$games / $xq1" | bc -l)" "$(echo "$pe / $xq1" | bc -l)"
echo "xqdb summary: $(cat "$tmp/xq.json")"

xgames=$(grep -c '^\[Game ' "$tmp/ccpd.pgn" || true)
t0=$(now); "$tmp/xqdb" clean --json -o "$tmp/xqx.pgn" "$tmp/ccpd.pgn" >"$tmp/xqx.json"; t1=$(now)
xx=$(echo "$t1 - $t0" | bc -l)
printf "xiangqi (CCPD, %d games, Chinese notation): xqdb clean %.2fs, %.0f games/s\n" "$xgames" "$xx" "$(echo "$xgames / $xx" | bc -l)"
echo "xqdb summary: $(cat "$tmp/xqx.json")"
echo "target: xqdb >= 2x pgn-extract"
