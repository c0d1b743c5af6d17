// Package xqtest is test support for the importer: a bare Xiangqi board
// that plays ICCS moves without checking them and writes each in Chinese
// notation, so tests can compare move tokens as written (CCPD, walker8088
// PGN, test1_move.txt) with the ICCS oracles in shared/data. It is not a
// rules engine: it only moves pieces.
package xqtest

import (
	"fmt"
	"sort"
	"strings"
)

// Board is a 9×10 board indexed [file][rank], FEN letters, 0 empty.
type Board struct {
	sq  [9][10]byte
	red bool // Red to move
}

// FromFEN reads the board and side fields of a Xiangqi FEN.
func FromFEN(fen string) (*Board, error) {
	f := strings.Fields(fen)
	if len(f) == 0 {
		return nil, fmt.Errorf("xqtest: empty FEN")
	}
	rows := strings.Split(f[0], "/")
	if len(rows) != 10 {
		return nil, fmt.Errorf("xqtest: %d ranks in %q", len(rows), fen)
	}
	b := &Board{red: len(f) < 2 || f[1] != "b"}
	for i, row := range rows {
		rank, file := 9-i, 0
		for _, c := range row {
			switch {
			case c >= '1' && c <= '9':
				file += int(c - '0')
			case file < 9:
				b.sq[file][rank] = byte(c)
				file++
			}
		}
	}
	return b, nil
}

func isRed(c byte) bool { return c >= 'A' && c <= 'Z' }

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// canonical piece glyphs, one per kind whatever the colour.
var glyph = map[byte]string{'K': "将", 'A': "士", 'B': "象", 'N': "马", 'R': "车", 'C': "炮", 'P': "卒"}

// Chinese writes the ICCS move m in canonical Chinese notation (see
// Normalize) and plays it. It returns every spelling records use: the
// tandem form first when two pieces of the kind share the file
// (前炮进2; for pawns both xqbase's numbering across files and the
// single-file one), then the plain file form (炮7进2), which some records
// (CCPD among them) write even for tandem pieces. The mover is the piece
// on the source square, so the side to move needs no bookkeeping.
func (b *Board) Chinese(m string) ([]string, error) {
	if len(m) != 4 {
		return nil, fmt.Errorf("xqtest: bad move %q", m)
	}
	f1, r1, f2, r2 := int(m[0]-'a'), int(m[1]-'0'), int(m[2]-'a'), int(m[3]-'0')
	for _, v := range []int{f1, f2} {
		if v < 0 || v > 8 {
			return nil, fmt.Errorf("xqtest: bad move %q", m)
		}
	}
	for _, v := range []int{r1, r2} {
		if v < 0 || v > 9 {
			return nil, fmt.Errorf("xqtest: bad move %q", m)
		}
	}
	pc := b.sq[f1][r1]
	if pc == 0 {
		return nil, fmt.Errorf("xqtest: no piece on %s", m[:2])
	}
	red := isRed(pc)
	kind := upper(pc)
	fileNo := func(f int) int { // mover's file numbering, NOTATIONS §0
		if red {
			return 9 - f
		}
		return f + 1
	}
	fwd := r2 - r1
	if !red {
		fwd = -fwd
	}
	dir := "平"
	switch {
	case fwd > 0:
		dir = "进"
	case fwd < 0:
		dir = "退"
	}
	target := fileNo(f2)
	if strings.IndexByte("KRCP", kind) >= 0 && dir != "平" {
		target = abs(r2 - r1)
	}
	tail := dir + fmt.Sprint(target)
	var forms []string
	for _, across := range []bool{true, false} {
		if pos := b.tandem(pc, f1, r1, across); pos != "" {
			forms = append(forms, pos+glyph[kind]+tail)
		}
	}
	forms = append(forms, glyph[kind]+fmt.Sprint(fileNo(f1))+tail)
	b.sq[f2][r2] = pc
	b.sq[f1][r1] = 0
	b.red = !red
	return forms, nil
}

// tandem returns the position word for a piece that shares its file with
// others of its kind (NOTATIONS §3): 前/后 for two, 前/中/后 for three,
// 1…5 for more; pawns on several such files are numbered together, files
// from the mover's right to left, then front to back. Advisors and
// elephants never get one (xqbase writes a file digit). With across false
// pawns are numbered on their own file only (the WXF reading).
func (b *Board) tandem(pc byte, file, rank int, across bool) string {
	kind := upper(pc)
	if kind == 'A' || kind == 'B' || kind == 'K' {
		return ""
	}
	red := isRed(pc)
	type at struct{ f, r int }
	var list []at
	files := map[int]int{}
	for f := 0; f < 9; f++ {
		for r := 0; r < 10; r++ {
			if b.sq[f][r] == pc {
				files[f]++
			}
		}
	}
	if files[file] < 2 {
		return ""
	}
	for f := 0; f < 9; f++ {
		if files[f] < 2 || ((kind != 'P' || !across) && f != file) {
			continue
		}
		for r := 0; r < 10; r++ {
			if b.sq[f][r] == pc {
				list = append(list, at{f, r})
			}
		}
	}
	sort.Slice(list, func(i, j int) bool {
		a, c := list[i], list[j]
		if a.f != c.f { // mover's right first: Red's right is file i
			if red {
				return a.f > c.f
			}
			return a.f < c.f
		}
		if red { // front first
			return a.r > c.r
		}
		return a.r < c.r
	})
	idx := 0
	for i, p := range list {
		if p.f == file && p.r == rank {
			idx = i
		}
	}
	switch len(list) {
	case 2:
		return []string{"前", "后"}[idx]
	case 3:
		return []string{"前", "中", "后"}[idx]
	}
	return fmt.Sprint(idx + 1)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// normal maps every glyph variant that records use (traditional,
// simplified, red/black forms, full-width and Chinese digits) to the
// canonical form Chinese writes.
var normal = strings.NewReplacer(
	"帥", "将", "帅", "将", "將", "将",
	"仕", "士", "相", "象",
	"馬", "马", "傌", "马",
	"車", "车", "俥", "车", "硨", "车",
	"砲", "炮", "包", "炮",
	"兵", "卒",
	"進", "进", "後", "后",
	"一", "1", "二", "2", "三", "3", "四", "4", "五", "5", "六", "6", "七", "7", "八", "8", "九", "9",
	"１", "1", "２", "2", "３", "3", "４", "4", "５", "5", "６", "6", "７", "7", "８", "8", "９", "9",
)

// Normalize writes a Chinese-notation move token in canonical form; a
// position word after the piece (炮前平五) moves before it.
func Normalize(tok string) string {
	s := []rune(normal.Replace(strings.TrimSpace(tok)))
	if len(s) == 4 && strings.ContainsRune("前中后", s[1]) {
		s[0], s[1] = s[1], s[0]
	}
	return string(s)
}
