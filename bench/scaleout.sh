#!/usr/bin/env bash
# The ClickHouse backend at the scale of all of ../shared/data (issue 19):
# the games are imported into Badger + Bleve, then copied (xqdb store copy)
# into one ClickHouse server and into a Distributed table over two
# servers (two shards on this machine), and this prints
#   - copy throughput (decoding every record, its positions and its
#     metadata terms, inserted as Native blocks): games/s and position
#     rows/s, with the CPU seconds of xqdb and of the servers and the
#     load average (on a shared machine wall-clock rates measure the
#     others' load too);
#   - import throughput into one node from the archives (parsing and
#     replaying every move), the same figures;
#   - ingest throughput of the position rows alone as ClickHouse takes
#     them (Native over HTTP, as xqdb sends them): one node, two shards in
#     parallel;
#   - tree latency p50/p99 over 1,000 sampled positions (tree --batch,
#     one warm process), for Badger, one node and two shards;
#   - bytes per game of each;
#   - whether the answers are identical: the 1,000 trees and game lists
#     with and without --query (their totals and first 1,000 games), on
#     every backend.
# Targets: ingest >= 1 M positions/s on one node; tree p50 <= 15 ms on
# one node.
#   bench/scaleout.sh                   # builds everything in a temporary folder
#   XQDB_BENCH_DB=dir bench/scaleout.sh # reuse (or build once into) a Badger database
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${XQDB_SHARED_DATA:-../shared/data}
server=${XQDB_CLICKHOUSE:-}
if [ -z "$server" ]; then
  for b in "/usr/bin/clickhouse server" /usr/sbin/clickhouse-server /usr/bin/clickhouse-server; do
    if [ -x "${b%% *}" ]; then server=$b; break; fi
  done
fi
[ -n "$server" ] || { echo "no clickhouse-server (apt-get install clickhouse-server)" >&2; exit 1; }
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/xqdb" ./cmd/xqdb
go build -o "$tmp/sample" ./bench/sample
db=${XQDB_BENCH_DB:-$tmp/db}
base=${XQDB_BENCH_PORT:-28000}

mkdir -p "$tmp/walker"
tar -xzf "$shared/xiangqi/walker8088-games/walker8088-cchess-games-2f4782f.tar.gz" -C "$tmp/walker"
inputs=(
  "$shared/xiangqi/ccpd/ccpd_unique.utf8.pgn.gz" "$tmp/walker" "$shared/xiangqi/samples"
  "$shared/chess/pgnmentor-players" "$shared/chess/chess_db-pgn" "$shared/chess/chessjs" "$shared/chess/chessops"
  "$shared/chess/notnil-chess/pgns" "$shared/chess/pgn-read" "$shared/chess/python-chess/pgn"
  "$shared/chess/scalachess" "$shared/chess/shakmaty/pgn-bench" "$shared/chess/pgn-extract/infiles"
)
if [ ! -d "$db/badger" ]; then
  echo "importing all games of $shared into Badger ..."
  "$tmp/xqdb" import --db "$db" --json --report "$tmp/report.jsonl" "${inputs[@]}"
fi

# start NAME HTTP TCP INTERSERVER [REMOTE_SERVERS_XML]: a server on loopback
# with its own config and data folder.
start() {
  local d=$tmp/$1
  mkdir -p "$d"
  cat >"$d/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$d/server.log</log><errorlog>$d/error.log</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$2</http_port><tcp_port>$3</tcp_port><interserver_http_port>$4</interserver_http_port>
  <path>$d/data/</path><tmp_path>$d/tmp/</tmp_path><user_files_path>$d/user_files/</user_files_path>
  <format_schema_path>$d/format_schemas/</format_schema_path>
  <mark_cache_size>1073741824</mark_cache_size>
  <max_concurrent_queries>64</max_concurrent_queries>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile><default_database>default</default_database>
  ${5:-}
</yandex>
XML
  cat >"$d/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
XML
  (cd "$d" && exec $server --config-file="$d/config.xml" >"$d/stdout.log" 2>&1) &
  pids+=($!)
  for _ in $(seq 600); do
    curl -sf "http://127.0.0.1:$2/?query=SELECT%201" >/dev/null && return 0
    sleep 0.1
  done
  echo "server $1 did not start:" >&2; cat "$d/error.log" >&2; exit 1
}
remote="<remote_servers><two><shard><replica><host>127.0.0.1</host><port>$((base+12))</port></replica></shard><shard><replica><host>127.0.0.1</host><port>$((base+22))</port></replica></shard></two></remote_servers>"
start one $((base+1)) $((base+2)) $((base+3))
start shard1 $((base+11)) $((base+12)) $((base+13)) "$remote"
start shard2 $((base+21)) $((base+22)) $((base+23)) "$remote"
one="clickhouse://127.0.0.1:$((base+1))/xqdb"
two="clickhouse://127.0.0.1:$((base+11)),127.0.0.1:$((base+21))/xqdb?cluster=two"
version=$(curl -s "http://127.0.0.1:$((base+1))/?query=SELECT%20version()")
echo "ClickHouse $version; $(nproc) cores"
"$tmp/xqdb" stats --db "$db"

secs() { echo "scale=3; ($2 - $1) / 1000000000" | bc -l; }
# The CPU time of processes (user + system, seconds).
cpu() { local t=0; for p in "$@"; do t=$(awk -v hz="$(getconf CLK_TCK)" -v t="$t" '{printf "%.2f", t + ($14 + $15) / hz}' "/proc/$p/stat"); done; echo "$t"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# timed LABEL SERVERPIDS… -- COMMAND: runs COMMAND and prints its rate
# in games and position rows (from its --json) with the CPU seconds.
timed() {
  local label=$1; shift; local spids=(); while [ "$1" != -- ]; do spids+=("$1"); shift; done; shift
  local l0 c0 t0 t1 c1 out g p s
  l0=$(load); c0=$(cpu "${spids[@]}"); t0=$(date +%s%N)
  out=$(/usr/bin/time -f "%U %S" -o "$tmp/time" "$@")
  t1=$(date +%s%N); c1=$(cpu "${spids[@]}")
  g=$(grep -o '"added":[0-9]*' <<<"$out" | cut -d: -f2)
  p=$(grep -o '"positions":[0-9]*' <<<"$out" | cut -d: -f2)
  s=$(secs "$t0" "$t1")
  printf "%s: %d games, %d position rows in %.1f s: %.0f games/s, %.2f M rows/s; CPU: xqdb %.1f s, ClickHouse %.1f s: %.2f M rows per CPU-second; load %s → %s\n" \
    "$label" "$g" "$p" "$s" "$(echo "$g / $s" | bc -l)" "$(echo "$p / $s / 1000000" | bc -l)" \
    "$(awk '{print $1 + $2}' "$tmp/time")" "$(echo "$c1 - $c0" | bc -l)" \
    "$(echo "$p / ($(awk '{print $1 + $2}' "$tmp/time") + $c1 - $c0) / 1000000" | bc -l)" "$l0" "$(load)"
}
timed "store copy into one" "${pids[0]}" -- "$tmp/xqdb" store copy --json --from "$db" --to "$one"
timed "store copy into two" "${pids[1]}" "${pids[2]}" -- "$tmp/xqdb" store copy --json --from "$db" --to "$two"
timed "import into one" "${pids[0]}" -- "$tmp/xqdb" import --json --store "${one%/xqdb}/imported" "${inputs[@]}"

# Ingest: the position rows as xqdb sends them, Native over HTTP, into
# a fresh table of the same layout (one node), and split by key into the
# two shards' tables in parallel.
q() { curl -sf "http://127.0.0.1:$1/" --data-binary "$2"; }
cols="key UInt64, game UInt8, gid UInt32, ply UInt16, code UInt16, result UInt8, date UInt32, rating UInt16"
q $((base+1)) "SELECT * FROM xqdb.positions FORMAT Native" >"$tmp/pos.bin"
rows=$(q $((base+1)) "SELECT count() FROM xqdb.positions")
for s in 1 11 21; do q $((base+s)) "CREATE TABLE xqdb.ingest ($cols) ENGINE = MergeTree ORDER BY (key, game, gid)"; done
# The server's CPU time says what the rate would be on an idle core (this
# machine is often shared: wall-clock rates then mostly measure the others).
c0=$(cpu "${pids[0]}")
t0=$(date +%s%N)
curl -sf "http://127.0.0.1:$((base+1))/?query=INSERT%20INTO%20xqdb.ingest%20FORMAT%20Native" --data-binary @"$tmp/pos.bin"
t1=$(date +%s%N)
c1=$(cpu "${pids[0]}")
printf "ingest, one node: %d position rows (%.0f MB) in %.2f s: %.2f M rows/s; the server's CPU time %.1f s: %.2f M rows per CPU-second\n" "$rows" "$(echo "$(stat -c %s "$tmp/pos.bin") / 1000000" | bc -l)" \
  "$(secs "$t0" "$t1")" "$(echo "$rows / $(secs "$t0" "$t1") / 1000000" | bc -l)" "$(echo "$c1 - $c0" | bc -l)" "$(echo "$rows / ($c1 - $c0) / 1000000" | bc -l)"
for i in 0 1; do q $((base+1)) "SELECT * FROM xqdb.positions WHERE key % 2 = $i FORMAT Native" >"$tmp/pos$i.bin"; done
t0=$(date +%s%N)
curl -sf "http://127.0.0.1:$((base+11))/?query=INSERT%20INTO%20xqdb.ingest%20FORMAT%20Native" --data-binary @"$tmp/pos0.bin" &
c1=$!
curl -sf "http://127.0.0.1:$((base+21))/?query=INSERT%20INTO%20xqdb.ingest%20FORMAT%20Native" --data-binary @"$tmp/pos1.bin"
wait $c1
t1=$(date +%s%N)
printf "ingest, two shards in parallel: %d position rows in %.2f s: %.2f M rows/s\n" "$rows" "$(secs "$t0" "$t1")" "$(echo "$rows / $(secs "$t0" "$t1") / 1000000" | bc -l)"
for s in 1 11 21; do q $((base+s)) "DROP TABLE xqdb.ingest"; done
# One round trip, for scale: what any query costs before the server works.
rt=$(for _ in $(seq 21); do curl -s -o /dev/null -w "%{time_total}\n" "http://127.0.0.1:$((base+1))/" --data-binary "SELECT 1"; done | sort -n | sed -n 11p)
echo "HTTP round trip (SELECT 1), median of 21: $(echo "$rt * 1000" | bc -l | cut -c1-5) ms"

# Trees, and the same answers everywhere.
"$tmp/sample" --db "$db" --n 1000 --seed 7 >"$tmp/positions.tsv"
for target in badger one two; do
  if [ $target = badger ]; then sel=(--db "$db"); else url=${!target}; sel=(--store "$url"); fi
  "$tmp/xqdb" tree "${sel[@]}" --batch "$tmp/positions.tsv" >"$tmp/$target.trees"
  grep -o '"micros":[0-9]*' "$tmp/$target.trees" | cut -d: -f2 | sort -n >"$tmp/micros"
  n=$(wc -l <"$tmp/micros")
  pick() { sed -n "$(( ($1 * n + 99) / 100 ))p" "$tmp/micros"; }
  printf "tree latency, %-6s over %d positions: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms\n" "$target" "$n" \
    "$(echo "$(pick 50) / 1000" | bc -l)" "$(echo "$(pick 90) / 1000" | bc -l)" "$(echo "$(pick 99) / 1000" | bc -l)"
  sed -E 's/"micros":[0-9]+,?//' "$tmp/$target.trees" >"$tmp/$target.answers"
  for qq in "" "--query black:吕钦" "--query carlsen" "--query date:>=1990 --sort rating" "--game chess --moves e4 --query white:carlsen" "--moves h2e2 --mirror"; do
    read -r -a args <<<"$qq"
    "$tmp/xqdb" games "${sel[@]}" --json --limit 1000 "${args[@]}" | md5sum >>"$tmp/$target.answers"
  done
  stats=$("$tmp/xqdb" stats "${sel[@]}" --json)
  bytes=$(grep -o '"bytes":[0-9]*' <<<"$stats" | head -1 | cut -d: -f2)
  games=$(sed -E 's/^\{"games":([0-9]+).*/\1/' <<<"$stats")
  printf "size, %-6s: %.1f MB, %.0f bytes a game\n" "$target" "$(echo "$bytes / 1000000" | bc -l)" "$(echo "$bytes / $games" | bc -l)"
done
for target in one two; do
  if cmp -s "$tmp/badger.answers" "$tmp/$target.answers"; then echo "answers of $target: identical to Badger's (1,000 trees, 6 game lists)"
  else echo "answers of $target: DIFFER from Badger's"; diff "$tmp/badger.answers" "$tmp/$target.answers" | head -5; fi
done
echo "targets: ingest >= 1 M positions/s on one node; tree p50 <= 15 ms on one node"
