package opening

import (
	"compress/gzip"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// labelledGames reads the 29,023 labelled CCPD games of the shared data.
func labelledGames(t *testing.T) []Sample {
	t.Helper()
	f, err := os.Open(enginetest.SharedData(t, "xiangqi/ecco/ccpd_ecco_labels.tsv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ReadSamples(zr)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// split80 puts every fifth labelled game in the test part.
func split80(all []Sample) (train, test []Sample) {
	for i, s := range all {
		if i%5 == 4 {
			test = append(test, s)
		} else {
			train = append(train, s)
		}
	}
	return train, test
}

// TestECCOAccuracy80_20 trains on four fifths of the labelled games and
// classifies the other fifth: issue 15 asks ≥ 96% the same code as the
// CCPD's tags (xqbase's classifier); a plain longest-prefix lookup gets
// about 94.7%.
func TestECCOAccuracy80_20(t *testing.T) {
	train, test := split80(labelledGames(t))
	tree := Learn(train)
	tree.names = nil
	same := 0
	for _, s := range test {
		if tree.Classify(s.Moves).Code == s.Code {
			same++
		}
	}
	acc := 100 * float64(same) / float64(len(test))
	t.Logf("trained on %d games, tested on %d: %d the same code (%.2f%%), %d nodes", len(train), len(test), same, acc, tree.Nodes())
	if acc < 97.5 { // measured 98.24%; the issue asks ≥ 96%
		t.Errorf("accuracy %.2f%%, want ≥ 97.5%%", acc)
	}
}

// TestShippedTreeIsLearned checks that ecco_tree.txt is what go generate
// writes: the tree learned from every labelled game. It then classifies
// each of them as its tag says.
func TestShippedTreeIsLearned(t *testing.T) {
	all := labelledGames(t)
	var got strings.Builder
	got.WriteString(TreeHeader(len(all)))
	tree := Learn(all)
	tree.WriteTo(&got)
	if got.String() != eccoTreeText {
		t.Fatalf("ecco_tree.txt is not the tree learned from the labels: run go generate ./query/opening/")
	}
	shipped := XiangqiTable()
	for i, s := range all {
		if o := shipped.Classify(s.Moves); o.Code != s.Code {
			t.Fatalf("labelled game %d: %s, tagged %s", i+1, o.Code, s.Code)
		}
	}
	for _, c := range shipped.codes {
		if shipped.names[c].Name == "" {
			t.Errorf("code %s has no name in ecco_names.tsv", c)
		}
	}
}

func iccsGame(t *testing.T, s string) []engine.Move {
	t.Helper()
	var ms []engine.Move
	for _, tok := range strings.Fields(s) {
		m, ok := xiangqi.ParseICCSMove(tok)
		if !ok {
			t.Fatalf("bad move %q", tok)
		}
		ms = append(ms, m)
	}
	return ms
}

func mirrorGame(ms []engine.Move) []engine.Move {
	out := make([]engine.Move, len(ms))
	for i, m := range ms {
		out[i] = xiangqi.MirrorMove(m)
	}
	return out
}

// TestECCOClassify names real openings of the labelled set, a game whose
// Red opens on files a–d as its mirror image (xqbase's rule), and a game
// from a set-up position as A00.
func TestECCOClassify(t *testing.T) {
	tree := XiangqiTable()
	tests := []struct {
		name, moves, code, opening string
	}{
		// CCPD game 487, tagged C95.
		{"central cannon vs screen horses", "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 g3g4 c6c5 b0a2 c9e7 b2b6 g6g5 g4g5 e7g5 g2f4 d9e8 b6i6 h7h2 a0b0 a9b9", "C95", "五八炮互进三兵对屏风马"},
		// CCPD game 489, tagged A15: elephant opening.
		{"elephant opening", "g0e2 b9c7 g3g4 c6c5 h0g2 c7d5 b0c2 h7e7 f0e1 h9g7 g2h4 b7b4 h4g6 i9h9 h2g2 e7e3 a0a1 e3e4 a1d1 d5c3", "A15", ""},
		{"no moves", "", "A00", "其他开局"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ms := iccsGame(t, tc.moves)
			o := tree.Classify(ms)
			if o.Code != tc.code || tc.opening != "" && o.Name != tc.opening {
				t.Errorf("got %s %s, want %s %s", o.Code, o.FullName(), tc.code, tc.opening)
			}
			if len(ms) > 0 {
				if m := tree.Classify(mirrorGame(ms)); m != o {
					t.Errorf("mirror image: got %s, want %s as the game", m.Code, o.Code)
				}
			}
		})
	}
	if o, _ := Classify(engine.Xiangqi, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", iccsGame(t, "e0e1"), nil); o.Code != "A00" {
		t.Errorf("non-standard start: got %s, want A00", o.Code)
	}
}

// TestECCOMirrorRule: mirroring happens only when Red's first move starts
// on files a–d; an e-file first move is kept as it is.
func TestECCOMirrorRule(t *testing.T) {
	var buf [maxPlies]engine.Move
	for _, tc := range []struct {
		first  string
		mirror bool
	}{{"b2e2", true}, {"c3c4", true}, {"d0e1", true}, {"a3a4", true}, {"e3e4", false}, {"h2e2", false}, {"g3g4", false}} {
		if _, got := normalize(&buf, iccsGame(t, tc.first)); got != tc.mirror {
			t.Errorf("%s: mirrored %v, want %v", tc.first, got, tc.mirror)
		}
	}
}

func TestTreeRoundTrip(t *testing.T) {
	tree := XiangqiTable()
	var b strings.Builder
	tree.WriteTo(&b)
	back, err := ReadTree(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var b2 strings.Builder
	back.WriteTo(&b2)
	if b.String() != b2.String() || back.Nodes() != tree.Nodes() {
		t.Fatal("tree changed in a write and read")
	}
	for _, bad := range []string{"", "p1 h2e2\n= C01\n", "q1 h2e2\n= A00\n= A00\n", "p21 h2e2\n= A00\n= A00\n", "r11 h2e2\n= A00\n= A00\n",
		"p1 z9z9\n= A00\n= A00\n", "= F00\n", "= A00\n= A01\n"} {
		if _, err := ReadTree(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func FuzzReadTree(f *testing.F) {
	f.Add("p1 h2e2\n= C01\n= A00\n")
	f.Add(eccoTreeText[:200])
	f.Fuzz(func(t *testing.T, s string) {
		tree, err := ReadTree(strings.NewReader(s))
		if err == nil {
			tree.Classify(iccsGame(t, "h2e2 h9g7 h0g2"))
		}
	})
}

func FuzzReadSamples(f *testing.F) {
	f.Add("ecco\tccpd_unique_id\tplies_total\tfirst20_plies_iccs\nC95\t487\t69\th2e2 h9g7\n")
	f.Fuzz(func(t *testing.T, s string) {
		if ss, err := ReadSamples(strings.NewReader(s)); err == nil && len(ss) > 0 {
			Learn(ss).Classify(ss[0].Moves)
		}
	})
}

func xiangqiMove(s string) (engine.Move, bool) { return xiangqi.ParseICCSMove(s) }

func TestDetLog(t *testing.T) {
	for _, x := range []float64{1, 2, 3, 10, 1000, 29023, 1 << 20, 123456789} {
		if got, want := detLog(x), math.Log(x); math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Errorf("detLog(%v) = %v, want %v", x, got, want)
		}
	}
}
