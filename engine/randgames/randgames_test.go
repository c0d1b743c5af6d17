package randgames

import (
	"bytes"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
)

// TestWriteReplays: every game written replays move by move through the
// rules from the start, the same seed writes the same games and another
// seed others.
func TestWriteReplays(t *testing.T) {
	for _, g := range []engine.Game{engine.Chess, engine.Xiangqi} {
		var a, b, c bytes.Buffer
		if err := Write(&a, g, 30, 7); err != nil {
			t.Fatal(err)
		}
		_ = Write(&b, g, 30, 7)
		_ = Write(&c, g, 30, 8)
		if !bytes.Equal(a.Bytes(), b.Bytes()) || bytes.Equal(a.Bytes(), c.Bytes()) {
			t.Fatalf("%v: the same seed must write the same games, another seed others", g)
		}
		records := strings.Split(strings.TrimSpace(a.String()), "\n\n[")
		if len(records) != 30 {
			t.Fatalf("%v: %d records, want 30", g, len(records))
		}
		for i, r := range records {
			moves := r[strings.LastIndex(r, "\n\n")+2:]
			p, err := games.New(g, "")
			if err != nil {
				t.Fatal(err)
			}
			plies := 0
			for _, tok := range strings.Fields(moves) {
				if strings.HasSuffix(tok, ".") || tok == "*" {
					continue
				}
				m, err := p.ParseMove(tok, engine.Display(g))
				if err != nil || !p.IsLegal(m) {
					t.Fatalf("%v game %d, ply %d: %q: %v", g, i, plies+1, tok, err)
				}
				p.Make(m)
				plies++
			}
			if plies < 40 && p.Status() == engine.Ongoing {
				t.Errorf("%v game %d: %d plies and not over", g, i, plies)
			}
		}
	}
}
