package xiangqi

import (
	"errors"
	"fmt"

	"github.com/xqdb/xqdb/engine"
)

// Move notations. ParseMove/ParseMoveBytes and FormatMove/AppendMove
// dispatch to one reader and one writer per notation:
//
//	file                    what
//	notation.go             dispatch; Auto
//	notation_spec.go        the structural move spec, tandem rules, matching against legal moves, errors
//	notation_text.go        UTF-8 decoding, full-width folding (string and []byte alike)
//	notation_iccs.go        ICCS read from bytes (iccs.go writes it)
//	notation_wxf.go         WXF: C2.5, H8+7, C+.5, +C.5, ++.4, 3+.4
//	notation_chinese.go     Chinese, simplified and traditional: 炮二平五, 馬８進７, 前炮平五
//	notation_vietnamese.go  Vietnamese: P2-5, M8.7, X1/1, Pt-5
//	detect.go               DetectNotation, ResolveNotation
//
// Every relative notation reads a token structurally — piece, which piece
// (file or tandem position), direction, target — and then matches that
// against the legal moves of the side to move (NOTATIONS §10.6). A token
// that fits no legal move is engine.ErrIllegalMove, one that fits two is
// engine.ErrAmbiguousMove, one that is no move at all engine.ErrBadMove.
// Reading allocates nothing unless it fails.

// ParseMove reads one move token in notation n and returns the legal move
// it names. With engine.Auto the notation is recognised from the token
// (DetectNotation); a token that reads both as WXF and as Vietnamese is
// taken when exactly one reading names a legal move, or both name the same
// one, and is engine.ErrAmbiguousMove otherwise. engine.UCI is read as
// ICCS, which is the same coordinate form.
func (p *Position) ParseMove(tok string, n engine.Notation) (engine.Move, error) {
	m, f, used := parseToken(p, tok, n)
	if f.err != nil {
		return 0, p.parseError(f, tok, used)
	}
	return m, nil
}

// ParseMoveBytes is ParseMove for a token in a byte slice. It does not
// allocate when it succeeds: it is the replay hot path of imports.
func (p *Position) ParseMoveBytes(tok []byte, n engine.Notation) (engine.Move, error) {
	m, f, used := parseToken(p, tok, n)
	if f.err != nil {
		return 0, p.parseError(f, string(tok), used)
	}
	return m, nil
}

func (p *Position) parseError(f failure, tok string, n engine.Notation) error {
	if f.why == whyNotXiangqi {
		return fmt.Errorf("xiangqi: %v notation: %w", n, errors.ErrUnsupported)
	}
	return p.failError(f, tok, n)
}

// parseToken reads tok in notation n; it also returns the notation that
// read it (for Auto) so errors can name it.
func parseToken[T text](p *Position, tok T, n engine.Notation) (engine.Move, failure, engine.Notation) {
	var m engine.Move
	var f failure
	switch n {
	case engine.ICCS, engine.UCI:
		m, f = parseICCSText(p, tok)
		n = engine.ICCS
	case engine.WXF:
		m, f = parseWXF(p, tok)
	case engine.Chinese, engine.ChineseTraditional:
		m, f = parseChinese(p, tok)
	case engine.Vietnamese:
		m, f = parseVietnamese(p, tok)
	case engine.Auto:
		return parseAuto(p, tok)
	default:
		f = failure{err: errors.ErrUnsupported, why: whyNotXiangqi}
	}
	return m, f, n
}

// parseAuto recognises the notation of one token and reads it.
func parseAuto[T text](p *Position, tok T) (engine.Move, failure, engine.Notation) {
	s, latin := foldASCII(tok)
	if !latin {
		sp, _, ok := parseChineseSpec(tok)
		if !ok {
			return 0, failure{err: engine.ErrBadMove, why: whySyntax}, engine.Auto
		}
		m, f := p.resolve(sp)
		return m, f, engine.Chinese
	}
	if m, ok := iccsSpec(s); ok {
		if !p.IsLegal(m) {
			return 0, failure{err: engine.ErrIllegalMove, why: whyCoordinates, move: m}, engine.ICCS
		}
		return m, failure{}, engine.ICCS
	}
	wsp, isWXF := parseWXFSpec(s)
	vsp, isVN := parseVietnameseSpec(s)
	switch {
	case isWXF && isVN:
		// NOTATIONS §5: P, C, B, '.' and '-' mean different things in WXF
		// and Vietnamese; keep the reading that names a legal move.
		mw, fw := p.resolve(wsp)
		mv, fv := p.resolve(vsp)
		switch {
		case fw.err == nil && fv.err == nil:
			if mw != mv {
				return 0, failure{err: engine.ErrAmbiguousMove, why: whyTwoReadings}, engine.Auto
			}
			return mw, fw, engine.WXF
		case fw.err == nil:
			return mw, fw, engine.WXF
		case fv.err == nil:
			return mv, fv, engine.Vietnamese
		}
		return 0, fw, engine.WXF
	case isWXF:
		m, f := p.resolve(wsp)
		return m, f, engine.WXF
	case isVN:
		m, f := p.resolve(vsp)
		return m, f, engine.Vietnamese
	}
	return 0, failure{err: engine.ErrBadMove, why: whySyntax}, engine.Auto
}

// FormatMove writes a legal move in notation n. engine.Auto and the
// coordinate notations give ICCS.
func (p *Position) FormatMove(m engine.Move, n engine.Notation) string {
	var buf [16]byte
	return string(p.AppendMove(buf[:0], m, n))
}

// AppendMove appends a legal move written in notation n to dst. It
// allocates only when dst must grow. The output of each notation is
// canonical and reads back to the same move:
//
//	engine.ICCS                h2e2
//	engine.WXF                 C2.5, H8+7, C+.5, P3.4, ++.4, 3+.4
//	engine.Chinese             炮二平五, 马８进７, 前炮平五 (simplified)
//	engine.ChineseTraditional  炮二平五, 馬８進７, 前炮平五 (CCPD's glyphs)
//	engine.Vietnamese          P2-5, M8.7, Pt-5
//
// A move that does not start from a piece is written in ICCS;
// engine.NullMove is "--" in every notation.
func (p *Position) AppendMove(dst []byte, m engine.Move, n engine.Notation) []byte {
	if m == engine.NullMove {
		return append(dst, engine.NullText...)
	}
	from, to := MoveFrom(m), MoveTo(m)
	id := p.board[from]
	if !onBoard[from] || !onBoard[to] || id == empty {
		return AppendICCS(dst, m)
	}
	k, c := kindOf[id], colorOf(id)
	switch n {
	case engine.WXF:
		return p.appendWXF(dst, k, c, from, to)
	case engine.Chinese:
		return p.appendChinese(dst, k, c, from, to, false)
	case engine.ChineseTraditional:
		return p.appendChinese(dst, k, c, from, to, true)
	case engine.Vietnamese:
		return p.appendVietnamese(dst, k, c, from, to)
	}
	return AppendICCS(dst, m)
}
