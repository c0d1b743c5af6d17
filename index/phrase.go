package index

import (
	"slices"

	"github.com/blevesearch/bleve/v2/analysis"
)

// Phrases on players' names (white:"Lü Qin") match the names that hold
// the phrase's words in its order: Bleve keeps a value's words without
// their positions, finds the values holding every word of the phrase, and
// valueTerms.Positions reads the words' positions from the value itself,
// analysed as it was indexed (metaFields), so that the answer is the one
// a TermSource backend gives from its own positions (termEval.phrase).

// phraseAt reports whether the terms at positions pos (a field's, by
// term) hold toks at the same distances as in toks.
func phraseAt(pos map[string][]uint32, toks analysis.TokenStream) bool {
	for _, start := range pos[string(toks[0].Term)] {
		ok := true
		for i := 1; i < len(toks) && ok; i++ {
			want := int(start) + toks[i].Position - toks[0].Position
			ok = want >= 0 && slices.Contains(pos[string(toks[i].Term)], uint32(want))
		}
		if ok {
			return true
		}
	}
	return false
}
