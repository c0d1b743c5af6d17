package xiangqi

import (
	"unicode/utf8"

	"github.com/xqdb/xqdb/engine"
)

// Chinese notation (NOTATIONS §3): [piece][file][direction][target], e.g.
// 炮二平五, 馬８進７; tandem pieces put a position word first (前炮平五,
// 後車進一, 中兵, 一兵…五兵) or, in some files, after the piece (炮前平五).
//
// Read: every usual glyph — 帥帅將将 仕士 相象 馬马傌 車车俥硨 炮砲包 兵卒,
// 進进 退 平, 前 中 後后 — and any digit style for either side (一…九, 1…9,
// １…９). The colour always comes from the side to move, never from the
// glyph (NOTATIONS §10.2). Position words count by the xqbase rule: all
// pieces of the kind on files holding several, files from the mover's right
// to left, then front to back; 前/中/後 for two or three, 一…五 for four or
// five (前 and 後 are also read as first and last then). Advisors and
// elephants may carry 前/後 or not.
//
// Written with Chinese numerals for Red and full-width digits for Black, as
// xqbase writes them; advisors and elephants always carry their file
// number, as in eleeye. The two scripts each follow their reference data:
//
//   - engine.Chinese: simplified glyphs (帅仕相马车炮兵, 将士象马车炮卒,
//     进退平, 前中后) and the xqbase rule that pieces in tandem always take
//     a position word (前炮平四 even when only one of them can go there), as
//     xqbase and the wukong records write.
//   - engine.ChineseTraditional: the glyphs of the CCPD records (帥仕相馬車
//     炮兵, 將士象馬車炮卒, 進退平, 前中後) and CCPD's habit of writing a
//     piece in tandem by its file when that names the move uniquely, and by
//     前/中/後 or 一…五 only when it does not. Our traditional text then
//     equals CCPD's for all but 1,561 of its 2.51 million moves: those where
//     CCPD wrote 前/後 although the file was unique (TestCCPDChineseMatchesDerivedICCS).

// glyphStyle records which script a token's glyphs belong to.
type glyphStyle uint8

const (
	styleSimplified  glyphStyle = 1 << iota // 帅将马车进后
	styleTraditional                        // 帥將馬傌車俥硨進後
)

// chineseKind reads a piece glyph.
func chineseKind(r rune) (Kind, glyphStyle) {
	switch r {
	case '帅', '将':
		return General, styleSimplified
	case '帥', '將':
		return General, styleTraditional
	case '仕', '士':
		return Advisor, 0
	case '相', '象':
		return Elephant, 0
	case '马':
		return Horse, styleSimplified
	case '馬', '傌':
		return Horse, styleTraditional
	case '车':
		return Chariot, styleSimplified
	case '車', '俥', '硨':
		return Chariot, styleTraditional
	case '炮', '砲', '包':
		return Cannon, 0
	case '兵', '卒':
		return Soldier, 0
	}
	return NoKind, 0
}

// chineseNumber reads a number 1–9 in any of the styles: Chinese numerals
// (Red), full-width or ASCII digits (Black), NOTATIONS §3 "Numbers".
func chineseNumber(r rune) int8 {
	switch r {
	case '一':
		return 1
	case '二':
		return 2
	case '三':
		return 3
	case '四':
		return 4
	case '五':
		return 5
	case '六':
		return 6
	case '七':
		return 7
	case '八':
		return 8
	case '九':
		return 9
	}
	switch {
	case r >= '1' && r <= '9':
		return int8(r - '0')
	case r >= '１' && r <= '９':
		return int8(r - '０')
	}
	return 0
}

// chineseDirection reads 進/进, 退 and 平.
func chineseDirection(r rune) (direction, glyphStyle) {
	switch r {
	case '進':
		return dirAdvance, styleTraditional
	case '进':
		return dirAdvance, styleSimplified
	case '退':
		return dirRetreat, 0
	case '平':
		return dirTraverse, 0
	}
	return dirNone, 0
}

// chinesePlace reads 前, 中 and 後/后.
func chinesePlace(r rune) (selector, glyphStyle, bool) {
	switch r {
	case '前':
		return selFront, 0, true
	case '中':
		return selMiddle, 0, true
	case '後':
		return selRear, styleTraditional, true
	case '后':
		return selRear, styleSimplified, true
	}
	return 0, 0, false
}

// parseChineseSpec reads a Chinese token without looking at a position; it
// also says which glyph styles the token used.
func parseChineseSpec[T text](tok T) (moveSpec, glyphStyle, bool) {
	var sp moveSpec
	var r [4]rune
	n := 0
	start, end := trimBounds(tok)
	for i := start; i < end; {
		c, size := nextRune(tok, i)
		i += size
		if n == len(r) {
			return sp, 0, false
		}
		r[n] = c
		n++
	}
	if n != 4 {
		return sp, 0, false
	}
	var style glyphStyle
	if k, st := chineseKind(r[0]); k != NoKind {
		sp.kind, style = k, st
		if f := chineseNumber(r[1]); f != 0 {
			sp.file = f
		} else if sel, st, ok := chinesePlace(r[1]); ok { // 炮前平五
			sp.sel, style = sel, style|st
		} else {
			return sp, 0, false
		}
	} else {
		k, st := chineseKind(r[1])
		if k == NoKind {
			return sp, 0, false
		}
		sp.kind, style = k, st
		if sel, st, ok := chinesePlace(r[0]); ok {
			sp.sel, style = sel, style|st
		} else if o := chineseNumber(r[0]); o >= 1 && o <= 5 { // 一兵…五兵
			sp.sel, sp.ord = selOrdinal, o
		} else {
			return sp, 0, false
		}
	}
	d, st := chineseDirection(r[2])
	sp.dir, sp.target = d, chineseNumber(r[3])
	return sp, style | st, d != dirNone && sp.target != 0
}

// parseChinese reads a Chinese token (either script) in the position.
func parseChinese[T text](p *Position, tok T) (engine.Move, failure) {
	sp, _, ok := parseChineseSpec(tok)
	if !ok {
		return 0, failure{err: engine.ErrBadMove, why: whySyntax}
	}
	return p.resolve(sp)
}

// Output glyphs, indexed by colour then kind (xqbase's tables; the
// traditional ones are CCPD's).
var (
	simpPiece = [2][8]rune{
		{General: '帅', Advisor: '仕', Elephant: '相', Horse: '马', Chariot: '车', Cannon: '炮', Soldier: '兵'},
		{General: '将', Advisor: '士', Elephant: '象', Horse: '马', Chariot: '车', Cannon: '炮', Soldier: '卒'},
	}
	tradPiece = [2][8]rune{
		{General: '帥', Advisor: '仕', Elephant: '相', Horse: '馬', Chariot: '車', Cannon: '炮', Soldier: '兵'},
		{General: '將', Advisor: '士', Elephant: '象', Horse: '馬', Chariot: '車', Cannon: '炮', Soldier: '卒'},
	}
	redNumeral  = [10]rune{0, '一', '二', '三', '四', '五', '六', '七', '八', '九'}
	simpPlace   = [4]rune{selFront: '前', selMiddle: '中', selRear: '后'}
	tradPlace   = [4]rune{selFront: '前', selMiddle: '中', selRear: '後'}
	simpAdvance = '进'
	tradAdvance = '進'
)

// appendNumber writes a number as side c writes it: 一…九 for Red,
// full-width １…９ for Black.
func appendNumber(dst []byte, c engine.Color, n int8) []byte {
	if c == engine.First {
		return utf8.AppendRune(dst, redNumeral[n])
	}
	return utf8.AppendRune(dst, '０'+rune(n))
}

// appendChinese writes a move of the piece kind k, side c, in Chinese.
func (p *Position) appendChinese(dst []byte, k Kind, c engine.Color, from, to uint8, trad bool) []byte {
	piece, place, advance := simpPiece[c][k], simpPlace, simpAdvance
	if trad {
		piece, place, advance = tradPiece[c][k], tradPlace, tradAdvance
	}
	t := tandemInfo{onFile: 1}
	if k >= Horse {
		t = p.tandem(k, c, from)
	}
	switch {
	case t.onFile < 2 || trad && p.fileNamesUniquely(k, c, from, to):
		dst = utf8.AppendRune(dst, piece)
		dst = appendNumber(dst, c, relFile(from, c))
	case t.listLen >= 4: // NOTATIONS §3: 一…五 for four or five, counted from the front
		dst = utf8.AppendRune(dst, redNumeral[t.listIdx+1])
		dst = utf8.AppendRune(dst, piece)
	default:
		sel := selMiddle
		switch t.listIdx {
		case 0:
			sel = selFront
		case t.listLen - 1:
			sel = selRear
		}
		dst = utf8.AppendRune(dst, place[sel])
		dst = utf8.AppendRune(dst, piece)
	}
	d, target := describe(k, c, from, to)
	switch d {
	case dirAdvance:
		dst = utf8.AppendRune(dst, advance)
	case dirRetreat:
		dst = utf8.AppendRune(dst, '退')
	default:
		dst = utf8.AppendRune(dst, '平')
	}
	return appendNumber(dst, c, target)
}

// fileNamesUniquely reports whether the plain file form ("車二平五") reads
// back as the move from→to: no other piece of the kind on that file has a
// legal move with the same direction and target.
func (p *Position) fileNamesUniquely(k Kind, c engine.Color, from, to uint8) bool {
	if c != p.side {
		return false
	}
	d, target := describe(k, c, from, to)
	m, f := p.resolve(moveSpec{kind: k, sel: selFile, scheme: combined, file: relFile(from, c), dir: d, target: target})
	return f.err == nil && m == NewMove(from, to)
}
