package record

import (
	"strings"
	"unicode/utf8"

	"github.com/xqdb/xqdb/engine"
)

// Detect fills r.Game, r.Variant and r.NotationHint from what the record
// itself says, strongest evidence first:
//
//  1. a Game tag ("Chinese Chess", "Chess");
//  2. a Variant tag ("xiangqi"; any other variant means chess rules of
//     some kind, kept in Variant for the caller to accept or reject);
//  3. the FEN shape: 10 ranks is Xiangqi, 8 is chess (NOTATIONS §1);
//  4. a Format tag (ICCS/WXF/Chinese are Xiangqi notations, §6);
//  5. Red/Black player tags without White (xqbase and wukong, §6);
//  6. the shapes of the main-line moves (Chinese characters, WXF, ICCS
//     with ranks 0 or 9 or file i, versus SAN);
//  7. a White tag.
//
// Anything else leaves UnknownGame.
func Detect(r *Record) {
	var gameTag, variant, fen, format string
	var hasRed, hasWhite bool
	for _, t := range r.Tags {
		switch {
		case strings.EqualFold(t.Name, "Game"):
			gameTag = t.Value
		case strings.EqualFold(t.Name, "Variant"):
			variant = t.Value
		case strings.EqualFold(t.Name, "FEN"):
			fen = t.Value
		case strings.EqualFold(t.Name, "Format"):
			format = t.Value
		case strings.EqualFold(t.Name, "Red"), strings.EqualFold(t.Name, "RedTeam"):
			hasRed = true
		case strings.EqualFold(t.Name, "White"):
			hasWhite = true
		}
	}
	r.Variant = variant
	if format != "" {
		if n, err := engine.ParseNotation(format); err == nil {
			r.NotationHint = n
		}
	}
	r.Game = detectGame(r, gameTag, variant, fen, hasRed, hasWhite)
}

func detectGame(r *Record, gameTag, variant, fen string, hasRed, hasWhite bool) engine.Game {
	if gameTag != "" {
		if strings.EqualFold(gameTag, "Chinese Chess") {
			return engine.Xiangqi // xqbase's spelling, without ParseGame's allocation
		}
		if g, err := engine.ParseGame(gameTag); err == nil {
			return g
		}
	}
	if v := strings.TrimSpace(variant); v != "" {
		if g, err := engine.ParseGame(v); err == nil && g == engine.Xiangqi {
			return engine.Xiangqi
		}
		return engine.Chess
	}
	switch FENRanks(fen) {
	case 10:
		return engine.Xiangqi
	case 8:
		return engine.Chess
	}
	if g := r.NotationHint.Game(); g != engine.UnknownGame {
		return g
	}
	if hasRed && !hasWhite {
		return engine.Xiangqi
	}
	if g := gameFromMoves(r); g != engine.UnknownGame {
		return g
	}
	if hasWhite {
		return engine.Chess
	}
	return engine.UnknownGame
}

// coordOnlyForChess is how many plain coordinate moves (a–h, ranks 1–8)
// with no Xiangqi-only square make a record chess: a Xiangqi game that
// long never touches rank 0 or 9 or file i only by freak chance.
const coordOnlyForChess = 20

func gameFromMoves(r *Record) engine.Game {
	var xq, chess, coord int
	for i := range r.Moves {
		switch MoveShape(r.MoveText(i)) {
		case ShapeXiangqi:
			xq++
		case ShapeChess:
			chess++
		case ShapeCoordinate:
			coord++
		}
		// A few agreeing spellings settle it; most records are one game
		// through and through.
		if xq >= 4 && chess == 0 || chess >= 4 && xq == 0 || xq+chess >= 16 {
			break
		}
	}
	switch {
	case xq > chess:
		return engine.Xiangqi
	case chess > xq:
		return engine.Chess
	case xq == 0 && coord >= coordOnlyForChess:
		return engine.Chess
	}
	return engine.UnknownGame
}

// Shape is what a move token's spelling says about its game.
type Shape uint8

const (
	// ShapeUnknown tells nothing.
	ShapeUnknown Shape = iota
	// ShapeXiangqi is a Xiangqi-only spelling: Chinese characters,
	// full-width WXF, WXF/Vietnamese "C2.5", ICCS touching rank 0 or 9 or
	// file i.
	ShapeXiangqi
	// ShapeChess is a chess-only spelling: SAN, castling, UCI promotion.
	ShapeChess
	// ShapeCoordinate is a coordinate move on a–h/1–8 (h2e2, e2-e4) that
	// both games can spell.
	ShapeCoordinate
)

// MoveShape classifies one move token by spelling alone.
func MoveShape(tok []byte) Shape {
	if len(tok) == 0 {
		return ShapeUnknown
	}
	if tok[0] >= utf8.RuneSelf {
		r, _ := utf8.DecodeRune(tok)
		if isXiangqiRune(r) {
			return ShapeXiangqi
		}
		return ShapeUnknown
	}
	if s := coordShape(tok); s != ShapeUnknown {
		return s
	}
	if isWXFShape(tok) {
		return ShapeXiangqi
	}
	if isSANShape(tok) {
		return ShapeChess
	}
	return ShapeUnknown
}

// isXiangqiRune reports runes that begin Chinese-notation moves (piece
// names, tandem words, NOTATIONS §3) or full-width WXF (§4: wukong writes
// "Ｃ２＝５", "＋Ｐ＋１").
func isXiangqiRune(r rune) bool {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
		return true
	case strings.ContainsRune("車车俥硨馬马傌炮砲包兵卒將将帥帅士仕象相前後后中一二三四五", r):
		return true
	}
	return false
}

func coordShape(t []byte) Shape {
	// ICCS "H2-E2" (xqbase Format ICCS) and chess long algebraic "e2-e4".
	if len(t) == 5 && t[2] == '-' {
		t = []byte{t[0], t[1], t[3], t[4]}
	}
	if len(t) != 4 && len(t) != 5 {
		return ShapeUnknown
	}
	f1, r1, f2, r2 := lower(t[0]), t[1], lower(t[2]), t[3]
	if f1 < 'a' || f1 > 'i' || f2 < 'a' || f2 > 'i' || r1 < '0' || r1 > '9' || r2 < '0' || r2 > '9' {
		return ShapeUnknown
	}
	if len(t) == 5 {
		if strings.IndexByte("qrbnQRBN", t[4]) >= 0 && f1 != 'i' && f2 != 'i' {
			return ShapeChess // UCI promotion
		}
		return ShapeUnknown
	}
	if f1 == 'i' || f2 == 'i' || r1 == '0' || r1 == '9' || r2 == '0' || r2 == '9' {
		return ShapeXiangqi
	}
	return ShapeCoordinate
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// isWXFShape matches WXF ("C2.5", "H8+7", "R1=2", "C+.5", "+C-1",
// "3+.4", "++.4") and Vietnamese ("P2-5", "M8.7", "X1/1", "Tt.1",
// "Tg5.1") moves: four or five characters ending in an operator and a
// digit (NOTATIONS §4–5). SAN never ends that way.
func isWXFShape(t []byte) bool {
	n := len(t)
	for n > 4 && (t[n-1] == '+' || t[n-1] == '#' || t[n-1] == '!' || t[n-1] == '?') {
		n-- // check marks and annotations some tools append
	}
	if n != 4 && n != 5 {
		return false
	}
	if t[n-1] < '1' || t[n-1] > '9' || strings.IndexByte(".+-=/", t[n-2]) < 0 {
		return false
	}
	isPieceOrPos := func(b byte) bool {
		return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '1' && b <= '9') || b == '+' || b == '-' || b == '.'
	}
	for i := 0; i < n-2; i++ {
		if !isPieceOrPos(t[i]) {
			return false
		}
	}
	return true
}

// isSANShape matches chess SAN loosely: castling, piece moves, pawn moves
// and captures, with optional promotion, check and annotation suffixes.
func isSANShape(t []byte) bool {
	s := string(t)
	s = strings.TrimRight(s, "+#!?")
	switch s {
	case "O-O", "O-O-O", "0-0", "0-0-0", "--":
		return true
	}
	if len(s) < 2 {
		return false
	}
	if strings.IndexByte("KQRBN", s[0]) >= 0 {
		s = s[1:]
	}
	// What remains: optional disambiguation, optional x, a square, an
	// optional promotion.
	if i := strings.IndexByte(s, '='); i >= 0 {
		s = s[:i]
	}
	if len(s) < 2 || len(s) > 5 {
		return false
	}
	sq := s[len(s)-2:]
	if sq[0] < 'a' || sq[0] > 'h' || sq[1] < '1' || sq[1] > '8' {
		return false
	}
	for i := 0; i < len(s)-2; i++ {
		c := s[i]
		if !((c >= 'a' && c <= 'h') || (c >= '1' && c <= '8') || c == 'x' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}
