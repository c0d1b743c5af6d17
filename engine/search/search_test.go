package search

import (
	"testing"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// Middlegame positions the benchmarks and limit tests search.
var benchFENs = map[engine.Game]string{
	engine.Xiangqi: "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
	engine.Chess:   "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
}

func TestLimits(t *testing.T) {
	for g, fen := range benchFENs {
		t.Run(g.String(), func(t *testing.T) {
			p := parse(t, g, fen)
			s := New(g, 4)
			res, err := s.Search(p, Limits{Nodes: 5000}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Nodes != 5000 {
				t.Errorf("nodes limit 5000: searched %d", res.Nodes)
			}
			if !p.IsLegal(res.Move) {
				t.Errorf("illegal best move %v", res.Move)
			}
			var depths []int
			res, _ = s.Search(p, Limits{Depth: 4}, func(i Info) { depths = append(depths, i.Depth) })
			if res.Depth != 4 || len(depths) != 4 || depths[3] != 4 {
				t.Errorf("depth limit 4: result depth %d, iterations %v", res.Depth, depths)
			}
			if len(res.PV) == 0 || res.PV[0] != res.Move {
				t.Errorf("PV %v does not start with the best move %v", res.PV, res.Move)
			}
			start := time.Now()
			res, _ = s.Search(p, Limits{Time: 100 * time.Millisecond}, nil)
			if el := time.Since(start); el > time.Second || res.Move == engine.NoMove {
				t.Errorf("time limit 100ms: took %v, move %v", el, res.Move)
			}
			// Stop from another goroutine ends an unlimited search.
			go func() { time.Sleep(50 * time.Millisecond); s.Stop() }()
			res, _ = s.Search(p, Limits{}, nil)
			if res.Move == engine.NoMove {
				t.Error("stopped search returned no move")
			}
			if p.FEN() != fen {
				t.Errorf("search changed the position to %s", p.FEN())
			}
		})
	}
}

func TestWrongGame(t *testing.T) {
	if _, err := New(engine.Chess, 1).Search(xiangqi.NewStart(), Limits{Depth: 1}, nil); err == nil {
		t.Error("a chess searcher accepted a xiangqi position")
	}
	if _, err := New(engine.Xiangqi, 1).Search(chess.NewStart(), Limits{Depth: 1}, nil); err == nil {
		t.Error("a xiangqi searcher accepted a chess position")
	}
}

func TestNoMoveWhenGameOver(t *testing.T) {
	// Checkmated: the search returns NoMove.
	p := parse(t, engine.Chess, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
	res, _ := New(engine.Chess, 1).Search(p, Limits{Depth: 3}, nil)
	if res.Move != engine.NoMove {
		t.Errorf("mated side got move %v", res.Move)
	}
}

// TestSearchDoesNotAllocate: a search allocates nothing per node: a whole
// search of 50,000 nodes allocates nothing once the searcher exists.
// (A Xiangqi repetition cycle met for the first time asks the referee,
// which copies the position; its verdict is then cached, and AllocsPerRun's
// warm-up run meets every cycle these searches meet.)
func TestSearchDoesNotAllocate(t *testing.T) {
	for g, fen := range benchFENs {
		p := parse(t, g, fen)
		s := New(g, 4)
		allocs := testing.AllocsPerRun(3, func() {
			s.Clear()
			if _, err := s.Search(p, Limits{Nodes: 50000}, nil); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per 50,000-node search", g, allocs)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	for _, g := range []engine.Game{engine.Xiangqi, engine.Chess} {
		b.Run(g.String(), func(b *testing.B) {
			p := parse(b, g, benchFENs[g])
			s := New(g, 16)
			s.Search(p, Limits{Nodes: 100000}, nil) // meets the repetition cycles once
			b.ReportAllocs()
			var nodes int64
			for b.Loop() {
				s.Clear()
				res, _ := s.Search(p, Limits{Nodes: 100000}, nil)
				nodes += res.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

func TestIsMate(t *testing.T) {
	for _, c := range []struct {
		score, moves int
		ok           bool
	}{{Mate - 1, 1, true}, {Mate - 3, 2, true}, {-Mate + 2, -1, true}, {-Mate + 4, -2, true}, {150, 0, false}, {-mateBound + 1, 0, false}} {
		if m, ok := IsMate(c.score); m != c.moves || ok != c.ok {
			t.Errorf("IsMate(%d) = %d, %v; want %d, %v", c.score, m, ok, c.moves, c.ok)
		}
	}
}

func TestTTMateScoresRelativeToNode(t *testing.T) {
	for _, s := range []int{Mate - 5, -Mate + 7, 123, -45} {
		if got := scoreFromTT(scoreToTT(s, 9), 9); got != s {
			t.Errorf("round trip of %d: %d", s, got)
		}
	}
	var tt = newTable(1)
	tt.store(42, 7, 100, 5, boundExact)
	if e, ok := tt.probe(42); !ok || e.move != 7 || e.score != 100 || e.depth != 5 {
		t.Errorf("probe: %+v %v", e, ok)
	}
	if _, ok := tt.probe(43); ok {
		t.Error("probe of an absent key hit")
	}
}
