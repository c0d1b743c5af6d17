#!/usr/bin/env bash
# Book building speed: xqdb book build against Debian's polyglot make-book on
# the same PGN, in one run; then the time to build from a database with
# --query. Prints wall and CPU seconds and the ratio. Target: xqdb >= 3x
# polyglot (wall time).
#   bench/book.sh [CHESS.pgn...]   default: the pgnmentor files of ../shared/data
#                                  that polyglot builds cleanly: all but
#                                  Gelfand (an illegal move), Stein (NUL bytes:
#                                  "symbol too long") and the 10 single-game
#                                  AlphaZero files (a UTF-8 BOM: "lexical
#                                  error"); polyglot stops at the first and
#                                  writes no book
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/games"
command -v polyglot >/dev/null || { echo "book.sh needs polyglot (apt-get install polyglot)" >&2; exit 1; }
shared=${XQDB_SHARED_DATA:-../shared/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/xqdb" ./cmd/xqdb

if [ $# -gt 0 ]; then
  cat "$@" >"$tmp/chess.pgn"
else
  for f in "$shared"/chess/pgnmentor-players/*.pgn.gz; do
    case "$f" in */Gelfand.pgn.gz | */Stein.pgn.gz | */AlphaZero-Stockfish_game*.pgn.gz | */Stockfish-AlphaZero_game*.pgn.gz) continue ;; esac
    gzip -dc "$f"
  done >"$tmp/chess.pgn"
fi
cat "$tmp/chess.pgn" >/dev/null # warm the page cache
games=$(grep -c '^\[Event ' "$tmp/chess.pgn" || true)

# run LABEL CMD...: wall and CPU (user+sys) seconds of one command.
run() {
  local label=$1; shift
  local t0 t1 c0 c1
  t0=$(date +%s.%N); c0=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
  "$@" >"$tmp/out.txt" 2>&1
  t1=$(date +%s.%N); c1=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
  wall=$(echo "$t1 - $t0" | bc -l)
  cpu=$(echo "($c1 - $c0) / $(getconf CLK_TCK)" | bc -l)
  printf "%-44s %8.2fs wall %8.2fs cpu %9.0f games/s\n" "$label" "$wall" "$cpu" "$(echo "$games / $wall" | bc -l)"
}

printf "chess corpus: %d games, %s MB\n" "$games" "$(( $(stat -c %s "$tmp/chess.pgn") / 1000000 ))"
run "polyglot make-book" polyglot make-book -pgn "$tmp/chess.pgn" -bin "$tmp/pg.bin"; pw=$wall pc=$cpu
[ -s "$tmp/pg.bin" ] || { echo "polyglot wrote no book:"; tail -3 "$tmp/out.txt"; exit 1; }
run "xqdb book build --polyglot-compat" "$tmp/xqdb" book build --polyglot-compat -o "$tmp/xq.bin" "$tmp/chess.pgn"; xw=$wall xc=$cpu
run "xqdb book build --polyglot-compat --jobs 1" "$tmp/xqdb" book build --polyglot-compat --jobs 1 -o "$tmp/xq1.bin" "$tmp/chess.pgn"; x1w=$wall
if cmp -s "$tmp/pg.bin" "$tmp/xq.bin"; then same="byte for byte the same ($(stat -c %s "$tmp/xq.bin") bytes)"; else same="DIFFERENT"; fi
printf "ratio: %.2fx wall (%.2fx with one worker), %.2fx cpu; the two books are %s\n" \
  "$(echo "$pw / $xw" | bc -l)" "$(echo "$pw / $x1w" | bc -l)" "$(echo "$pc / $xc" | bc -l)" "$same"

# From a database: import once, then build with a metadata query.
"$tmp/xqdb" import --db "$tmp/db" "$tmp/chess.pgn" >/dev/null 2>&1
q='date:>="2000"'
run "xqdb book build --db --query '$q'" "$tmp/xqdb" book build --db "$tmp/db" --query "$q" -o "$tmp/q.bin"
echo "  $(cat "$tmp/out.txt")"
run "xqdb book build --db (all games)" "$tmp/xqdb" book build --db "$tmp/db" -o "$tmp/all.bin"
echo "  $(cat "$tmp/out.txt")"
echo "target: xqdb >= 3x polyglot make-book"
