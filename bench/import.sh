#!/usr/bin/env bash
# Import speed: xqdb import against SCID's import (Debian scid, its tkscid
# batch interpreter) on the same chess corpus, in one run. xqdb also
# validates every move, indexes every position and builds a metadata
# index; SCID stores games and names. Prints games/s and the ratio, and the
# database sizes against the corpus's gzip size.
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
read -r scid_games scid_ms < <(tkscid "$tmp/scid.tcl" "$tmp/scid" "$tmp/chess.pgn" 2>/dev/null | tail -1)
scid_s=$(echo "$scid_ms / 1000" | bc -l)
scid_bytes=$(cat "$tmp"/scid.s* | wc -c)

out=$("$tmp/xqdb" import --db "$tmp/db" --json "$tmp/chess.pgn")
xq_s=$(sed -E 's/.*"seconds":([0-9.e-]+).*/\1/' <<<"$out")
xq_games=$(sed -E 's/.*"games":([0-9]+).*/\1/' <<<"$out")
stats=$("$tmp/xqdb" stats --db "$tmp/db" --json)
xq_bytes=$(grep -o '"bytes":[0-9]*' <<<"$stats" | head -1 | cut -d: -f2)
stored=$(sed -E 's/^\{"games":([0-9]+).*/\1/' <<<"$stats")

printf "corpus: %d MB PGN, %d MB gzip'd\n" $(( $(stat -c %s "$tmp/chess.pgn") / 1000000 )) $((gz / 1000000))
printf "%-34s %7d games %7.2fs %9.0f games/s  %6.1f MB\n" "scid (sc_base import)" "$scid_games" "$scid_s" "$(echo "$scid_games / $scid_s" | bc -l)" "$(echo "$scid_bytes / 1000000" | bc -l)"
printf "%-34s %7d games %7.2fs %9.0f games/s  %6.1f MB  ratio %.2fx\n" "xqdb import ($(nproc) cores)" "$xq_games" "$xq_s" "$(echo "$xq_games / $xq_s" | bc -l)" "$(echo "$xq_bytes / 1000000" | bc -l)" "$(echo "($xq_games / $xq_s) / ($scid_games / $scid_s)" | bc -l)"
printf "xqdb database: %d games stored, %.0f bytes a game, %.2fx the gzip'd PGN\n" "$stored" "$(echo "$xq_bytes / $stored" | bc -l)" "$(echo "$xq_bytes / $gz" | bc -l)"
echo "xqdb summary: $out"
echo "target: xqdb >= 1x scid games/s"
