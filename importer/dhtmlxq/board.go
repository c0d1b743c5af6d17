package dhtmlxq

import (
	"fmt"
	"sort"

	"github.com/xqdb/xqdb/importer/internal/board"
	"github.com/xqdb/xqdb/importer/record"
)

// move is one move of a branch: from (f1, r1) to (f2, r2) in ICCS
// coordinates, and where its digits stand in the file.
type move struct {
	f1, r1, f2, r2 byte
	off            int
	line           int
}

// readBinit places the 32 pieces of a binit value: 64 digits, a square
// "xy" per piece in board.Pieces order, x the file, y the row counted
// from the top (Black's side), "99" for a piece off the board.
func (p *parser) readBinit(v []byte, b *board.Board) bool {
	v = digitsOnly(v)
	if len(v) != 64 {
		p.fail(fmt.Errorf("dhtmlxq: %w: binit has %d digits, want 64", record.ErrBadValue, len(v)))
		if len(v) < 64 {
			return false
		}
	}
	for i := 0; i < 32; i++ {
		x, y := v[2*i]-'0', v[2*i+1]-'0'
		if x == 9 && y == 9 {
			continue
		}
		if x > 8 {
			p.fail(fmt.Errorf("dhtmlxq: %w: binit piece %d at %c%c", record.ErrBadSquare, i, v[2*i], v[2*i+1]))
			continue
		}
		b[x][9-y] = board.Pieces[i]
	}
	return true
}

// readBoardArray reads the DHJHtmlXQ board (tag 31): 90 characters, rows
// from the top, '*' or '0' for an empty point, vschess letters (E/H for
// elephant and horse accepted).
func (p *parser) readBoardArray(v []byte, b *board.Board) bool {
	if len(v) != 90 {
		p.fail(fmt.Errorf("dhtmlxq: %w: board has %d characters, want 90", record.ErrBadValue, len(v)))
		return false
	}
	for i, c := range v {
		switch c {
		case 'E':
			c = 'B'
		case 'e':
			c = 'b'
		case 'H':
			c = 'N'
		case 'h':
			c = 'n'
		}
		switch c {
		case 'K', 'A', 'B', 'N', 'R', 'C', 'P', 'k', 'a', 'b', 'n', 'r', 'c', 'p':
			b[i%9][9-i/9] = c
		}
	}
	return true
}

// startBoard is the standard start position.
func startBoard() board.Board {
	var b board.Board
	back := "RNBAKABNR"
	for f := 0; f < 9; f++ {
		b[f][0] = back[f]
		b[f][9] = back[f] + 'a' - 'A'
	}
	for _, f := range []int{1, 7} {
		b[f][2], b[f][7] = 'C', 'c'
	}
	for f := 0; f < 9; f += 2 {
		b[f][3], b[f][6] = 'P', 'p'
	}
	return b
}

// readMoves appends the moves of a move list: groups of four digits
// "x1y1x2y2", rows counted from the top (from the bottom in the
// DHJHtmlXQ movelist, up=true). Blanks between digits are skipped.
func (p *parser) readMoves(v []byte, off int, up bool, lines *lineIndex, dst []move) []move {
	var d [4]byte
	n, at := 0, 0
	for i, c := range v {
		switch {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
			continue
		case c < '0' || c > '9':
			p.fail(fmt.Errorf("dhtmlxq: %w: %q in a move list at offset %d", record.ErrBadValue, c, off+i))
			return dst
		}
		if n == 0 {
			if p.moves >= maxMoves {
				p.tooLarge = true
				return dst
			}
			at = off + i
		}
		d[n] = c - '0'
		n++
		if n < 4 {
			continue
		}
		n = 0
		if d[0] > 8 || d[2] > 8 {
			p.fail(fmt.Errorf("dhtmlxq: %w: move %d%d%d%d at offset %d", record.ErrBadSquare, d[0], d[1], d[2], d[3], at))
			return dst
		}
		m := move{f1: d[0], r1: 9 - d[1], f2: d[2], r2: 9 - d[3], off: at, line: lines.line(at)}
		if up {
			m.r1, m.r2 = d[1], d[3]
		}
		dst = append(dst, m)
		p.moves++
	}
	if n != 0 {
		p.fail(fmt.Errorf("dhtmlxq: %w: move list ends with %d stray digit(s)", record.ErrBadValue, n))
	}
	return dst
}

func digitsOnly(v []byte) []byte {
	out := make([]byte, 0, len(v))
	for _, c := range v {
		if c >= '0' && c <= '9' {
			out = append(out, c)
		}
	}
	return out
}

// lineIndex turns file offsets into 1-based line numbers.
type lineIndex []int // offsets of '\n'

func newLineIndex(data []byte) lineIndex {
	var l lineIndex
	for i, c := range data {
		if c == '\n' {
			l = append(l, i)
		}
	}
	return l
}

func (l *lineIndex) line(off int) int {
	return sort.SearchInts(*l, off) + 1
}
