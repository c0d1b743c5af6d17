#!/usr/bin/env bash
# Perft speed of xqdb against the reference engines on the same positions and
# depths, in one run, single thread: Xiangqi against Fairy-Stockfish
# (target: xqdb >= 5x), chess against Stockfish (target: xqdb >= 0.5x).
# Node counts must agree. xqdb's time is measured inside the process
# (xqdb perft --json); the engines' wall time has their bare start-up (the
# fastest of three "isready" runs) subtracted.
#   bench/perft.sh          # about two minutes
#   bench/perft.sh quick    # one ply less everywhere
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/games"
for tool in fairy-stockfish stockfish bc; do
  command -v "$tool" >/dev/null || { echo "perft.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
less=0
[ "${1:-}" = quick ] && less=1
xqdb=$(mktemp -d)/xqdb
trap 'rm -rf "$(dirname "$xqdb")"' EXIT
go build -o "$xqdb" ./cmd/xqdb

now() { date +%s.%N; }
startup() { # fastest bare start-up of an engine, in seconds
  local best=1000 t0 t1
  for _ in 1 2 3; do
    t0=$(now); printf 'uci\nisready\nquit\n' | "$1" >/dev/null 2>&1; t1=$(now)
    best=$(echo "s = $t1 - $t0; if (s < $best) s else $best" | bc -l)
  done
  echo "$best"
}
fsf_start=$(startup fairy-stockfish)
sf_start=$(startup stockfish)

# game|name|fen|depth
positions=(
  "xiangqi|start|rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1|5"
  "xiangqi|pos2|r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1|5"
  "xiangqi|pos4|5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1|6"
  "xiangqi|pos12|r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1|5"
  "chess|start|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6"
  "chess|kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5"
  "chess|pos3|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|7"
  "chess|pos4|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|6"
)

printf "%-8s %-9s %5s %13s %14s %14s %8s\n" game position depth nodes "xqdb n/s" "peer n/s" ratio
declare -A xs ps ns
for row in "${positions[@]}"; do
  IFS='|' read -r game name fen depth <<<"$row"
  depth=$((depth - less))
  out=$("$xqdb" perft --game "$game" --fen "$fen" --depth "$depth" --json)
  nodes=$(sed -E 's/.*"nodes":([0-9]+).*/\1/' <<<"$out")
  secs=$(sed -E 's/.*"seconds":([0-9.e-]+).*/\1/' <<<"$out")
  if [ "$game" = xiangqi ]; then
    engine=fairy-stockfish; start=$fsf_start; setup='setoption name UCI_Variant value xiangqi'
  else
    engine=stockfish; start=$sf_start; setup='isready'
  fi
  t0=$(now)
  pnodes=$(printf 'uci\n%s\nposition fen %s\ngo perft %d\nquit\n' "$setup" "$fen" "$depth" |
    "$engine" 2>/dev/null | sed -n 's/^Nodes searched: //p')
  t1=$(now)
  psecs=$(echo "$t1 - $t0 - $start" | bc -l)
  [ "$pnodes" = "$nodes" ] || { echo "MISMATCH $game $name: xqdb $nodes, $engine $pnodes" >&2; exit 1; }
  printf "%-8s %-9s %5d %13d %14.0f %14.0f %7.2fx\n" "$game" "$name" "$depth" "$nodes" \
    "$(echo "$nodes / $secs" | bc -l)" "$(echo "$nodes / $psecs" | bc -l)" "$(echo "$psecs / $secs" | bc -l)"
  xs[$game]=$(echo "${xs[$game]:-0} + $secs" | bc -l)
  ps[$game]=$(echo "${ps[$game]:-0} + $psecs" | bc -l)
  ns[$game]=$(( ${ns[$game]:-0} + nodes ))
done
for game in xiangqi chess; do
  printf "%-8s %-9s %5s %13d %14.0f %14.0f %7.2fx\n" "$game" total "" "${ns[$game]}" \
    "$(echo "${ns[$game]} / ${xs[$game]}" | bc -l)" "$(echo "${ns[$game]} / ${ps[$game]}" | bc -l)" "$(echo "${ps[$game]} / ${xs[$game]}" | bc -l)"
done
echo "peers: fairy-stockfish $(dpkg-query -W -f '${Version}' fairy-stockfish 2>/dev/null || echo '?'), stockfish $(dpkg-query -W -f '${Version}' stockfish 2>/dev/null || echo '?')"
echo "targets: xiangqi >= 5x Fairy-Stockfish, chess >= 0.5x Stockfish"
