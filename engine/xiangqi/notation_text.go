package xiangqi

// Token text handling shared by the parsers. Parsers are generic over
// string and []byte so that ParseMove and ParseMoveBytes share one body and
// neither converts (and so allocates) on the success path.

// text is a move token as a string or as bytes.
type text interface{ ~string | ~[]byte }

// maxSymbols bounds a token of the Latin notations after normalisation;
// longer tokens are not moves.
const maxSymbols = 8

// nextRune decodes the UTF-8 rune starting at s[i]. Malformed input gives
// (0xFFFD, 1) so that callers always advance.
func nextRune[T text](s T, i int) (rune, int) {
	const bad = '\uFFFD'
	b0 := s[i]
	if b0 < 0x80 {
		return rune(b0), 1
	}
	switch {
	case b0 >= 0xC2 && b0 <= 0xDF:
		if c1, ok := cont(s, i+1); ok {
			return rune(b0&0x1F)<<6 | c1, 2
		}
	case b0 >= 0xE0 && b0 <= 0xEF:
		c1, ok1 := cont(s, i+1)
		c2, ok2 := cont(s, i+2)
		if ok1 && ok2 {
			r := rune(b0&0x0F)<<12 | c1<<6 | c2
			if r >= 0x800 && (r < 0xD800 || r > 0xDFFF) {
				return r, 3
			}
		}
	case b0 >= 0xF0 && b0 <= 0xF4:
		c1, ok1 := cont(s, i+1)
		c2, ok2 := cont(s, i+2)
		c3, ok3 := cont(s, i+3)
		if ok1 && ok2 && ok3 {
			r := rune(b0&0x07)<<18 | c1<<12 | c2<<6 | c3
			if r >= 0x10000 && r <= 0x10FFFF {
				return r, 4
			}
		}
	}
	return bad, 1
}

// cont reads a UTF-8 continuation byte's six payload bits.
func cont[T text](s T, j int) (rune, bool) {
	if j >= len(s) || s[j]&0xC0 != 0x80 {
		return 0, false
	}
	return rune(s[j] & 0x3F), true
}

// isSpace reports the blanks a token may carry at its ends, including the
// ideographic space of Chinese text.
func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == '\u3000' || r == '\u00A0'
}

// toASCII folds one rune of a Latin-notation token to ASCII: full-width
// forms U+FF01–FF5E (Ｃ２＝５, ＋Ｐ＋１ in wukong's WXF files, NOTATIONS
// §4 and §10.1) and the minus sign and dashes that word processors put for
// '-'. It returns 0 for anything else outside ASCII.
func toASCII(r rune) byte {
	switch {
	case r < 0x80:
		return byte(r)
	case r >= 0xFF01 && r <= 0xFF5E:
		return byte(r - 0xFEE0)
	case r == '\u2212' || r == '\u2013' || r == '\u2014' || r == '\u2010' || r == '\u2011':
		return '-'
	}
	return 0
}

// symbols is a Latin-notation token folded to ASCII.
type symbols struct {
	b [maxSymbols]byte
	n int
}

// foldASCII folds tok to ASCII symbols, dropping blanks at either end. ok
// is false when the token is empty, too long or holds a character that has
// no ASCII form (a Chinese glyph, say).
func foldASCII[T text](tok T) (s symbols, ok bool) {
	start, end := trimBounds(tok)
	for i := start; i < end; {
		r, size := nextRune(tok, i)
		i += size
		c := toASCII(r)
		if c == 0 || c == ' ' || s.n == maxSymbols {
			return s, false
		}
		s.b[s.n] = c
		s.n++
	}
	return s, s.n > 0
}

// trimBounds returns the byte range of tok without blanks at either end.
func trimBounds[T text](tok T) (start, end int) {
	end = len(tok)
	for start < end {
		r, size := nextRune(tok, start)
		if !isSpace(r) {
			break
		}
		start += size
	}
	for end > start {
		// Step back over one rune: find its first byte.
		j := end - 1
		for j > start && tok[j]&0xC0 == 0x80 {
			j--
		}
		r, _ := nextRune(tok, j)
		if !isSpace(r) {
			break
		}
		end = j
	}
	return start, end
}

// digit19 reads an ASCII digit 1–9, or returns 0.
func digit19(c byte) int8 {
	if c >= '1' && c <= '9' {
		return int8(c - '0')
	}
	return 0
}

// upper folds an ASCII letter to upper case.
func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
