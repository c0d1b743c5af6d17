package query

import (
	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/index"
)

// mirrorPly finds where a game reached the mirror image of pos.
func mirrorPly(r *index.Record, pos engine.Position) int {
	xp, ok := pos.(*xiangqi.Position)
	if !ok {
		return -1
	}
	if p, ok := index.FindPosition(r, xp.Mirror()); ok {
		return p
	}
	return -1
}
