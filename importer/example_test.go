package importer_test

import (
	"fmt"
	"strings"

	"github.com/xqdb/xqdb/importer"
)

func ExampleNewReader() {
	const games = `[Game "Chinese Chess"]
[Red "许银川"]
[Black "吕钦"]
[Result "1-0"]

1. 炮二平五 马８进７ {a comment} 2. 马二进三 (2. 兵七进一) 车９平８ 1-0

[Event "Header-less chess follows"]
1.e4 e5 2.Nf3 *
`
	r := importer.NewReader(strings.NewReader(games), "games.pgn")
	for rec, err := range r.All() {
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("game %d (line %d): %v, result %q, Red %q\n", rec.Source.Game, rec.Source.Line, rec.Game, rec.Result, rec.Tag("red"))
		for i, m := range rec.Moves {
			fmt.Printf("  ply %d line %d: %s\n", i+1, m.Line, rec.MoveText(i))
		}
	}
	// Output:
	// game 1 (line 1): xiangqi, result "1-0", Red "许银川"
	//   ply 1 line 6: 炮二平五
	//   ply 2 line 6: 马８进７
	//   ply 3 line 6: 马二进三
	//   ply 4 line 6: 车９平８
	// game 2 (line 8): chess, result "*", Red ""
	//   ply 1 line 9: e4
	//   ply 2 line 9: e5
	//   ply 3 line 9: Nf3
}
