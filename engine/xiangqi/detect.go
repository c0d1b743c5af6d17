package xiangqi

import (
	"fmt"
	"strings"

	"github.com/xqdb/xqdb/engine"
)

// NotationSet is a set of move notations, one bit per engine.Notation.
type NotationSet uint16

// NotationSetOf returns the set holding ns.
func NotationSetOf(ns ...engine.Notation) NotationSet {
	var s NotationSet
	for _, n := range ns {
		s |= 1 << n
	}
	return s
}

// Has reports whether n is in the set.
func (s NotationSet) Has(n engine.Notation) bool { return s&(1<<n) != 0 }

// Len returns the number of notations in the set.
func (s NotationSet) Len() int {
	n := 0
	for ; s != 0; s &= s - 1 {
		n++
	}
	return n
}

// Notations lists the set's members in engine.Notation order.
func (s NotationSet) Notations() []engine.Notation {
	var out []engine.Notation
	for n := engine.Notation(0); n < 16; n++ {
		if s.Has(n) {
			out = append(out, n)
		}
	}
	return out
}

// String joins the members' names with '|', or "none".
func (s NotationSet) String() string {
	if s == 0 {
		return "none"
	}
	var names []string
	for _, n := range s.Notations() {
		names = append(names, n.String())
	}
	return strings.Join(names, "|")
}

// chineseSet holds both scripts: they are read alike.
var chineseSet = NotationSetOf(engine.Chinese, engine.ChineseTraditional)

// DetectNotation tells which notations tok could be written in, from its
// shape alone:
//
//   - ICCS for coordinates (h2e2, H2-E2); nothing else looks like them.
//   - Chinese by its glyphs: engine.Chinese when a glyph is simplified-only
//     (帅将马车进后), engine.ChineseTraditional when traditional-only
//     (帥將馬傌車俥硨進後), both when the glyphs are common to the two
//     (炮二平五).
//   - WXF and Vietnamese by their grammars. They share letters (P, C, B) and
//     signs ('.', '-'), so a token like P2-5 is in both (NOTATIONS §5);
//     K A E H R N or '+' '=' mean WXF, Tg S T V X M or '/' Vietnamese.
//
// The empty set means the token is no Xiangqi move at all.
func DetectNotation(tok string) NotationSet {
	s, latin := foldASCII(tok)
	if !latin {
		_, style, ok := parseChineseSpec(tok)
		switch {
		case !ok:
			return 0
		case style == styleSimplified:
			return NotationSetOf(engine.Chinese)
		case style == styleTraditional:
			return NotationSetOf(engine.ChineseTraditional)
		}
		return chineseSet // no telling glyph, or both scripts mixed
	}
	if _, ok := iccsSpec(s); ok {
		return NotationSetOf(engine.ICCS)
	}
	var set NotationSet
	if _, ok := parseWXFSpec(s); ok {
		set |= NotationSetOf(engine.WXF)
	}
	if _, ok := parseVietnameseSpec(s); ok {
		set |= NotationSetOf(engine.Vietnamese)
	}
	return set
}

// ResolveNotation picks the notation of a game from its first move tokens,
// replayed from p (which is left unchanged).
//
// The rule (NOTATIONS §5, "try both and keep the parse that replays
// legally"): every notation any token could be in (DetectNotation) is
// replayed over the tokens, and the one that replays the longest legal
// prefix wins. A tie between readings that give different moves is
// engine.ErrAmbiguousMove; a tie between readings that give the same moves
// goes to the first of ICCS, Chinese, WXF, Vietnamese. Chinese comes back
// as engine.ChineseTraditional when the tokens use traditional-only glyphs
// and none simplified-only, else engine.Chinese. When no notation reads
// even the first token the error says why in the terms of the likeliest
// one.
//
// An explicit choice wins over this: callers that know the notation (a
// --notation flag, a PGN [Format] tag) should not call ResolveNotation.
// The winner may still fail after its legal prefix; the caller reports
// that move when it replays the game.
func ResolveNotation(p *Position, tokens []string) (engine.Notation, error) {
	if len(tokens) == 0 {
		return engine.Auto, fmt.Errorf("xiangqi: no move to tell the notation by: %w", engine.ErrBadMove)
	}
	var seen NotationSet
	var style glyphStyle
	for _, tok := range tokens {
		set := DetectNotation(tok)
		seen |= set
		if set&chineseSet != 0 {
			_, st, _ := parseChineseSpec(tok)
			style |= st
		}
	}
	chinese := engine.Chinese
	if style == styleTraditional {
		chinese = engine.ChineseTraditional
	}
	type reading struct {
		n     engine.Notation
		moves []engine.Move
		err   error
	}
	var best []reading
	bestLen := -1
	for _, n := range [...]engine.Notation{engine.ICCS, engine.Chinese, engine.WXF, engine.Vietnamese} {
		if n == engine.Chinese && seen&chineseSet == 0 || n != engine.Chinese && !seen.Has(n) {
			continue
		}
		q := p.Copy()
		r := reading{n: n}
		if n == engine.Chinese {
			r.n = chinese
		}
		for _, tok := range tokens {
			m, err := q.ParseMove(tok, n)
			if err != nil {
				r.err = err
				break
			}
			r.moves = append(r.moves, m)
			q.Make(m)
		}
		switch {
		case len(r.moves) > bestLen:
			best, bestLen = []reading{r}, len(r.moves)
		case len(r.moves) == bestLen:
			best = append(best, r)
		}
	}
	if len(best) == 0 {
		_, err := p.ParseMove(tokens[0], engine.Auto)
		if err == nil {
			err = fmt.Errorf("xiangqi: %q: not a move in any Xiangqi notation: %w", tokens[0], engine.ErrBadMove)
		}
		return engine.Auto, err
	}
	if bestLen == 0 {
		return engine.Auto, best[0].err
	}
	for _, r := range best[1:] {
		for i, m := range r.moves {
			if m != best[0].moves[i] {
				return engine.Auto, fmt.Errorf("xiangqi: moves read alike in %v and %v but name different games from ply %d (%q): %w",
					best[0].n, r.n, i+1, tokens[i], engine.ErrAmbiguousMove)
			}
		}
	}
	return best[0].n, nil
}
