package record

import "strings"

// FENRanks returns the number of ranks in the board field of a FEN: 10 for
// Xiangqi, 8 for chess (NOTATIONS §1), whatever else a broken FEN has.
func FENRanks(fen string) int {
	fen = strings.TrimSpace(fen)
	if i := strings.IndexByte(fen, ' '); i >= 0 {
		fen = fen[:i]
	}
	if fen == "" {
		return 0
	}
	return strings.Count(fen, "/") + 1
}

// NormalizeXiangqiFEN rewrites a Xiangqi FEN in the xqbase convention that
// UCCI engines and the replay package expect (NOTATIONS §1): elephant and
// horse as B/N (E/H accepted on input), side "w" or "b" ("r" is Red), and
// all six fields ("- - 0 1" added when the tail is missing). It changes
// nothing else: a wrong board stays wrong for replay to report.
func NormalizeXiangqiFEN(fen string) string {
	if isNormalXiangqiFEN(fen) {
		return fen // the common case (every CCPD record): no allocation
	}
	fields := strings.Fields(fen)
	if len(fields) == 0 {
		return ""
	}
	board := strings.Map(func(r rune) rune {
		switch r {
		case 'E':
			return 'B'
		case 'e':
			return 'b'
		case 'H':
			return 'N'
		case 'h':
			return 'n'
		}
		return r
	}, fields[0])
	side := "w"
	if len(fields) > 1 {
		switch strings.ToLower(fields[1]) {
		case "b":
			side = "b"
		}
	}
	out := []string{board, side, "-", "-", "0", "1"}
	// Keep the clocks when both are numbers; the castling and en-passant
	// fields are always "-" in Xiangqi.
	if len(fields) >= 6 && isDigits(fields[4]) && isDigits(fields[5]) {
		out[4], out[5] = fields[4], fields[5]
	}
	return strings.Join(out, " ")
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isNormalXiangqiFEN reports whether fen already has the form
// NormalizeXiangqiFEN produces: "<board> w|b - - <n> <n>", single spaces,
// no E/H letters.
func isNormalXiangqiFEN(fen string) bool {
	board, rest, ok := strings.Cut(fen, " ")
	if !ok || strings.ContainsAny(board, "EeHh") {
		return false
	}
	side, rest, ok := strings.Cut(rest, " ")
	if !ok || side != "w" && side != "b" {
		return false
	}
	tail, ok := strings.CutPrefix(rest, "- - ")
	if !ok {
		return false
	}
	half, full, ok := strings.Cut(tail, " ")
	return ok && isDigits(half) && isDigits(full)
}
