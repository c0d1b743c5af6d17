package book_test

import (
	"errors"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/query/book"
	"github.com/xqdb/xqdb/query/book/eleeye"
	"github.com/xqdb/xqdb/query/book/obk"
)

func TestFormatFromExtension(t *testing.T) {
	for _, c := range []struct {
		path string
		want book.Format
	}{{"a.bin", book.Polyglot}, {"BOOK.DAT", book.Eleeye}, {"x/y.OBK", book.OBK}} {
		if got, err := book.FormatOf(c.path); err != nil || got != c.want {
			t.Errorf("%s: %v %v, want %v", c.path, got, err, c.want)
		}
	}
	if _, err := book.FormatOf("book.txt"); !errors.Is(err, book.ErrUnknownFormat) {
		t.Errorf("book.txt: %v", err)
	}
	if d := book.Defaults(book.Polyglot); d.MinGames != 3 || d.MaxPly != 1024 {
		t.Errorf("polyglot defaults %+v, want make-book's min-game 3, max-ply 1024", d)
	}
	if d := book.Defaults(book.OBK); d.MinGames != 0 || d.MaxPly != 0 {
		t.Errorf("obk defaults %+v, want no minimum", d)
	}
}

// TestCodeText: each format's move code written without a position.
func TestCodeText(t *testing.T) {
	h2e2, _ := xiangqi.NewStart().ParseMove("h2e2", engine.ICCS)
	cp := chess.NewStart()
	if got := book.CodeText(book.Eleeye, eleeye.Code(h2e2)); got != "h2e2" {
		t.Errorf("eleeye: %s", got)
	}
	if got := book.CodeText(book.OBK, obk.Code(h2e2)); got != "h2e2" {
		t.Errorf("obk: %s", got)
	}
	e4, _ := cp.ParseMove("e4", engine.SAN)
	if got := book.CodeText(book.Polyglot, cp.PolyglotMove(e4)); got != "e2e4" {
		t.Errorf("polyglot: %s", got)
	}
	if got := book.CodeText(book.Eleeye, 0xFFFF); got != "????" {
		t.Errorf("off-board code: %s", got)
	}
}

// TestProbeRejectsOtherGame: a chess book is not probed with a Xiangqi
// position.
func TestProbeRejectsOtherGame(t *testing.T) {
	b, err := book.NewBuilder(book.Polyglot, book.Defaults(book.Polyglot))
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/e.bin"
	if _, err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	bk, err := book.Open(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bk.Probe(xiangqi.NewStart()); !errors.Is(err, book.ErrWrongGame) {
		t.Errorf("got %v, want ErrWrongGame", err)
	}
}
