package api

import "strings"

// MoveTokens reads the moves of text as pasted from a PGN: move numbers
// (1. 1... 12.e4), results, NAGs, {comments}, ;comments and (variations)
// are not moves (issue 14). The CLI's --moves and the API's moves= read
// moves this way.
func MoveTokens(text string) []string {
	var b strings.Builder
	depth, brace := 0, false
	for _, line := range strings.Split(text, "\n") {
		for _, r := range line {
			switch {
			case brace:
				brace = r != '}'
				continue
			case r == '{':
				brace = true
				continue
			case r == ';' && depth == 0:
				goto nextLine
			case r == '(':
				depth++
				continue
			case r == ')' && depth > 0:
				depth--
				continue
			case depth > 0:
				continue
			}
			b.WriteRune(r)
		}
	nextLine:
		b.WriteByte(' ')
	}
	var out []string
	for _, tok := range strings.Fields(b.String()) {
		// A move number: digits and dots (or …), maybe glued to the move.
		if i := strings.IndexFunc(tok, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && (tok[i] == '.' || strings.HasPrefix(tok[i:], "…")) {
			tok = strings.TrimLeft(tok[i:], ".…")
		}
		switch tok {
		case "", "1-0", "0-1", "1/2-1/2", "½-½", "*", "+-", "-+", "=":
			continue
		}
		if strings.HasPrefix(tok, "$") {
			continue
		}
		out = append(out, tok)
	}
	return out
}
