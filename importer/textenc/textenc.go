// Package textenc detects the character encoding of game records and
// converts them to UTF-8 in a way that lets a reader map byte offsets:
// conversion runs segment by segment over spans the caller chooses, and
// double-byte characters are paired by one rule (IsLead/IsTrail) that the
// PGN lexer shares, so a span boundary never falls inside a character.
//
// Xiangqi archives come in GBK (mainland, simplified), Big5 (Taiwan,
// traditional: CCPD) and UTF-8; chess archives in UTF-8 with stray
// single-byte Latin letters (pgnmentor: cp1252 NBSP, cp437 "é", latin-1
// "ä"). NOTATIONS §3 and §10.1.
//
//	file         what
//	textenc.go   Encoding, pairing rule, conversion to UTF-8
//	detect.go    Detect: which encoding a byte string is in
//	vocab.go     the characters that tell GBK from Big5
//	tables.go    lazily built double-byte decoding tables
package textenc

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Encoding is a character encoding a record can be written in.
type Encoding uint8

const (
	// Auto, the zero value, is no encoding: readers given it detect the
	// encoding of each record (Detect); given another, they use that one.
	Auto Encoding = iota
	// UTF8 is UTF-8 (ASCII included).
	UTF8
	// GBK is GBK/GB2312, decoded as its superset GB18030.
	GBK
	// Big5 is Big5/CP950 (with the HKSCS extensions x/text knows).
	Big5
	// Windows1252 is cp1252, a superset of Latin-1's printable range.
	Windows1252
	// CP437 is the IBM PC code page some old chess databases used.
	CP437
	// UTF8Mixed is UTF-8 with a few stray bytes that are not; the strays
	// are read as Windows1252.
	UTF8Mixed
)

var names = [...]string{
	Auto: "auto", UTF8: "utf-8", GBK: "gbk", Big5: "big5", Windows1252: "windows-1252",
	CP437: "cp437", UTF8Mixed: "utf-8+windows-1252",
}

// String returns the encoding's name as Record.Encoding reports it.
func (e Encoding) String() string {
	if int(e) < len(names) {
		return names[e]
	}
	return "unknown"
}

// aliases are the names Parse accepts besides those String returns.
var aliases = map[string]Encoding{
	"utf8": UTF8, "ascii": UTF8,
	"gb2312": GBK, "gb18030": GBK, "cp936": GBK,
	"cp950": Big5, "big-5": Big5,
	"latin1": Windows1252, "latin-1": Windows1252, "iso-8859-1": Windows1252, "cp1252": Windows1252,
	"ibm437": CP437,
}

// Parse returns the encoding a user named (case-insensitive): auto,
// utf-8, gbk (gb2312, gb18030), big5, latin1 (iso-8859-1, cp1252,
// windows-1252), cp437. Latin-1 is read as cp1252, which agrees with it
// on every printable character.
func Parse(name string) (Encoding, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for e, s := range names {
		if s == n && Encoding(e) != UTF8Mixed {
			return Encoding(e), nil
		}
	}
	if e, ok := aliases[n]; ok {
		return e, nil
	}
	return Auto, fmt.Errorf("textenc: unknown encoding %q (want %s)", name, Choices)
}

// Choices lists the names Parse accepts, for help texts.
const Choices = "auto, utf-8, gbk, big5, latin1, cp1252, cp437"

// IsDBCS reports whether e is a double-byte encoding whose second bytes
// may be ASCII punctuation ("{", "}", "[", "\"): readers must pair bytes
// with IsLead/IsTrail before looking for delimiters.
func (e Encoding) IsDBCS() bool { return e == GBK || e == Big5 }

// IsLead reports whether b starts a double-byte character in GBK or Big5.
func IsLead(b byte) bool { return b >= 0x81 && b <= 0xFE }

// IsTrail reports whether b can end a double-byte character that a lead
// byte began. The range is the union of GBK's and Big5's trail bytes; a
// pair that is not a character in the chosen encoding still counts as one
// unit (it decodes to U+FFFD), so lexer and decoder agree on boundaries.
func IsTrail(b byte) bool { return b >= 0x40 && b <= 0xFE && b != 0x7F }

// AppendUTF8 appends src, decoded from e, to dst as UTF-8. src must not
// start or end inside a double-byte character (see IsLead/IsTrail).
// Undecodable bytes become U+FFFD; nothing is dropped.
func (e Encoding) AppendUTF8(dst, src []byte) []byte {
	switch e {
	case UTF8:
		return append(dst, src...)
	case GBK, Big5:
		return appendDBCS(dst, src, e)
	case Windows1252:
		return appendCharmap(dst, src, charmap.Windows1252)
	case CP437:
		return appendCharmap(dst, src, charmap.CodePage437)
	case UTF8Mixed:
		for len(src) > 0 {
			r, n := utf8.DecodeRune(src)
			if r == utf8.RuneError && n <= 1 {
				dst = utf8.AppendRune(dst, charmap.Windows1252.DecodeByte(src[0]))
				src = src[1:]
				continue
			}
			dst = append(dst, src[:n]...)
			src = src[n:]
		}
		return dst
	}
	return append(dst, src...) // Auto: as is
}

func appendCharmap(dst, src []byte, cm *charmap.Charmap) []byte {
	for _, b := range src {
		if b < utf8.RuneSelf {
			dst = append(dst, b)
			continue
		}
		dst = utf8.AppendRune(dst, cm.DecodeByte(b))
	}
	return dst
}

func appendDBCS(dst, src []byte, e Encoding) []byte {
	t := table(e)
	for i := 0; i < len(src); {
		b := src[i]
		if b < 0x80 {
			// Copy the ASCII run in one go: most of a record is ASCII.
			j := i + 1
			for j < len(src) && src[j] < 0x80 {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j
			continue
		}
		if e == GBK && i+3 < len(src) && IsLead(b) && isDigit(src[i+1]) && IsLead(src[i+2]) && isDigit(src[i+3]) {
			// GB18030 four-byte sequence: rare, decoded by x/text.
			dst = appendGB18030Four(dst, src[i:i+4])
			i += 4
			continue
		}
		if IsLead(b) && i+1 < len(src) && IsTrail(src[i+1]) {
			dst = t.append(dst, b, src[i+1])
			i += 2
			continue
		}
		dst = utf8.AppendRune(dst, utf8.RuneError)
		i++
	}
	return dst
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
