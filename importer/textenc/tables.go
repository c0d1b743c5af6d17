package textenc

import (
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// dbcsTable maps every lead/trail pair to its UTF-8 text. Building it once
// from x/text (about 48,000 pairs, a few milliseconds) gives a decoder
// that runs segment by segment without per-call transformer set-up.
type dbcsTable struct {
	runes [126 * 191]rune // RuneError when the pair is not a character
	multi map[uint16]string
}

func (t *dbcsTable) append(dst []byte, lead, trail byte) []byte {
	r := t.runes[int(lead-0x81)*191+int(trail-0x40)]
	if r == multiRune {
		return append(dst, t.multi[uint16(lead)<<8|uint16(trail)]...)
	}
	return utf8.AppendRune(dst, r)
}

// multiRune marks pairs that decode to more than one rune (a few HKSCS
// Big5 codes decode to a letter plus a combining mark).
const multiRune = -1

var (
	tablesOnce sync.Once
	gbkTable   *dbcsTable
	big5Table  *dbcsTable
)

func table(e Encoding) *dbcsTable {
	tablesOnce.Do(func() {
		gbkTable = buildTable(simplifiedchinese.GB18030)
		big5Table = buildTable(traditionalchinese.Big5)
	})
	if e == Big5 {
		return big5Table
	}
	return gbkTable
}

func buildTable(enc encoding.Encoding) *dbcsTable {
	t := &dbcsTable{multi: map[uint16]string{}}
	dec := enc.NewDecoder()
	var in [2]byte
	for lead := 0x81; lead <= 0xFE; lead++ {
		for trail := 0x40; trail <= 0xFE; trail++ {
			i := (lead-0x81)*191 + (trail - 0x40)
			if trail == 0x7F {
				t.runes[i] = utf8.RuneError
				continue
			}
			in[0], in[1] = byte(lead), byte(trail)
			out, err := dec.Bytes(in[:])
			r, n := utf8.DecodeRune(out)
			switch {
			case err != nil || len(out) == 0 || r == utf8.RuneError:
				t.runes[i] = utf8.RuneError
			case n == len(out):
				t.runes[i] = r
			default:
				// A lone lead byte followed by an ASCII byte decodes to
				// U+FFFD plus that byte; anything else is a true
				// multi-rune character.
				if r2, _ := utf8.DecodeRune(out[n:]); r2 < utf8.RuneSelf {
					t.runes[i] = utf8.RuneError
				} else {
					t.runes[i] = multiRune
					t.multi[uint16(lead)<<8|uint16(trail)] = string(out)
				}
			}
		}
	}
	return t
}

var gb18030Four = struct {
	sync.Mutex
	dec *encoding.Decoder
}{dec: simplifiedchinese.GB18030.NewDecoder()}

func appendGB18030Four(dst, src []byte) []byte {
	gb18030Four.Lock()
	out, err := gb18030Four.dec.Bytes(src)
	gb18030Four.Unlock()
	if err != nil || len(out) == 0 {
		return utf8.AppendRune(dst, utf8.RuneError)
	}
	return append(dst, out...)
}
