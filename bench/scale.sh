#!/usr/bin/env bash
# Import at scale: N games of random legal chess moves (default 1,000,000,
# about 80 M positions, nearly all distinct), imported at once and then in
# three imports into a fresh database, and 100 more games added to the
# first; prints time and peak memory of each,
# and tree latency over 1,000 positions sampled from the result.
# No peer: SCID's import is timed by bench/import.sh on real games.
#   bench/scale.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/xqdb" ./cmd/xqdb
go build -o "$tmp/randgames" ./bench/randgames
go build -o "$tmp/sample" ./bench/sample
"$tmp/randgames" -n "$n" -seed 1 >"$tmp/all.pgn"
printf "corpus: %d random chess games, %d MB PGN\n" "$n" $(( $(stat -c %s "$tmp/all.pgn") / 1000000 ))
run() { # label db file
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$tmp/xqdb" import --db "$2" --json "$3" >"$tmp/out"
  read -r secs kb <"$tmp/time"
  printf "%-28s %8s games added %8.1f s %9.0f games/s  peak %5.2f GB\n" "$1" \
    "$(sed -E 's/.*"added":([0-9]+).*/\1/' "$tmp/out")" "$secs" \
    "$(echo "$(sed -E 's/.*"added":([0-9]+).*/\1/' "$tmp/out") / $secs" | bc -l)" "$(echo "$kb / 1048576" | bc -l)"
}
run "one import" "$tmp/db1" "$tmp/all.pgn"
"$tmp/randgames" -n 100 -seed 2 >"$tmp/more.pgn"
run "then 100 more games" "$tmp/db1" "$tmp/more.pgn"
awk -v third=$(( (n + 2) / 3 )) -v dir="$tmp" '/^\[Event /{g++} {print > (dir "/part" int((g - 1) / third) ".pgn")}' "$tmp/all.pgn"
for i in 0 1 2; do run "three imports: part $((i + 1))" "$tmp/db3" "$tmp/part$i.pgn"; done
"$tmp/xqdb" stats --db "$tmp/db1"
"$tmp/sample" --db "$tmp/db1" --n 1000 --seed 7 >"$tmp/positions.tsv"
"$tmp/xqdb" tree --db "$tmp/db1" --batch "$tmp/positions.tsv" --limit 12 | grep -o '"micros":[0-9]*' | cut -d: -f2 | sort -n >"$tmp/micros"
m=$(wc -l <"$tmp/micros")
pick() { sed -n "$(( ($1 * m + 99) / 100 ))p" "$tmp/micros"; }
printf "tree latency over %d sampled positions: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms\n" "$m" \
  "$(echo "$(pick 50) / 1000" | bc -l)" "$(echo "$(pick 90) / 1000" | bc -l)" "$(echo "$(pick 99) / 1000" | bc -l)"
