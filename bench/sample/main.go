// Command sample prints positions sampled from a database for
// bench/query.sh: N games drawn at random, each replayed to a random ply,
// one "game<TAB>FEN" line each.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/index"
)

func main() {
	db := flag.String("db", "./xqdb-data", "database folder")
	n := flag.Int("n", 1000, "positions to sample")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	s, err := index.Open(*db, index.Options{ReadOnly: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "sample:", err)
		os.Exit(1)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(*seed, 2))
	// The stored games' ids (1..Games() unless some were deleted: then
	// the same seed samples other games).
	var ids []uint32
	if err := s.EachGame(func(gid uint32, _ index.Attrs) { ids = append(ids, gid) }); err != nil {
		fmt.Fprintln(os.Stderr, "sample:", err)
		os.Exit(1)
	}
	for i := 0; i < *n && len(ids) > 0; i++ {
		r, err := s.Game(ids[rng.IntN(len(ids))])
		if err != nil {
			fmt.Fprintln(os.Stderr, "sample:", err)
			os.Exit(1)
		}
		p, err := games.New(r.Game, r.StartFEN)
		if err != nil {
			continue
		}
		for _, m := range r.Moves[:rng.IntN(len(r.Moves)+1)] {
			p.Make(m)
		}
		fmt.Printf("%s\t%s\n", r.Game, p.FEN())
	}
}
