package xiangqi

import "github.com/xqdb/xqdb/engine"

// WXF notation (NOTATIONS §4): piece letter, from-file, direction, target:
// C2.5, H8+7, R1-1.
//
// Read: letters K A E H R C P with the aliases B (elephant) and N (horse),
// either case (Club Xiangqi writes Black in lower case); traverse as '.',
// '=' or nothing (C25); full-width forms (Ｃ２＝５). Tandem pieces:
//
//	C+.5  C-.5    marker in the file slot (WXF, xqbase, CXQ H-+3)
//	+C.5  -C.5    marker before the letter (wukong's ＋Ｐ＋１)
//	P+ P3 P-      3 soldiers on a file: the middle one keeps its file digit
//	++ P+ P- --   4 soldiers; 5 add the middle P3
//	3+ 33 3-      soldiers in tandem on two files: the file digit first
//	P.+1  Pa…Pe   xqbase's middle and 一…五 (combined order, NOTATIONS §3)
//
// Written: upper-case letters K A E H R C P, '.' for traverse as the WXF
// standard has it, and tandem markers in the file slot (C+.5), the form
// the WXF page itself uses (R+.3, C--1). Advisors and elephants always
// carry their file digit: their moves are unambiguous without 前/後.

// wxfKind reads a WXF piece letter.
func wxfKind(c byte) Kind {
	switch upper(c) {
	case 'K':
		return General
	case 'A':
		return Advisor
	case 'E', 'B':
		return Elephant
	case 'H', 'N':
		return Horse
	case 'R':
		return Chariot
	case 'C':
		return Cannon
	case 'P':
		return Soldier
	}
	return NoKind
}

var wxfLetter = [8]byte{General: 'K', Advisor: 'A', Elephant: 'E', Horse: 'H', Chariot: 'R', Cannon: 'C', Soldier: 'P'}

// wxfDirection reads '+', '-' and the traverse marks '.' and '='.
func wxfDirection(c byte) direction {
	switch c {
	case '+':
		return dirAdvance
	case '-':
		return dirRetreat
	case '.', '=':
		return dirTraverse
	}
	return dirNone
}

// parseWXFSpec reads WXF symbols without looking at a position.
func parseWXFSpec(s symbols) (moveSpec, bool) {
	sp := moveSpec{scheme: wxfRule}
	a := s.b[:s.n]
	switch len(a) {
	case 3: // C25: traverse written as nothing
		sp.kind, sp.file, sp.target = wxfKind(a[0]), digit19(a[1]), digit19(a[2])
		sp.dir = dirTraverse
		return sp, sp.kind != NoKind && sp.file != 0 && sp.target != 0
	case 4:
	default:
		return sp, false
	}
	sp.dir, sp.target = wxfDirection(a[2]), digit19(a[3])
	if sp.dir == dirNone || sp.target == 0 {
		return sp, false
	}
	c0, c1 := a[0], a[1]
	switch {
	case wxfKind(c0) != NoKind:
		sp.kind = wxfKind(c0)
		switch {
		case digit19(c1) != 0:
			sp.file = digit19(c1)
		case c1 == '+':
			sp.sel = selFront
		case c1 == '-':
			sp.sel = selRear
		case c1 == '.':
			sp.sel = selMiddle
		case c1 >= 'a' && c1 <= 'e':
			sp.sel, sp.scheme, sp.ord = selOrdinal, combined, int8(c1-'a'+1)
		default:
			return sp, false
		}
	case c0 == '+' || c0 == '-':
		switch {
		case wxfKind(c1) != NoKind:
			sp.kind = wxfKind(c1)
			sp.sel = selFront
			if c0 == '-' {
				sp.sel = selRear
			}
		case c1 == c0: // ++ and --: 4 or 5 soldiers on a file
			sp.kind = Soldier
			sp.sel = selFront2
			if c0 == '-' {
				sp.sel = selRear2
			}
		default:
			return sp, false
		}
	case digit19(c0) != 0: // soldiers in tandem on two files: 3+, 33, 3-
		sp.kind, sp.file = Soldier, digit19(c0)
		switch {
		case c1 == '+':
			sp.sel = selFront
		case c1 == '-':
			sp.sel = selRear
		case c1 == c0:
			sp.sel = selMiddle
		default:
			return sp, false
		}
	default:
		return sp, false
	}
	return sp, true
}

// parseWXF reads a WXF token in the position.
func parseWXF[T text](p *Position, tok T) (engine.Move, failure) {
	return parseLatin(p, tok, parseWXFSpec)
}

// parseLatin reads a token of a Latin-letter notation (WXF, Vietnamese):
// folded to ASCII, read by the notation's grammar, resolved in the
// position.
func parseLatin[T text](p *Position, tok T, grammar func(symbols) (moveSpec, bool)) (engine.Move, failure) {
	s, ok := foldASCII(tok)
	if !ok {
		return 0, failure{err: engine.ErrBadMove, why: whySyntax}
	}
	sp, ok := grammar(s)
	if !ok {
		return 0, failure{err: engine.ErrBadMove, why: whySyntax}
	}
	return p.resolve(sp)
}

// appendWXF writes a move of the piece kind k, side c, in WXF.
func (p *Position) appendWXF(dst []byte, k Kind, c engine.Color, from, to uint8) []byte {
	file := relFile(from, c)
	letter := wxfLetter[k]
	t := tandemInfo{onFile: 1}
	if k >= Horse {
		t = p.tandem(k, c, from)
	}
	if t.onFile < 2 {
		dst = append(dst, letter, '0'+byte(file))
	} else {
		var marker [2]byte // "++", "+", "", "-", "--"; "" keeps the file digit
		n := 0
		switch i, cnt := t.fileIdx, t.onFile; {
		case cnt >= 4 && i == 0:
			marker, n = [2]byte{'+', '+'}, 2
		case cnt >= 4 && i == cnt-1:
			marker, n = [2]byte{'-', '-'}, 2
		case cnt%2 == 1 && i == cnt/2:
			n = 0
		case i < cnt/2:
			marker, n = [2]byte{'+'}, 1
		default:
			marker, n = [2]byte{'-'}, 1
		}
		first := letter
		if t.multiFiles > 1 {
			first = '0' + byte(file) // soldiers in tandem on two files: 3+, 33, 3-
		}
		switch n {
		case 2:
			dst = append(dst, marker[0], marker[1])
		case 1:
			dst = append(dst, first, marker[0])
		default:
			dst = append(dst, first, '0'+byte(file))
		}
	}
	d, target := describe(k, c, from, to)
	switch d {
	case dirAdvance:
		dst = append(dst, '+')
	case dirRetreat:
		dst = append(dst, '-')
	default:
		dst = append(dst, '.')
	}
	return append(dst, '0'+byte(target))
}
