// Command randgames writes N games of random legal moves as PGN, for
// bench/scale.sh: archives far larger than the real ones in ../shared/data,
// whose positions, unlike master games', are nearly all distinct (the
// position index's hardest case).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

func main() {
	n := flag.Int("n", 1000, "games to write")
	game := flag.String("game", "chess", "chess or xiangqi")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	g, err := engine.ParseGame(*game)
	if err != nil {
		fmt.Fprintln(os.Stderr, "randgames:", err)
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer w.Flush()
	rng := rand.New(rand.NewPCG(*seed, 9))
	var legal []engine.Move
	for i := 0; i < *n; i++ {
		p, _ := games.New(g, "")
		if g == engine.Xiangqi {
			fmt.Fprintf(w, "[Game \"Chinese Chess\"]\n")
		}
		fmt.Fprintf(w, "[Event \"Random %d\"]\n[White \"Player %d\"]\n[Black \"Player %d\"]\n[Date \"%d.01.01\"]\n[Result \"*\"]\n\n",
			i, rng.IntN(5000), rng.IntN(5000), 1950+rng.IntN(70))
		for ply, plies := 0, 40+rng.IntN(80); ply < plies; ply++ {
			legal = p.AppendLegalMoves(legal[:0])
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			if ply%2 == 0 {
				fmt.Fprintf(w, "%d. ", ply/2+1)
			}
			w.WriteString(p.FormatMove(m, engine.Display(g)))
			w.WriteByte(' ')
			p.Make(m)
		}
		w.WriteString("*\n\n")
	}
}
