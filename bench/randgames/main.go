// Command randgames writes N games of random legal moves as PGN, for
// bench/scale.sh: archives far larger than the real ones in ../shared/data,
// whose positions, unlike master games', are nearly all distinct (the
// position index's hardest case).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/randgames"
)

func main() {
	n := flag.Int("n", 1000, "games to write")
	game := flag.String("game", "chess", "chess or xiangqi")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	g, err := engine.ParseGame(*game)
	if err == nil {
		err = randgames.Write(os.Stdout, g, *n, *seed)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "randgames:", err)
		os.Exit(2)
	}
}
