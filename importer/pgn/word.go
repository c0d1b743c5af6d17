package pgn

import (
	"bytes"
	"unicode/utf8"

	"github.com/xqdb/xqdb/importer/record"
)

// delim marks the bytes that end a movetext word (PGN's self-delimiting
// characters and white space; NUL because Stein.pgn ends with NULs; '<',
// reserved by PGN, because games pasted from web pages carry "<br />").
var delim = func() (t [256]bool) {
	for _, c := range []byte(" \t\r\n\f\v\x00{}()[];<") {
		t[c] = true
	}
	return t
}()

// classifyWord says what a movetext word is. For a move number glued to a
// move ("1.e4", "12...Nf6", "1.炮二平五") it returns MoveNumber and the
// length of the number part; the caller lexes the rest as a new word.
//
// A digit-led word is a move number only when its dots are followed by a
// non-digit: "33.4" is a WXF move (tandem pawns, NOTATIONS §4), not move
// 33 and a move "4".
func classifyWord(w []byte) (k record.Kind, n int) {
	switch c := w[0]; {
	case c == '$':
		// "$18." (chess_db-pgn's russian_chess): a NAG with a stray dot.
		if d := bytes.TrimRight(w[1:], "."); len(d) > 0 && allDigits(d) {
			return record.NAG, len(w)
		}
	case c == '!' || c == '?':
		if allIn(w, "!?") {
			return record.NAG, len(w)
		}
	case c == '*':
		if len(w) == 1 {
			return record.Result, 1
		}
	case c == '.':
		// "..." alone, or glued to Black's move ("...Kf3", chess_db-pgn's
		// chessdoctor and great_masters): the dots are a move number.
		i := 1
		for i < len(w) && w[i] == '.' {
			i++
		}
		return record.MoveNumber, i
	case c == '+' || c == '#':
		// A check mark standing apart from its move (chess_db-pgn's
		// russian_chess): an annotation, not a move.
		if allIn(w, "+#") {
			return record.NAG, len(w)
		}
	case c >= '0' && c <= '9':
		if resultText(w) != "" {
			return record.Result, len(w)
		}
		i := 1
		for i < len(w) && w[i] >= '0' && w[i] <= '9' {
			i++
		}
		if i == len(w) {
			if i == 4 && string(w) == "0000" {
				return record.Move, 4 // UCI's null move, not move 0
			}
			return record.MoveNumber, i
		}
		j := i
		for j < len(w) && w[j] == '.' {
			j++
		}
		// "5.e4", "5.", and "5.0-0" (castling with zeros glued to its
		// number); "33.4" is a WXF move, not a number.
		if j > i && (j == len(w) || w[j] < '0' || w[j] > '9' || bytes.HasPrefix(w[j:], []byte("0-0"))) {
			return record.MoveNumber, j
		}
	case c >= 0x80:
		if resultText(w) != "" {
			return record.Result, len(w)
		}
	}
	return record.Move, len(w)
}

// resultText returns the standard spelling of a game termination marker,
// "" when w is none.
func resultText(w []byte) string {
	switch string(w) {
	case "1-0":
		return "1-0"
	case "0-1":
		return "0-1"
	case "1/2-1/2", "½-½", "1/2":
		return "1/2-1/2"
	case "*":
		return "*"
	// Chinese move lists end with the result in words (walker8088's
	// test1_move.txt: 红胜).
	case "红胜", "紅勝", "红先胜", "紅先勝":
		return "1-0"
	case "黑胜", "黑勝", "红负", "紅負", "红先负", "紅先負":
		return "0-1"
	case "和棋", "和局", "红和", "紅和", "红先和", "紅先和":
		return "1/2-1/2"
	}
	return ""
}

// moveNumber returns the number of a MoveNumber word ("12." → 12, "..." → 0).
func moveNumber(w []byte) int {
	n := 0
	for _, c := range w {
		if c < '0' || c > '9' || n > 1e6 {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// startsGame reports whether a word outside any record looks like the
// start of header-less movetext ("1.e4", "e4", "h2e2", "炮二平五") rather
// than stray text such as the xqbase advert after a result
// ("====", "欢迎访问《象棋百科全书网》"). Chinese words must be whole
// moves: four characters with a direction (進/进/退/平) third.
func startsGame(w []byte) bool {
	if k, _ := classifyWord(w); k == record.MoveNumber {
		return len(w) > 0 && w[0] >= '0' && w[0] <= '9'
	}
	if w[0] < utf8.RuneSelf {
		s := record.MoveShape(w)
		return s == record.ShapeChess || s == record.ShapeXiangqi || s == record.ShapeCoordinate
	}
	// Annotation marks after a Chinese move: 炮一进六！！, 马２进３？
	for len(w) >= 3 {
		r, size := utf8.DecodeLastRune(w)
		if r != '！' && r != '？' && r != '!' && r != '?' {
			break
		}
		w = w[:len(w)-size]
	}
	var runes [5]rune
	n := 0
	for len(w) > 0 && n < len(runes) {
		r, size := utf8.DecodeRune(w)
		runes[n] = r
		n++
		w = w[size:]
	}
	if len(w) > 0 || n != 4 {
		return false
	}
	if runes[0] >= 0xFF01 && runes[0] <= 0xFF5E {
		return true // full-width WXF: "Ｃ２＝５", "＋Ｐ＋１"
	}
	switch runes[2] {
	case '進', '进', '退', '平':
		return record.MoveShape([]byte(string(runes[0]))) == record.ShapeXiangqi
	}
	return false
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

func allIn(b []byte, set string) bool {
	for _, c := range b {
		ok := false
		for i := 0; i < len(set); i++ {
			if c == set[i] {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// htmlTagLen returns the length of an HTML tag such as "<br />" or "</p>"
// at the start of b, 0 when b does not start with one. PGN copied from web
// pages (chess.js 0.pgn, pgn-read Little_*.pgn) has them between tags and
// moves; they read as blanks.
func htmlTagLen(b []byte) int {
	i := 1
	if i < len(b) && b[i] == '/' {
		i++
	}
	if i >= len(b) || (b[i]|0x20) < 'a' || (b[i]|0x20) > 'z' {
		return 0
	}
	for ; i < len(b) && i < 256; i++ {
		switch b[i] {
		case '>':
			return i + 1
		case '<', '\n', '{', '}', '[', ']':
			return 0
		}
	}
	return 0
}

// gluedResult splits a result glued to the move before it ("Rxg20-1",
// chess_db-pgn's scarborough_2001) into the move's length and the result;
// ok is false when w is no such word. Only chess results are split, and
// only after something that can end a move (a rank digit, a piece letter
// or a promotion), so castling with zeros ("0-0-0") stays whole.
func gluedResult(w []byte) (move int, ok bool) {
	// Every result ends in "-0", "-1" or "-2" (1/2-1/2): most words are
	// ruled out by that alone.
	if len(w) < 5 || w[len(w)-2] != '-' {
		return 0, false
	}
	for _, r := range [...]string{"1/2-1/2", "1-0", "0-1"} {
		n := len(w) - len(r)
		if n < 2 || !bytes.HasSuffix(w, []byte(r)) {
			continue
		}
		if c := w[n-1]; c >= '1' && c <= '8' || c == 'Q' || c == 'R' || c == 'B' || c == 'N' || c == '+' || c == '#' {
			return n, true
		}
	}
	return 0, false
}
