#!/usr/bin/env bash
# Query latency and database size on a database holding all the Xiangqi
# and chess games of ../shared/data: 1,000 positions sampled from the
# stored games (a random game, a random ply), the tree of each asked in
# one warm process (xqdb tree --batch); prints p50/p90/p99 latency and the
# database's bytes per game against the gzip'd PGN of the same games.
# Targets: tree p50 <= 2 ms, p99 <= 20 ms; database <= 2x the gzip'd PGN.
#   bench/query.sh            # builds the database in a temporary folder
#   XQDB_BENCH_DB=dir bench/query.sh   # reuse (or build once into) dir
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${XQDB_SHARED_DATA:-../shared/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/xqdb" ./cmd/xqdb
go build -o "$tmp/sample" ./bench/sample
db=${XQDB_BENCH_DB:-$tmp/db}

if [ ! -d "$db/badger" ]; then
  mkdir -p "$tmp/walker"
  tar -xzf "$shared/xiangqi/walker8088-games/walker8088-cchess-games-2f4782f.tar.gz" -C "$tmp/walker"
  inputs=(
    "$shared/xiangqi/ccpd/ccpd_unique.utf8.pgn.gz" "$tmp/walker" "$shared/xiangqi/samples"
    "$shared/chess/pgnmentor-players" "$shared/chess/chess_db-pgn" "$shared/chess/chessjs" "$shared/chess/chessops"
    "$shared/chess/notnil-chess/pgns" "$shared/chess/pgn-read" "$shared/chess/python-chess/pgn"
    "$shared/chess/scalachess" "$shared/chess/shakmaty/pgn-bench" "$shared/chess/pgn-extract/infiles"
  )
  echo "importing all games of $shared ..."
  "$tmp/xqdb" import --db "$db" --json --report "$tmp/report.jsonl" "${inputs[@]}"
fi
"$tmp/xqdb" stats --db "$db"

"$tmp/sample" --db "$db" --n 1000 --seed 7 >"$tmp/positions.tsv"
"$tmp/xqdb" tree --db "$db" --batch "$tmp/positions.tsv" --limit 12 >"$tmp/answers.jsonl"
grep -o '"micros":[0-9]*' "$tmp/answers.jsonl" | cut -d: -f2 | sort -n >"$tmp/micros"
n=$(wc -l <"$tmp/micros")
pick() { sed -n "$(( ($1 * n + 99) / 100 ))p" "$tmp/micros"; }
found=$(grep -c '"games":[1-9]' "$tmp/answers.jsonl" || true)
ended=$(grep -c '"ended_here":[1-9]' "$tmp/answers.jsonl" || true)
printf "tree latency over %d sampled positions: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n" "$n" \
  "$(echo "$(pick 50) / 1000" | bc -l)" "$(echo "$(pick 90) / 1000" | bc -l)" "$(echo "$(pick 99) / 1000" | bc -l)" "$(echo "$(tail -1 "$tmp/micros") / 1000" | bc -l)"
echo "positions with a continuation in the database: $found; ending there: $ended"

# Metadata searches, each a whole process (opening the store included).
for q in "games --query black:吕钦" "games --query carlsen" "games --query date:>=1990" "games --query plies:>40 --sort -rating" \
  "tree --game chess --query date:>=2000" "tree --game chess --moves e4 --query carlsen"; do
  read -r -a args <<<"$q"
  t0=$(date +%s%N)
  "$tmp/xqdb" "${args[@]}" --db "$db" --json --limit 20 >/dev/null
  t1=$(date +%s%N)
  printf "%-50s %5d ms\n" "$q" $(( (t1 - t0) / 1000000 ))
done

stats=$("$tmp/xqdb" stats --db "$db" --json)
bytes=$(grep -o '"bytes":[0-9]*' <<<"$stats" | head -1 | cut -d: -f2)
games=$(sed -E 's/^\{"games":([0-9]+).*/\1/' <<<"$stats")
"$tmp/xqdb" export --db "$db" -o "$tmp/all.pgn"
gz=$(gzip -9 -c "$tmp/all.pgn" | wc -c)
printf "database: %d games, %.1f MB, %.0f bytes a game; the same games as PGN, gzip -9: %.1f MB, %.0f bytes a game; ratio %.2fx\n" \
  "$games" "$(echo "$bytes / 1000000" | bc -l)" "$(echo "$bytes / $games" | bc -l)" "$(echo "$gz / 1000000" | bc -l)" "$(echo "$gz / $games" | bc -l)" "$(echo "$bytes / $gz" | bc -l)"
echo "targets: p50 <= 2 ms, p99 <= 20 ms, database <= 2x the gzip'd PGN"
