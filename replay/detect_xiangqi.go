package replay

import (
	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/importer"
)

// detectXiangqi picks the notation of a Xiangqi record from its first
// move; when that token could be in several notations (WXF and Vietnamese
// share letters, NOTATIONS §5) the record's moves are replayed in each and
// the reading that goes furthest legally wins.
func detectXiangqi(pos engine.Position, rec *importer.Record) engine.Notation {
	xp, ok := pos.(*xiangqi.Position)
	if !ok || len(rec.Moves) == 0 {
		return engine.Auto
	}
	set := xiangqi.DetectNotation(string(rec.MoveText(0)))
	// Simplified and traditional Chinese read alike: one parser takes
	// every glyph variant.
	if set.Has(engine.Chinese) && set.Has(engine.ChineseTraditional) && set.Len() == 2 {
		return engine.Chinese
	}
	switch set.Len() {
	case 0:
		return engine.Auto
	case 1:
		return set.Notations()[0]
	}
	toks := make([]string, len(rec.Moves))
	for i := range rec.Moves {
		toks[i] = string(rec.MoveText(i))
	}
	n, err := xiangqi.ResolveNotation(xp, toks)
	if err != nil {
		return engine.Auto
	}
	return n
}
