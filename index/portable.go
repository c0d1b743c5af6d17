package index

import (
	"github.com/blevesearch/bleve/v2/document"

	"github.com/xqdb/xqdb/engine"
)

// What another backend (index/clickhouse) needs of a prepared game and of
// the record and metadata formats, so that it stores the same bytes and
// terms as Store and answers alike.

// Attrs returns the game's attributes (Hash and Players included).
func (p *Prepared) Attrs() Attrs { return p.attrs }

// Encoded returns the compact record (record.go), which DecodeRecord reads.
func (p *Prepared) Encoded() []byte { return p.bytes }

// Game says which game p is.
func (p *Prepared) Game() engine.Game { return p.rec.Game }

// EachOccurrence calls fn for every distinct position the game reached:
// its key, the first ply it was reached at and the wire code of the move
// played there (EndSlot where the game ended; occurrencesOf).
func (p *Prepared) EachOccurrence(fn func(key uint64, ply, code uint16)) {
	for _, o := range p.occ {
		fn(o.key, o.ply, o.code)
	}
}

// EachTerm calls fn for every term of the game's metadata document as
// Bleve indexes it, with the term's position in its field (0 in fields
// without term vectors): what TermSource backends store.
func (p *Prepared) EachTerm(gid uint32, fn func(field, term string, pos uint32)) {
	eachTerm(gid, p.rec, p.attrs, fn)
}

// RecordTerms is EachTerm for a stored record (its Opening filled in).
func RecordTerms(gid uint32, r *Record, a Attrs, fn func(field, term string, pos uint32)) {
	eachTerm(gid, r, a, fn)
}

func eachTerm(gid uint32, r *Record, a Attrs, fn func(field, term string, pos uint32)) {
	d := metaDoc(metaMapping(), gid, r, a, nil)
	for _, f := range d.Fields {
		tf, ok := f.(*document.TextField)
		if !ok {
			continue
		}
		tf.Analyze()
		for term, freq := range tf.AnalyzedTokenFrequencies() {
			if len(freq.Locations) == 0 {
				fn(f.Name(), term, 0)
				continue
			}
			for _, l := range freq.Locations {
				fn(f.Name(), term, uint32(l.Position))
			}
		}
	}
}

// DecodeRecord reads a compact record written by Encoded.
func DecodeRecord(gid uint32, b []byte) (*Record, error) { return decodeRecord(gid, b) }

// RecordKeys replays a stored record and returns the key of every
// position it reached (Game.Keys).
func RecordKeys(r *Record) ([]uint64, error) { return recordKeys(r) }

// DedupeKey is what a duplicate must share with a stored game under d
// (Writer.dedupeKey); SameGame then decides (for DedupeGame).
func DedupeKey(d Dedupe, a Attrs) uint64 {
	if d == DedupeMoves {
		return a.Hash
	}
	return a.Hash ^ uint64(a.Players)*0x9e3779b97f4a7c15
}

// SameGame reports whether a and b are one game under DedupeGame (the
// same result, dates that agree where known).
func SameGame(a, b Attrs) bool { return sameGame(a, b) }

// MoveStatsOf is the tree line one game adds (its result, rating, date).
func MoveStatsOf(code uint16, a Attrs) MoveStats {
	var v statsValue
	v.add(0, code, a)
	return v.Moves[0]
}
