package replay

import (
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/movetext"
)

// render writes a line with its notes in one notation, the way a test
// reads them: moves, {comments}, $NAGs and (variations).
func render(pos engine.Position, moves []engine.Move, notes []movetext.Note, n engine.Notation) string {
	var b strings.Builder
	ni := 0
	put := func(s string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	flush := func(at int) {
		for ; ni < len(notes) && notes[ni].At == at; ni++ {
			switch note := notes[ni]; note.Kind {
			case movetext.Comment:
				put("{" + note.Text + "}")
			case movetext.NAG:
				put("$" + strconv.Itoa(int(note.NAG)))
			case movetext.Variation:
				pos.Unmake()
				put("(" + render(pos, note.Line.Moves, note.Line.Notes, n) + ")")
				pos.Make(moves[at-1])
			}
		}
	}
	flush(0)
	for i, m := range moves {
		put(pos.FormatMove(m, n))
		pos.Make(m)
		flush(i + 1)
	}
	for range moves {
		pos.Unmake()
	}
	return b.String()
}

// TestReplayKeepsNotes: comments ("{…}" and ";"), NAGs ("$n", suffixes,
// free-standing glyphs) and variations, nested, are kept in order, each
// variation replayed from the position before the move it replaces.
func TestReplayKeepsNotes(t *testing.T) {
	tests := []struct {
		name, pgn, want string
		errs            []string // "ply move" of each variation error
	}{
		{name: "none", pgn: "[White \"A\"]\n\n1. e4 e5 *\n", want: "e4 e5"},
		{name: "comments and NAGs", pgn: "[White \"A\"]\n\n{Before.} 1. e4! {Best by test} e5 $14 2. Nf3 ; to the end\nNc6!? !! *\n",
			want: "{Before.} e4 $1 {Best by test} e5 $14 Nf3 {to the end} Nc6 $5 $3"},
		{name: "variations", pgn: "[White \"A\"]\n\n1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 (1... c5 {Sicilian}) 2. Nf3 *\n",
			want: "e4 (d4 d5 (Nf6 c4) c4) e5 (c5 {Sicilian}) Nf3"},
		{name: "illegal move cuts its variation only", pgn: "[White \"A\"]\n\n1. e4 (1. d4 d5 2. Ke3 e5 {gone} (2. Nf3)) (1. c4) 1... e5 *\n",
			want: "e4 (d4 d5) (c4) e5", errs: []string{"3 Ke3"}},
		{name: "an illegal first move drops the variation", pgn: "[White \"A\"]\n\n1. e4 (1. e5) e5 *\n", want: "e4 e5", errs: []string{"1 e5"}},
		{name: "null moves in variations (pgn-extract's test-allownullmoves game 2)",
			pgn:  "[FEN \"4r1k1/2p2p2/5np1/Qp4q1/2p3P1/2B2P2/PP6/K6R w - - 0 1\"]\n\n1. Qxb5 -- (1... Qxb5 2. Bxf6 Re1+ 3. Rxe1 Qc6 4. g5)(1... Qe3 2. Qxe8+) *\n",
			want: "Qxb5 -- (Qxb5 Bxf6 Re1+ Rxe1 Qc6 g5) (Qe3 Qxe8+)"},
		{name: "xiangqi", pgn: "[Game \"Chinese Chess\"]\n\n1. 炮二平五 {中炮} 马８进７ (1... 炮８平５ {顺炮}) 2. 马二进三 *\n",
			want: "炮二平五 {中炮} 马８进７ (炮８平５ {顺炮}) 马二进三"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := replayText(t, tt.pgn, Replayer{})
			if err != nil {
				t.Fatal(err)
			}
			pos, _ := games.New(g.Game, g.StartFEN)
			n := engine.SAN
			if g.Game == engine.Xiangqi {
				n = engine.Chinese
			}
			got := render(pos, g.Moves, g.Notes, n)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			var errs []string
			for _, e := range g.VariationErrors {
				if !e.Variation || e.File != "t.pgn" || e.Game != 1 || e.Reason() == "" || !strings.Contains(e.Error(), "in a variation") {
					t.Errorf("variation error %+v", e)
				}
				errs = append(errs, strconv.Itoa(e.Ply)+" "+e.Move)
			}
			if strings.Join(errs, ",") != strings.Join(tt.errs, ",") {
				t.Errorf("variation errors %v, want %v", errs, tt.errs)
			}
		})
	}
}
