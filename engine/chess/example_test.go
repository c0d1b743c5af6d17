package chess_test

import (
	"fmt"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
)

func ExampleParseFEN() {
	p, err := chess.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	if err != nil {
		fmt.Println(err)
		return
	}
	// No black pawn can take e.p., so the canonical FEN drops e3.
	fmt.Println(p.FEN())
	fmt.Printf("%016x\n", p.Key())
	// Output:
	// rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
	// 823c9b50fd114196
}

func ExamplePosition_ParseMove() {
	p := chess.NewStart()
	for _, tok := range []string{"e4", "e7e5", "Ng1-f3", "Nc6", "Bb5", "a6", "O-O"} {
		m, err := p.ParseMove(tok, engine.Auto)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(p.FormatMove(m, engine.SAN), p.FormatMove(m, engine.UCI))
		p.Make(m)
	}
	_, err := p.ParseMove("Nf4", engine.SAN)
	fmt.Println(err)
	// Output:
	// e4 e2e4
	// e5 e7e5
	// Nf3 g1f3
	// Nc6 b8c6
	// Bb5 f1b5
	// a6 a7a6
	// O-O e1g1
	// chess: "Nf4": illegal move
}

func ExamplePosition_PerftDivide() {
	p := chess.NewStart()
	for _, d := range p.PerftDivide(2)[:3] {
		fmt.Println(chess.UCI(d.Move), d.Nodes)
	}
	fmt.Println(p.Perft(4))
	// Output:
	// a2a3 20
	// a2a4 20
	// b1a3 20
	// 197281
}
