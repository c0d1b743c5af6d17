#!/usr/bin/env bash
# Perft speed: xqdb against Fairy-Stockfish (Xiangqi) on the same positions,
# in one run, single thread. Prints nodes/s of each and the ratio.
#   bench/perft.sh            # default depths (about a minute)
#   DEPTH_BONUS=1 bench/perft.sh   # one ply deeper everywhere
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/games"
command -v fairy-stockfish >/dev/null || { echo "needs fairy-stockfish (apt-get install fairy-stockfish)" >&2; exit 1; }
go build -o /tmp/xqdb-bench ./cmd/xqdb
bonus=${DEPTH_BONUS:-0}

now() { date +%s.%N; }
# name|fen|depth — published perft positions (shared/data/xiangqi/perft.md)
positions=(
  "start|rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1|5"
  "pos2|r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1|5"
  "pos4|5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1|6"
  "pos12|r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1|5"
)
printf "%-7s %5s %13s %14s %14s %7s\n" position depth nodes "xqdb n/s" "fsf n/s" ratio
tx=0; tf=0; tn=0
for row in "${positions[@]}"; do
  IFS='|' read -r name fen depth <<<"$row"
  depth=$((depth + bonus))
  out=$(/tmp/xqdb-bench perft --fen "$fen" --depth "$depth" --json)
  nodes=$(sed -E 's/.*"nodes":([0-9]+).*/\1/' <<<"$out")
  xs=$(sed -E 's/.*"seconds":([0-9.e-]+).*/\1/' <<<"$out")
  t0=$(now)
  fnodes=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\nsetoption name Threads value 1\nposition fen %s\ngo perft %d\nquit\n' "$fen" "$depth" |
    fairy-stockfish 2>/dev/null | sed -n 's/^Nodes searched: //p')
  t1=$(now)
  fs=$(echo "$t1 - $t0" | bc -l)
  [ "$fnodes" = "$nodes" ] || echo "MISMATCH on $name: xqdb $nodes, fairy-stockfish $fnodes" >&2
  printf "%-7s %5d %13d %14.0f %14.0f %6.2fx\n" "$name" "$depth" "$nodes" \
    "$(echo "$nodes / $xs" | bc -l)" "$(echo "$nodes / $fs" | bc -l)" "$(echo "$fs / $xs" | bc -l)"
  tx=$(echo "$tx + $xs" | bc -l); tf=$(echo "$tf + $fs" | bc -l); tn=$((tn + nodes))
done
printf "%-7s %5s %13d %14.0f %14.0f %6.2fx\n" total "" "$tn" "$(echo "$tn / $tx" | bc -l)" "$(echo "$tn / $tf" | bc -l)" "$(echo "$tf / $tx" | bc -l)"
echo "fairy-stockfish: $(dpkg-query -W -f '${Version}' fairy-stockfish 2>/dev/null || echo '?'); target: xqdb >= 5x"
