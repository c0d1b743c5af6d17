package chess

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/enginetest"
)

func mustFEN(tb testing.TB, fen string) *Position {
	tb.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		tb.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// play makes moves given in any notation ParseMove reads.
func play(tb testing.TB, p *Position, moves ...string) {
	tb.Helper()
	for _, tok := range moves {
		m, err := p.ParseMove(tok, engine.Auto)
		if err != nil {
			tb.Fatalf("%s: ParseMove(%q): %v", p.FEN(), tok, err)
		}
		p.Make(m)
	}
}

// legalUCI returns the UCI texts of the legal moves.
func legalUCI(p *Position) map[string]bool {
	out := map[string]bool{}
	for _, m := range p.AppendLegalMoves(nil) {
		out[UCI(m)] = true
	}
	return out
}

// readShared returns the contents of a shared data file, gunzipped when
// its name ends in .gz; the test is skipped when it is absent (see
// enginetest.SharedData).
func readShared(tb testing.TB, rel string) []byte {
	tb.Helper()
	path := enginetest.SharedData(tb, rel)
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if strings.HasSuffix(rel, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			tb.Fatalf("%s: %v", rel, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			tb.Fatalf("%s: %v", rel, err)
		}
	}
	return data
}

// testGame is one game of the test-only movetext tokenizer: its FEN tag (or
// "") and the SAN tokens of its mainline.
type testGame struct {
	fen   string
	moves []string
}

// splitGames is a deliberately small PGN tokenizer for tests (the real PGN
// reader belongs to package importer): tag pairs, mainline move tokens;
// comments, variations, NAGs, move numbers and results are dropped. A tag
// after movetext starts a new game.
func splitGames(data []byte) []testGame {
	var games []testGame
	var g testGame
	inMoves := false
	flush := func() {
		if len(g.moves) > 0 || g.fen != "" {
			games = append(games, g)
		}
		g = testGame{}
		inMoves = false
	}
	s := strings.TrimPrefix(string(data), "\uFEFF") // UTF-8 BOM
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '[':
			if inMoves {
				flush()
			}
			j := i + 1
			for j < len(s) && s[j] != ']' && s[j] != '\n' {
				if s[j] == '"' { // skip quoted value, honouring \"
					for j++; j < len(s) && s[j] != '"' && s[j] != '\n'; j++ {
						if s[j] == '\\' {
							j++
						}
					}
				}
				j++
			}
			tag := s[i+1 : min(j, len(s))]
			if name, val, ok := strings.Cut(tag, " "); ok && strings.EqualFold(name, "FEN") {
				g.fen = strings.Trim(strings.TrimSpace(val), `"`)
			}
			i = j + 1
		case c == '<': // HTML debris in web-scraped files: <br />
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				return append(games, g)
			}
			i += j + 1
		case c == '{':
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return append(games, g)
			}
			i += j + 1
		case c == ';':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				i = len(s)
			} else {
				i += j
			}
		case c == '(':
			depth := 0
			for ; i < len(s); i++ {
				if s[i] == '(' {
					depth++
				} else if s[i] == ')' {
					depth--
					if depth == 0 {
						i++
						break
					}
				} else if s[i] == '{' {
					if j := strings.IndexByte(s[i:], '}'); j > 0 {
						i += j
					}
				}
			}
		case c <= ' ' || c == ')':
			i++
		default:
			j := i
			for j < len(s) && s[j] > ' ' && !strings.ContainsRune("{}();[<", rune(s[j])) {
				j++
			}
			tok := s[i:j]
			i = j
			if strings.HasPrefix(tok, "1.") && !strings.HasPrefix(tok, "1..") && len(g.moves) > 0 {
				flush() // a new game without tags or result before it
			}
			// Move numbers, possibly glued to the move: 12. 12... 12.e4
			for len(tok) > 0 && tok[0] >= '0' && tok[0] <= '9' && strings.ContainsRune(tok, '.') {
				k := 0
				for k < len(tok) && tok[k] >= '0' && tok[k] <= '9' {
					k++
				}
				if k == len(tok) || tok[k] != '.' {
					break
				}
				for k < len(tok) && tok[k] == '.' {
					k++
				}
				tok = tok[k:]
			}
			switch {
			case strings.Trim(tok, ".") == "":
			case tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*":
				inMoves = true
				flush()
			case tok[0] == '$':
			default:
				inMoves = true
				g.moves = append(g.moves, tok)
			}
		}
	}
	flush()
	return games
}

// perftCase is one position of a .perft file with its counts by depth.
type perftCase struct {
	id     string
	epd    string
	counts map[int]uint64
}

// readPerftFile reads shakmaty's .perft format: id / epd / perft d n lines.
func readPerftFile(tb testing.TB, data []byte) []perftCase {
	tb.Helper()
	var out []perftCase
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "id":
			out = append(out, perftCase{id: val, counts: map[int]uint64{}})
		case "epd":
			out[len(out)-1].epd = val
		case "perft":
			d, n, _ := strings.Cut(val, " ")
			depth, err1 := strconv.Atoi(d)
			nodes, err2 := strconv.ParseUint(n, 10, 64)
			if err1 != nil || err2 != nil {
				tb.Fatalf("bad perft line %q", line)
			}
			out[len(out)-1].counts[depth] = nodes
		}
	}
	return out
}
