#!/usr/bin/env bash
# Self-play speed: games per minute at a fixed node budget per move, xqdb's
# search against itself and the peer against itself, both driven the same
# way (bench/match: UCI, the same openings, the same adjudication, the same
# number of games at once on the same cores), in one run: Xiangqi against
# Fairy-Stockfish, chess against Stockfish (target: xqdb >= 1x each). It
# also times xqdb selfplay, which plays in-process without UCI.
#   bench/selfplay.sh                      # 20 games per engine and game at 5000 nodes/move
#   NODES=20000 PAIRS=20 bench/selfplay.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/games"
for tool in fairy-stockfish stockfish; do
  command -v "$tool" >/dev/null || { echo "selfplay.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
NODES=${NODES:-5000}
PAIRS=${PAIRS:-10}
CONCURRENCY=${CONCURRENCY:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/xqdb" ./cmd/xqdb
go build -o "$tmp/match" ./bench/match
rate() { # engine variant -> games/min
  "$tmp/match" -engine1 "$1" -engine2 "$1" -variant "$2" -nodes "$NODES" -pairs "$PAIRS" -concurrency "$CONCURRENCY" -seed 3 -json |
    sed -n 's/.*"GamesPerMin":\([0-9.]*\).*"PliesPerGame":\([0-9.]*\).*/\1 \2/p'
}
for pair in "xiangqi fairy-stockfish" "chess stockfish"; do
  set -- $pair
  read -r x xp < <(rate "$tmp/xqdb uci" "$1")
  read -r p pp < <(rate "$(command -v "$2")" "$1")
  native=$("$tmp/xqdb" selfplay --game "$1" --games $((2 * PAIRS)) --nodes "$NODES" --random-plies 4 --max-plies 300 --rules asian \
    --jobs "$CONCURRENCY" --seed 3 --out /dev/null --json | sed -n 's/.*"games_per_minute":\([0-9.]*\).*/\1/p')
  printf '%s, %s nodes/move, %s games each: xqdb uci %.1f games/min (%.0f plies/game), %s %.1f games/min (%.0f plies/game): %.2fx; xqdb selfplay %.1f games/min\n' \
    "$1" "$NODES" $((2 * PAIRS)) "$x" "$xp" "$2" "$p" "$pp" "$(echo "$x / $p" | bc -l)" "$native"
done
