package engine

import (
	"fmt"
	"strings"
)

// Notation is a way of writing moves. Which ones apply depends on the game.
type Notation uint8

const (
	// Auto asks the parser to recognise the notation of a token.
	Auto Notation = iota
	// ICCS is Xiangqi coordinate notation: h2e2 (also H2-E2).
	ICCS
	// WXF is the World Xiangqi Federation notation: C2.5, H8+7, +C-1.
	WXF
	// Chinese is Chinese notation in simplified characters: 炮二平五.
	Chinese
	// ChineseTraditional is Chinese notation in traditional characters: 炮二平五, 馬８進７.
	ChineseTraditional
	// Vietnamese is Vietnamese notation: P2-5, M8.7, X1/1, Tt.1.
	Vietnamese
	// SAN is chess Standard Algebraic Notation: Nf3, exd6, O-O, e8=Q.
	SAN
	// UCI is chess coordinate notation: g1f3, e7e8q.
	UCI
)

var notationNames = [...]string{
	Auto: "auto", ICCS: "iccs", WXF: "wxf", Chinese: "chinese",
	ChineseTraditional: "chinese-traditional", Vietnamese: "vietnamese",
	SAN: "san", UCI: "uci",
}

// String returns the name used by --notation.
func (n Notation) String() string {
	if int(n) < len(notationNames) {
		return notationNames[n]
	}
	return fmt.Sprintf("notation(%d)", n)
}

// ParseNotation reads a --notation value.
func ParseNotation(s string) (Notation, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Auto, nil
	case "iccs", "ucci":
		return ICCS, nil
	case "wxf", "axf":
		return WXF, nil
	case "chinese", "cn", "zh", "zh-hans", "simplified":
		return Chinese, nil
	case "chinese-traditional", "traditional", "zh-hant", "big5":
		return ChineseTraditional, nil
	case "vietnamese", "vn", "vi":
		return Vietnamese, nil
	case "san":
		return SAN, nil
	case "uci", "lan":
		return UCI, nil
	}
	return Auto, fmt.Errorf("engine: unknown notation %q", s)
}

// Games reports which game a notation belongs to (UnknownGame for Auto).
func (n Notation) Game() Game {
	switch n {
	case ICCS, WXF, Chinese, ChineseTraditional, Vietnamese:
		return Xiangqi
	case SAN, UCI:
		return Chess
	}
	return UnknownGame
}

// Coordinate returns the machine notation of a game: ICCS or UCI.
func Coordinate(g Game) Notation {
	if g == Chess {
		return UCI
	}
	return ICCS
}

// Display returns the notation a game's moves are shown in by default.
func Display(g Game) Notation {
	if g == Chess {
		return SAN
	}
	return WXF
}
