package xiangqi

import "github.com/xqdb/xqdb/engine"

// Vietnamese notation (NOTATIONS §5): the Chinese structure with letters
// Tg (tướng, general), S (sĩ), T (tượng; also V), X (xe), P (pháo), M (mã),
// B (tốt/binh; also C for chốt), and directions '.' tiến (forward),
// '/' thoái (back), '-' bình (sideways): P2-5, M8.7, X1/1, B7.1.
//
// Tandem pieces replace the file digit by t (trước, front), g (giữa,
// middle) or s (sau, rear): Pt-5, Xs.1, Bg.1. They count by the xqbase
// rule of the Chinese notation (§3, "the structure is the same"): all
// pieces of the kind on files holding several, files from the mover's
// right to left, then front to back. No source covers four or five such
// soldiers; for them we write the ordinal before the letter, as 一兵 is
// written before the piece in Chinese: 1B.1 … 5B-4.
//
// Read: letters in either case, markers t/g/s in either case (Tg is always
// the general: three elephants never stand on one file), full-width forms.
// Written: Tg S T X P M B, ASCII digits, lower-case markers.

// vnKind reads a Vietnamese piece letter at a[0] (and a[1] for Tg); size
// is the number of letters used.
func vnKind(a []byte) (k Kind, size int) {
	switch upper(a[0]) {
	case 'T':
		if len(a) > 1 && upper(a[1]) == 'G' {
			return General, 2
		}
		return Elephant, 1
	case 'V':
		return Elephant, 1
	case 'S':
		return Advisor, 1
	case 'X':
		return Chariot, 1
	case 'P':
		return Cannon, 1
	case 'M':
		return Horse, 1
	case 'B', 'C':
		return Soldier, 1
	}
	return NoKind, 0
}

var vnLetter = [8]string{General: "Tg", Advisor: "S", Elephant: "T", Horse: "M", Chariot: "X", Cannon: "P", Soldier: "B"}

// vnDirection reads '.', '/' and '-'.
func vnDirection(c byte) direction {
	switch c {
	case '.':
		return dirAdvance
	case '/':
		return dirRetreat
	case '-':
		return dirTraverse
	}
	return dirNone
}

// parseVietnameseSpec reads Vietnamese symbols without looking at a
// position.
func parseVietnameseSpec(s symbols) (moveSpec, bool) {
	var sp moveSpec // combined scheme
	a := s.b[:s.n]
	if len(a) < 4 {
		return sp, false
	}
	if o := digit19(a[0]); o != 0 { // 2B-4: the ordinal of 4–5 tandem soldiers
		if o > 5 {
			return sp, false
		}
		sp.sel, sp.ord = selOrdinal, o
		a = a[1:]
	}
	k, size := vnKind(a)
	if k == NoKind {
		return sp, false
	}
	sp.kind = k
	rest := a[size:]
	if sp.sel == selFile {
		if len(rest) != 3 {
			return sp, false
		}
		switch c := rest[0]; {
		case digit19(c) != 0:
			sp.file = digit19(c)
		case upper(c) == 'T':
			sp.sel = selFront
		case upper(c) == 'G':
			sp.sel = selMiddle
		case upper(c) == 'S':
			sp.sel = selRear
		default:
			return sp, false
		}
		rest = rest[1:]
	}
	if len(rest) != 2 {
		return sp, false
	}
	sp.dir, sp.target = vnDirection(rest[0]), digit19(rest[1])
	return sp, sp.dir != dirNone && sp.target != 0
}

// parseVietnamese reads a Vietnamese token in the position.
func parseVietnamese[T text](p *Position, tok T) (engine.Move, failure) {
	return parseLatin(p, tok, parseVietnameseSpec)
}

// appendVietnamese writes a move of the piece kind k, side c, in
// Vietnamese.
func (p *Position) appendVietnamese(dst []byte, k Kind, c engine.Color, from, to uint8) []byte {
	t := tandemInfo{onFile: 1}
	if k >= Horse {
		t = p.tandem(k, c, from)
	}
	switch {
	case t.onFile < 2:
		dst = append(dst, vnLetter[k]...)
		dst = append(dst, '0'+byte(relFile(from, c)))
	case t.listLen >= 4:
		dst = append(dst, '1'+byte(t.listIdx))
		dst = append(dst, vnLetter[k]...)
	default:
		marker := byte('g')
		switch t.listIdx {
		case 0:
			marker = 't'
		case t.listLen - 1:
			marker = 's'
		}
		dst = append(dst, vnLetter[k]...)
		dst = append(dst, marker)
	}
	d, target := describe(k, c, from, to)
	switch d {
	case dirAdvance:
		dst = append(dst, '.')
	case dirRetreat:
		dst = append(dst, '/')
	default:
		dst = append(dst, '-')
	}
	return append(dst, '0'+byte(target))
}
