package index

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	unitok "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
	"golang.org/x/text/unicode/norm"
)

// textAnalyzer analyses the metadata's text (names, events, sites): words
// split as Unicode says (a Chinese name into its characters), then folded
// by foldTerm, so that what users type matches however the archive wrote
// it. Unlike Bleve's standard analyzer it drops no stop words: "An" is a
// Vietnamese name, not an English article.
const textAnalyzer = "xqdb_text"

func init() {
	err := registry.RegisterAnalyzer(textAnalyzer, func(_ map[string]interface{}, c *registry.Cache) (analysis.Analyzer, error) {
		tok, err := c.TokenizerNamed(unitok.Name)
		if err != nil {
			return nil, err
		}
		return &analysis.DefaultAnalyzer{Tokenizer: tok, TokenFilters: []analysis.TokenFilter{foldFilter{}}}, nil
	})
	if err != nil {
		panic(err)
	}
}

type foldFilter struct{}

func (foldFilter) Filter(ts analysis.TokenStream) analysis.TokenStream {
	for _, t := range ts {
		t.Term = foldTerm(t.Term)
	}
	return ts
}

// foldTerm returns the search form of a word: lower case; Latin letters
// without their marks (Lê → le, Lü → lu, Nguyễn → nguyen, đ → d), as
// users type names on a keyboard without them; Chinese characters in their
// simplified form (呂欽 → 吕钦), as CCPD writes names in traditional
// characters and most users type simplified ones. ASCII is lowered in
// place; other words are rewritten into a new slice.
func foldTerm(term []byte) []byte {
	ascii := true
	for i, c := range term {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if 'A' <= c && c <= 'Z' {
			term[i] = c + 'a' - 'A'
		}
	}
	if ascii {
		return term
	}
	out := make([]byte, 0, len(term))
	for _, r := range string(term) {
		if r = foldRune(r); r >= 0 {
			out = utf8.AppendRune(out, r)
		}
	}
	return out
}

// Fold is foldTerm on a string: the form a word of the metadata is
// indexed under.
func Fold(s string) string { return string(foldTerm([]byte(s))) }

// foldRune folds one character; -1 drops it (a combining mark).
func foldRune(r rune) rune {
	switch {
	case r < utf8.RuneSelf:
		return unicode.ToLower(r)
	case unicode.Is(unicode.Mn, r):
		return -1
	case r >= 0x3400: // CJK and beyond: no case, no marks
		if s, ok := t2s[r]; ok {
			return s
		}
		return r
	}
	switch r {
	case 'đ', 'Đ': // Vietnamese d with stroke: no decomposition
		return 'd'
	case 'ł', 'Ł':
		return 'l'
	case 'ø', 'Ø':
		return 'o'
	case 'ı':
		return 'i'
	}
	r = unicode.ToLower(r)
	var buf [utf8.UTFMax]byte
	d := norm.NFD.Properties(buf[:utf8.EncodeRune(buf[:], r)]).Decomposition()
	if len(d) == 0 {
		return r
	}
	// Keep the base letter when the rest are marks (ü = u + ¨, ữ = u + horn
	// + tilde); a decomposition into other letters (Hangul) stays whole.
	base, n := utf8.DecodeRune(d)
	for _, m := range string(d[n:]) {
		if !unicode.Is(unicode.Mn, m) {
			return r
		}
	}
	return base
}

// t2s maps traditional Chinese characters to simplified ones (OpenCC's
// character table, t2s_table.go).
var t2s = func() map[rune]rune {
	m := make(map[rune]rune, len(t2sPairs)/6)
	for s := t2sPairs; s != ""; {
		t, n := utf8.DecodeRuneInString(s)
		simp, k := utf8.DecodeRuneInString(s[n:])
		m[t] = simp
		s = s[n+k:]
	}
	return m
}()
