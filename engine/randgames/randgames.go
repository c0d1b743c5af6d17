// Package randgames writes games of random legal moves as PGN: archives as
// large as a benchmark or a test needs, whose positions, unlike master
// games', are nearly all distinct (the position index's hardest case).
package randgames

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// Write writes n games of g to w, the same games for the same seed, each
// of 40 to 119 plies (fewer when one side is mated or stalemated) with
// random players and dates.
func Write(w io.Writer, g engine.Game, n int, seed uint64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	rng := rand.New(rand.NewPCG(seed, 9))
	var legal []engine.Move
	for i := 0; i < n; i++ {
		p, err := games.New(g, "")
		if err != nil {
			return err
		}
		if g == engine.Xiangqi {
			bw.WriteString("[Game \"Chinese Chess\"]\n")
		}
		fmt.Fprintf(bw, "[Event \"Random %d\"]\n[White \"Player %d\"]\n[Black \"Player %d\"]\n[Date \"%d.01.01\"]\n[Result \"*\"]\n\n",
			i, rng.IntN(5000), rng.IntN(5000), 1950+rng.IntN(70))
		for ply, plies := 0, 40+rng.IntN(80); ply < plies; ply++ {
			legal = p.AppendLegalMoves(legal[:0])
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			if ply%2 == 0 {
				fmt.Fprintf(bw, "%d. ", ply/2+1)
			}
			bw.WriteString(p.FormatMove(m, engine.Display(g)))
			bw.WriteByte(' ')
			p.Make(m)
		}
		bw.WriteString("*\n\n")
	}
	return bw.Flush()
}
