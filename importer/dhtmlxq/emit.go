package dhtmlxq

import (
	"fmt"

	"github.com/xqdb/xqdb/importer/internal/board"
	"github.com/xqdb/xqdb/importer/record"
)

// branch is one move list: the main line (id 0, plies from 1) or
// move_A_B_C, branch C replacing ply B of branch A (NOTATIONS §8).
type branch struct {
	id, parent, ply int
	moves           []move
}

// firstMove returns the game's first move: the main line's, or that of a
// branch hanging at ply 1 of an empty main line.
func (p *parser) firstMove() *move {
	if len(p.branches[0].moves) > 0 {
		return &p.branches[0].moves[0]
	}
	for i := range p.branches[1:] {
		br := &p.branches[i+1]
		if br.parent == 0 && br.ply == 1 && len(br.moves) > 0 {
			return &br.moves[0]
		}
	}
	return nil
}

// emitter writes the branches as movetext, PGN style: after each move its
// comment, then every branch replacing it as a variation.
type emitter struct {
	p        *parser
	r        *Reader
	rec      *record.Record
	comments map[[2]int]field
	alts     map[[2]int][]int // (branch index, ply) → branches replacing that ply
	done     []bool
}

func (p *parser) emit(r *Reader, rec *record.Record, comments map[[2]int]field) {
	e := emitter{p: p, r: r, rec: rec, comments: comments,
		alts: map[[2]int][]int{}, done: make([]bool, len(p.branches))}
	index := make(map[int]int, len(p.branches))
	for i, br := range p.branches {
		if _, dup := index[br.id]; dup {
			p.fail(fmt.Errorf("dhtmlxq: %w: branch %d defined twice", record.ErrBadValue, br.id))
			continue
		}
		index[br.id] = i
	}
	for i, br := range p.branches[1:] {
		pi, ok := index[br.parent]
		if !ok || br.ply < p.branches[pi].ply {
			p.fail(fmt.Errorf("dhtmlxq: %w: branch %d replaces ply %d of unknown branch %d", record.ErrBadValue, br.id, br.ply, br.parent))
			continue
		}
		k := [2]int{pi, br.ply}
		e.alts[k] = append(e.alts[k], i+1)
	}
	e.comment(0, 0, 0)
	e.branch(0, 0, nil)
	for i, d := range e.done {
		if !d && len(p.branches[i].moves) > 0 {
			p.fail(fmt.Errorf("dhtmlxq: %w: branch %d attaches to no move", record.ErrBadValue, p.branches[i].id))
			break
		}
	}
}

// branch emits branch bi at the given depth; extra are branches that
// replace its first move too (when it continues a line).
func (e *emitter) branch(bi, depth int, extra []int) {
	for !e.done[bi] {
		e.done[bi] = true
		br := &e.p.branches[bi]
		for i := range br.moves {
			ply := br.ply + i
			e.move(&br.moves[i], depth)
			e.comment(br.id, ply, depth)
			// Branches replacing this move follow it as variations. For
			// a branch's first move they are alternatives at the
			// parent's level too; placed inside this variation right
			// after the move they replace, PGN reads them the same way.
			alts := e.alts[[2]int{bi, ply}]
			if i == 0 && len(extra) > 0 {
				alts = append(alts[:len(alts):len(alts)], extra...)
			}
			e.variations(alts, depth)
		}
		// A branch at the ply after the last move continues the line (a
		// loop, not recursion: such chains can be long).
		cont := e.alts[[2]int{bi, br.ply + len(br.moves)}]
		if len(cont) == 0 {
			return
		}
		bi, extra = cont[0], cont[1:]
	}
}

func (e *emitter) variations(alts []int, depth int) {
	for _, ci := range alts {
		if e.done[ci] {
			continue
		}
		if depth+1 > record.MaxDepth {
			e.p.fail(fmt.Errorf("dhtmlxq: %w (more than %d)", record.ErrTooDeep, record.MaxDepth))
			return
		}
		at := int64(0)
		if len(e.p.branches[ci].moves) > 0 {
			at = int64(e.p.branches[ci].moves[0].off)
		}
		e.add(record.VariationStart, depth+1, at, 0, "(")
		e.branch(ci, depth+1, nil)
		e.add(record.VariationEnd, depth+1, at, 0, ")")
	}
}

func (e *emitter) move(m *move, depth int) {
	p := e.p
	start := len(p.text)
	p.text = board.AppendICCS(p.text, int(m.f1), int(m.r1), int(m.f2), int(m.r2))
	t := record.Token{Kind: record.Move, Depth: uint16(depth), Start: int32(start), End: int32(len(p.text)),
		Line: int32(m.line), Offset: int64(m.off)}
	e.rec.Elements = append(e.rec.Elements, t)
	if depth == 0 {
		e.rec.Moves = append(e.rec.Moves, t)
	}
	p.text = append(p.text, ' ')
}

// comment emits the comment after ply of branch id, if there is one.
func (e *emitter) comment(id, ply, depth int) {
	f, ok := e.comments[[2]int{id, ply}]
	if !ok {
		return
	}
	v := e.r.decode(e.r.data[f.val0:f.val1])
	if v == "" {
		return
	}
	e.add(record.Comment, depth, int64(f.val0), e.r.lines.line(f.val0), v)
}

func (e *emitter) add(k record.Kind, depth int, at int64, line int, text string) {
	p := e.p
	start := len(p.text)
	p.text = append(p.text, text...)
	e.rec.Elements = append(e.rec.Elements, record.Token{Kind: k, Depth: uint16(depth),
		Start: int32(start), End: int32(len(p.text)), Line: int32(line), Offset: at})
	p.text = append(p.text, ' ')
}
