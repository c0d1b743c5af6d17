#!/usr/bin/env bash
# Import speed: xqdb import against SCID's import (Debian scid, its tkscid
# batch interpreter) on the same chess corpus, in one run. xqdb also
# validates every move, indexes every position and builds a metadata
# index; SCID stores games and names. Runs each three times and compares
# the medians; prints games/s, the ratio, xqdb's CPU-seconds, both tools'
# games/s on one core (xqdb with GOMAXPROCS=1, SCID under taskset) and
# their ratio, both tools' page faults and peak memory, and the database
# sizes against the corpus's gzip size.
#   bench/import.sh [CHESS.pgn...]   default: the pgnmentor corpus of ../shared/data
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/games"
command -v tkscid >/dev/null || { echo "import.sh needs scid (apt-get install scid)" >&2; exit 1; }
shared=${XQDB_SHARED_DATA:-../shared/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/xqdb" ./cmd/xqdb

if [ $# -gt 0 ]; then
  cat "$@" >"$tmp/chess.pgn"
else
  for f in "$shared"/chess/pgnmentor-players/*.pgn.gz; do gzip -dc "$f"; done >"$tmp/chess.pgn"
fi
cat "$tmp/chess.pgn" >/dev/null # warm the page cache
gz=$(gzip -c "$tmp/chess.pgn" | wc -c)

cat >"$tmp/scid.tcl" <<'TCL'
set base [lindex $argv 0]
set pgn [lindex $argv 1]
sc_base create $base
set db [sc_base current]
set t0 [clock milliseconds]
sc_base import $db $pgn
set t1 [clock milliseconds]
puts "[sc_base numGames $db] [expr {$t1-$t0}]"
sc_base close $db
exit 0
TCL
# Three runs of each, alternating; the medians are compared (issue 18).
median() { sort -g | sed -n 2p; }
for i in 1 2 3; do
  rm -rf "$tmp"/scid.s* "$tmp/db"
  read -r scid_games scid_ms < <(/usr/bin/time -f "%R %M %U %S" -o "$tmp/scid_mem" tkscid "$tmp/scid.tcl" "$tmp/scid" "$tmp/chess.pgn" 2>/dev/null | tail -1)
  echo "$scid_ms" >>"$tmp/scid_ms"
  cat "$tmp/scid_mem" >>"$tmp/scid_mems"
  scid_bytes=$(cat "$tmp"/scid.s* | wc -c)
  /usr/bin/time -f "%U %S %R %M" -o "$tmp/cpu" "$tmp/xqdb" import --db "$tmp/db" --json "$tmp/chess.pgn" >"$tmp/out"
  out=$(cat "$tmp/out")
  sed -E 's/.*"seconds":([0-9.e-]+).*/\1/' <<<"$out" >>"$tmp/xq_s"
  read -r u sy faults rss <"$tmp/cpu"
  echo "$u + $sy" | bc -l >>"$tmp/xq_cpu"
  echo "$faults $rss" >>"$tmp/xq_mems"
done
scid_s=$(echo "$(median <"$tmp/scid_ms") / 1000" | bc -l)
xq_s=$(median <"$tmp/xq_s")
xq_cpu=$(median <"$tmp/xq_cpu")
xq_games=$(sed -E 's/.*"games":([0-9]+).*/\1/' <<<"$out")
stats=$("$tmp/xqdb" stats --db "$tmp/db" --json)
xq_bytes=$(grep -o '"bytes":[0-9]*' <<<"$stats" | head -1 | cut -d: -f2)
stored=$(sed -E 's/^\{"games":([0-9]+).*/\1/' <<<"$stats")
# One core: how import scales is its games/s per core.
rm -rf "$tmp/db1"
one=$(GOMAXPROCS=1 "$tmp/xqdb" import --db "$tmp/db1" --json "$tmp/chess.pgn")
one_s=$(sed -E 's/.*"seconds":([0-9.e-]+).*/\1/' <<<"$one")
# SCID on one core too: its import runs on two threads (3.3 CPU-seconds in
# 1.9 s on two cores, 3.2-4.5 s on one; bench/NOTES.md, the twenty-third
# session), so the per-core comparison pins it to a core.
rm -rf "$tmp"/scid.s*
read -r _ scid_one_ms < <(taskset -c 0 tkscid "$tmp/scid.tcl" "$tmp/scid" "$tmp/chess.pgn" 2>/dev/null | tail -1)
scid_one_s=$(echo "$scid_one_ms / 1000" | bc -l)

printf "corpus: %d MB PGN, %d MB gzip'd; load average %s\n" $(( $(stat -c %s "$tmp/chess.pgn") / 1000000 )) $((gz / 1000000)) "$(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-34s %7d games %7.2fs %9.0f games/s  %6.1f MB  (median of 3: %s ms)\n" "scid (sc_base import)" "$scid_games" "$scid_s" "$(echo "$scid_games / $scid_s" | bc -l)" "$(echo "$scid_bytes / 1000000" | bc -l)" "$(tr '\n' ' ' <"$tmp/scid_ms")"
printf "%-34s %7d games %7.2fs %9.0f games/s  %6.1f MB  %.1f CPU-s  ratio %.2fx  (median of 3: %s s)\n" "xqdb import ($(nproc) cores)" "$xq_games" "$xq_s" "$(echo "$xq_games / $xq_s" | bc -l)" "$(echo "$xq_bytes / 1000000" | bc -l)" "$xq_cpu" "$(echo "($xq_games / $xq_s) / ($scid_games / $scid_s)" | bc -l)" "$(tr '\n' ' ' <"$tmp/xq_s")"
printf "%-34s %7d games %7.2fs %9.0f games/s\n" "scid (one core: taskset -c 0)" "$scid_games" "$scid_one_s" "$(echo "$scid_games / $scid_one_s" | bc -l)"
printf "%-34s %7d games %7.2fs %9.0f games/s  ratio %.2fx on one core\n" "xqdb import (GOMAXPROCS=1)" "$xq_games" "$one_s" "$(echo "$xq_games / $one_s" | bc -l)" "$(echo "($xq_games / $one_s) / ($scid_games / $scid_one_s)" | bc -l)"
printf "xqdb database: %d games stored, %.0f bytes a game, %.2fx the gzip'd PGN\n" "$stored" "$(echo "$xq_bytes / $stored" | bc -l)" "$(echo "$xq_bytes / $gz" | bc -l)"
# Memory a process touches for the first time costs a page fault a 4 KB
# page: 10 µs each on this project's virtual machine, a sixth of xqdb's
# CPU-seconds here (bench/NOTES.md, the twenty-second session).
printf "each run's page faults, peak memory (and SCID's CPU-seconds): scid %s; xqdb %s\n" \
  "$(awk '{printf "%s%d faults %.0f MB %.1f CPU-s", (NR > 1 ? ", " : ""), $1, $2 / 1024, $3 + $4}' "$tmp/scid_mems")" \
  "$(awk '{printf "%s%d faults %.0f MB", (NR > 1 ? ", " : ""), $1, $2 / 1024}' "$tmp/xq_mems")"
echo "xqdb summary: $out"
echo "target: xqdb >= 0.5x scid games/s (median of 3)"
