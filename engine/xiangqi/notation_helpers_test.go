package xiangqi

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// allNotations are the Xiangqi notations every legal move must round-trip
// through.
var allNotations = []engine.Notation{engine.ICCS, engine.WXF, engine.Chinese, engine.ChineseTraditional, engine.Vietnamese}

// mustFEN parses a FEN or fails the test.
func mustFEN(tb testing.TB, fen string) *Position {
	tb.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		tb.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// mustICCS reads a legal ICCS move or fails the test.
func mustICCS(tb testing.TB, p *Position, s string) engine.Move {
	tb.Helper()
	m, err := p.ParseMove(s, engine.ICCS)
	if err != nil {
		tb.Fatalf("%s: %v", p.FEN(), err)
	}
	return m
}

// roundTrip checks that every legal move of p formats and parses back to
// itself in every notation, through ParseMove and ParseMoveBytes, and that
// Auto reads the ICCS and Chinese forms back too (WXF and Vietnamese text
// may legitimately be ambiguous under Auto, NOTATIONS §5). It returns the
// number of moves checked.
func roundTrip(tb testing.TB, p *Position) int {
	tb.Helper()
	var buf [MaxMoves]engine.Move
	var text []byte
	moves := p.AppendLegalMoves(buf[:0])
	for _, m := range moves {
		for _, n := range allNotations {
			text = p.AppendMove(text[:0], m, n)
			s := string(text)
			if got, err := p.ParseMove(s, n); err != nil || got != m {
				tb.Fatalf("%s: %s written %v as %q reads back as %s, %v", p.FEN(), ICCS(m), n, s, ICCS(got), err)
			}
			if got, err := p.ParseMoveBytes(text, n); err != nil || got != m {
				tb.Fatalf("%s: %s written %v as %q reads back from bytes as %s, %v", p.FEN(), ICCS(m), n, s, ICCS(got), err)
			}
			got, err := p.ParseMove(s, engine.Auto)
			switch n {
			case engine.WXF, engine.Vietnamese:
				if err == nil && got != m {
					tb.Fatalf("%s: %s written %v as %q reads under Auto as %s", p.FEN(), ICCS(m), n, s, ICCS(got))
				}
			default:
				if err != nil || got != m {
					tb.Fatalf("%s: %s written %v as %q reads under Auto as %s, %v", p.FEN(), ICCS(m), n, s, ICCS(got), err)
				}
			}
		}
	}
	return len(moves)
}

// pgnGame is one record of a PGN file: its tags and its move tokens.
type pgnGame struct {
	tags  map[string]string
	moves []string
}

// readMovetext is a test-only PGN reader, just enough for the shared
// samples: tag lines in [...], move numbers "1." (and "1..."), comments in
// {...}, results 1-0 0-1 1/2-1/2 and *. A full reader is the PGN package's
// job.
func readMovetext(tb testing.TB, r io.Reader) []pgnGame {
	tb.Helper()
	var games []pgnGame
	var g *pgnGame
	inComment, lastWasTag := false, false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") && !inComment {
			// A tag line after anything but a tag line starts a record,
			// even when the one before had no moves.
			if g == nil || !lastWasTag {
				games = append(games, pgnGame{tags: map[string]string{}})
				g = &games[len(games)-1]
			}
			name, value, _ := strings.Cut(strings.Trim(line, "[]"), " ")
			g.tags[name] = strings.Trim(value, `"`)
			lastWasTag = true
			continue
		}
		lastWasTag = false
		for _, tok := range strings.Fields(line) {
			if inComment {
				inComment = !strings.HasSuffix(tok, "}")
				continue
			}
			if strings.HasPrefix(tok, "{") {
				inComment = !strings.HasSuffix(tok, "}")
				continue
			}
			switch tok {
			case "1-0", "0-1", "1/2-1/2", "*":
				continue
			}
			// A move number "12." or "12..." stands alone or glued to the
			// move ("1.炮二平五"); WXF's "33.4" is a move, not a number.
			if num := strings.TrimLeft(tok, "0123456789"); len(num) < len(tok) && strings.HasPrefix(num, ".") {
				rest := strings.TrimLeft(num, ".")
				if rest == "" {
					continue
				}
				if rest[0] < '0' || rest[0] > '9' {
					tok = rest
				}
			}
			if g == nil {
				games = append(games, pgnGame{tags: map[string]string{}})
				g = &games[len(games)-1]
			}
			g.moves = append(g.moves, tok)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return games
}

// openShared opens a shared data file, decompressing .gz.
func openShared(tb testing.TB, path string) io.Reader {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	if !strings.HasSuffix(path, ".gz") {
		return f
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	return z
}
