package textenc

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Detect says which encoding b is written in. prior breaks ties: pass the
// encoding of earlier records of the same file (UTF8 when there are none).
//
// The rules, in order:
//  1. ASCII and valid UTF-8 are UTF8.
//  2. Mostly valid UTF-8 with a few stray bytes is UTF8Mixed.
//  3. Bytes that pair up as double-byte characters, when one of the
//     readings hits Xiangqi vocabulary or common Chinese characters (see
//     vocab.go), are GBK or Big5, whichever reading hits more; with no
//     hits, byte ranges decide (GBK has trail bytes 0x80–0xA0 and lead
//     bytes below 0xA1, Big5 does not) and then prior, then GBK.
//  4. Otherwise a single-byte Latin code page: CP437 when its reading of
//     bytes 0x80–0xAF gives accented letters inside words where cp1252
//     gives punctuation ("Andr\x82" is "André"), else Windows1252, which
//     also reads Latin-1 text right ("W\xe4lbers").
func Detect(b []byte, prior Encoding) Encoding {
	if isASCII(b) || utf8.Valid(b) {
		return UTF8
	}
	var validSeqs, invalid int
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			invalid++
			i++
			continue
		}
		validSeqs++
		i += n
	}
	if validSeqs > 0 && validSeqs >= 2*invalid {
		return UTF8Mixed
	}
	if e, ok := detectDBCS(b, prior); ok {
		return e
	}
	return detectLatin(b)
}

// ValidUTF8Prefix reports whether b is valid UTF-8 except for an
// incomplete character cut off at its end (b is a buffer's prefix).
func ValidUTF8Prefix(b []byte) bool {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		if b[i] >= 0xC0 { // start of the last multi-byte character
			if !utf8.FullRune(b[i:]) {
				b = b[:i]
			}
			break
		}
		if b[i] < 0x80 {
			break
		}
	}
	return utf8.Valid(b)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// dbcsStats counts what tells GBK from Big5 in the bytes alone.
type dbcsStats struct {
	pairs, lone      int
	gbkOnly          int // pairs Big5 cannot have (lead < 0xA1 or trail 0x80–0xA0)
	lowTrail         int // trails 0x40–0x7E: common in Big5, rare in GB2312 text
	gbkHits, big5Hit int // decoded characters found in vocab
}

func detectDBCS(b []byte, prior Encoding) (Encoding, bool) {
	var s dbcsStats
	gt, bt := table(GBK), table(Big5)
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c < 0x80 {
			continue
		}
		if !IsLead(c) || i+1 >= len(b) || !IsTrail(b[i+1]) {
			s.lone++
			continue
		}
		t := b[i+1]
		i++
		s.pairs++
		if c < 0xA1 || (t >= 0x80 && t <= 0xA0) {
			s.gbkOnly++
		}
		if t < 0x80 {
			s.lowTrail++
		}
		k := int(c-0x81)*191 + int(t-0x40)
		if _, ok := vocabSet[gt.runes[k]]; ok {
			s.gbkHits++
		}
		if _, ok := vocabSet[bt.runes[k]]; ok {
			s.big5Hit++
		}
	}
	// Mostly pairs, and either vocabulary evidence or enough pairs that a
	// single Latin byte followed by a letter cannot explain them.
	if s.pairs == 0 || s.lone*4 > s.pairs {
		return 0, false
	}
	if s.gbkHits == 0 && s.big5Hit == 0 && s.pairs < 4 && !prior.IsDBCS() {
		return 0, false // a few pairs in a Latin file: "W\xe4lbers"
	}
	switch {
	case s.gbkHits > s.big5Hit:
		return GBK, true
	case s.big5Hit > s.gbkHits:
		return Big5, true
	case s.gbkOnly > 0:
		return GBK, true
	case s.lowTrail*5 > s.pairs:
		return Big5, true
	case prior == Big5:
		return Big5, true
	}
	return GBK, true
}

func detectLatin(b []byte) Encoding {
	var votes437, votes1252 int
	for i, c := range b {
		if c < 0x80 {
			continue
		}
		inWord := (i > 0 && isASCIILetter(b[i-1])) || (i+1 < len(b) && isASCIILetter(b[i+1]))
		r437 := charmap.CodePage437.DecodeByte(c)
		r1252 := charmap.Windows1252.DecodeByte(c)
		l437 := unicode.Is(unicode.Latin, r437)
		l1252 := unicode.Is(unicode.Latin, r1252)
		switch {
		case c < 0xA0 && l437 && !l1252 && inWord:
			// cp1252's 0x80–0x9F are punctuation (or unassigned); a
			// word-internal byte there is a cp437 letter.
			votes437++
		case l1252:
			votes1252++
		}
	}
	if votes437 > votes1252 {
		return CP437
	}
	return Windows1252
}

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
