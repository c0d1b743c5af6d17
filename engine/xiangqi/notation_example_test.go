package xiangqi_test

import (
	"fmt"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// Every notation reads into the same move, and writes it back.
func ExamplePosition_ParseMove() {
	p := xiangqi.NewStart()
	for _, tok := range []string{"炮二平五", "C2.5", "Ｃ２＝５", "P2-5", "h2e2"} {
		m, err := p.ParseMove(tok, engine.Auto)
		fmt.Println(tok, xiangqi.ICCS(m), err)
	}
	// Output:
	// 炮二平五 h2e2 <nil>
	// C2.5 h2e2 <nil>
	// Ｃ２＝５ h2e2 <nil>
	// P2-5 h2e2 <nil>
	// h2e2 h2e2 <nil>
}

func ExamplePosition_FormatMove() {
	p := xiangqi.NewStart()
	p.Make(xiangqi.NewMove(xiangqi.Square(7, 2), xiangqi.Square(4, 2))) // h2e2
	m, _ := p.ParseMove("h9g7", engine.ICCS)
	for _, n := range []engine.Notation{engine.ICCS, engine.WXF, engine.Chinese, engine.ChineseTraditional, engine.Vietnamese} {
		fmt.Printf("%-20s %s\n", n, p.FormatMove(m, n))
	}
	// Output:
	// iccs                 h9g7
	// wxf                  H8+7
	// chinese              马８进７
	// chinese-traditional  馬８進７
	// vietnamese           M8.7
}

// P2-5 is a cannon in Vietnamese but a soldier retreating in WXF, which
// is impossible: the game's notation is the one that replays.
func ExampleResolveNotation() {
	n, err := xiangqi.ResolveNotation(xiangqi.NewStart(), []string{"P2-5", "P2-5", "M2.3", "M8.9"})
	fmt.Println(n, err)
	// Output:
	// vietnamese <nil>
}
