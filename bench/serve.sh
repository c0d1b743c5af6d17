#!/usr/bin/env bash
# xqdb serve under load: tree requests on loopback against a database of
# all the Xiangqi and chess games of ../shared/data, from several clients
# at once (bench/load). 1,000 positions are sampled from the stored games
# (a random game, a random ply, as bench/query.sh does); first each is
# asked once (every answer computed), then the clients ask them in turn
# for a while (answers cached per committed state, as the explorer's users
# go back and forth). Prints requests/s and latency percentiles.
# Target: >= 5,000 requests/s with p99 <= 20 ms.
#   bench/serve.sh                       # builds the database in a temporary folder
#   XQDB_BENCH_DB=dir bench/serve.sh     # reuse (or build once into) dir
#   CLIENTS=8 DURATION=15s bench/serve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${XQDB_SHARED_DATA:-../shared/data}
clients=${CLIENTS:-8}
duration=${DURATION:-15s}
tmp=$(mktemp -d)
pid=""
cleanup() { [ -z "$pid" ] || kill -TERM "$pid" 2>/dev/null || true; [ -z "$pid" ] || wait "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
go build -o "$tmp/xqdb" ./cmd/xqdb
go build -o "$tmp/sample" ./bench/sample
go build -o "$tmp/load" ./bench/load
db=${XQDB_BENCH_DB:-$tmp/db}

if [ ! -d "$db/badger" ]; then
  mkdir -p "$tmp/walker"
  tar -xzf "$shared/xiangqi/walker8088-games/walker8088-cchess-games-2f4782f.tar.gz" -C "$tmp/walker"
  echo "importing all games of $shared ..."
  "$tmp/xqdb" import --db "$db" --json "$shared/xiangqi/ccpd/ccpd_unique.utf8.pgn.gz" "$tmp/walker" "$shared/xiangqi/samples" \
    "$shared/chess/pgnmentor-players" "$shared/chess/chess_db-pgn" "$shared/chess/chessjs" "$shared/chess/chessops" \
    "$shared/chess/notnil-chess/pgns" "$shared/chess/pgn-read" "$shared/chess/python-chess/pgn" \
    "$shared/chess/scalachess" "$shared/chess/shakmaty/pgn-bench" "$shared/chess/pgn-extract/infiles"
fi
"$tmp/sample" --db "$db" --n 1000 --seed 7 >"$tmp/positions.tsv"

"$tmp/xqdb" serve --db "$db" --addr 127.0.0.1:0 >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
for _ in $(seq 100); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$tmp/serve.out" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/serve.err"; exit 1; }
echo "first pass, every tree computed:"
"$tmp/load" --url "$url" --positions "$tmp/positions.tsv" --clients "$clients" --once
echo "sustained, $duration:"
"$tmp/load" --url "$url" --positions "$tmp/positions.tsv" --clients "$clients" --duration "$duration"
echo "target: >= 5,000 requests/s with p99 <= 20 ms"
