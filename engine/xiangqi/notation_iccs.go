package xiangqi

import "github.com/xqdb/xqdb/engine"

// iccsSpec reads coordinates from folded symbols: h2e2, H2-E2, and their
// full-width forms (NOTATIONS §2). It does not check legality.
func iccsSpec(s symbols) (engine.Move, bool) {
	a := s.b[:s.n]
	switch {
	case len(a) == 4:
	case len(a) == 5 && a[2] == '-':
		copy(a[2:], a[3:])
		a = a[:4]
	default:
		return 0, false
	}
	from, ok1 := parseSquare(a[0], a[1])
	to, ok2 := parseSquare(a[2], a[3])
	if !ok1 || !ok2 {
		return 0, false
	}
	return NewMove(from, to), true
}

// parseICCSText reads an ICCS token in the position.
func parseICCSText[T text](p *Position, tok T) (engine.Move, failure) {
	s, ok := foldASCII(tok)
	if !ok {
		return 0, failure{err: engine.ErrBadMove, why: whySyntax}
	}
	m, ok := iccsSpec(s)
	if !ok {
		return 0, failure{err: engine.ErrBadMove, why: whySyntax}
	}
	if !p.IsLegal(m) {
		return 0, failure{err: engine.ErrIllegalMove, why: whyCoordinates, move: m}
	}
	return m, failure{}
}
