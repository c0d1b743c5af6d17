package index

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/movetext"
)

// The notes of a line (record version 3) follow its moves:
//
//	notes     = count (uvarint), then each note:
//	            (At - previous At) << 2 | kind (uvarint), then
//	            kind 1 comment:   text (uvarint length, UTF-8 bytes)
//	            kind 2 NAG:       one byte
//	            kind 3 variation: line
//	line      = move count (uvarint), one rank byte per move (as the main
//	            line's, from the position before the move it replaces),
//	            then its notes
//
// Moves are ranks among the legal moves, so a variation costs about a
// byte a move, like the main line.

// appendRanks appends the rank of each move, played from p; p is left
// after the last move.
func appendRanks(dst []byte, p engine.Position, moves []engine.Move) ([]byte, error) {
	for i, m := range moves {
		idx, ok := games.MoveRank(p, m)
		if !ok {
			return nil, fmt.Errorf("move %d is not legal", i+1)
		}
		dst = append(dst, byte(idx))
		p.Make(m)
	}
	return dst, nil
}

// appendNotes appends the notes of a line whose moves p has just played;
// p is left where it was.
func appendNotes(dst []byte, p engine.Position, moves []engine.Move, notes []movetext.Note, depth int) ([]byte, error) {
	if depth > movetext.MaxDepth {
		return nil, errors.New("index: variations nest too deep")
	}
	// Take the line back, then walk it forward note by note.
	for range moves {
		p.Unmake()
	}
	dst = binary.AppendUvarint(dst, uint64(len(notes)))
	at := 0
	for _, n := range notes {
		if n.At < at || n.At > len(moves) || n.Kind == movetext.Variation && (n.At == 0 || n.Line == nil) {
			return nil, fmt.Errorf("index: note at %d out of order", n.At)
		}
		dst = binary.AppendUvarint(dst, uint64(n.At-at)<<2|uint64(n.Kind))
		for ; at < n.At; at++ {
			p.Make(moves[at])
		}
		switch n.Kind {
		case movetext.Comment:
			dst = appendString(dst, n.Text)
		case movetext.NAG:
			dst = append(dst, n.NAG)
		case movetext.Variation:
			p.Unmake()
			dst = binary.AppendUvarint(dst, uint64(len(n.Line.Moves)))
			var err error
			if dst, err = appendRanks(dst, p, n.Line.Moves); err != nil {
				return nil, fmt.Errorf("index: variation %w", err)
			}
			if dst, err = appendNotes(dst, p, n.Line.Moves, n.Line.Notes, depth+1); err != nil {
				return nil, err
			}
			for range n.Line.Moves {
				p.Unmake()
			}
			p.Make(moves[n.At-1])
		default:
			return nil, fmt.Errorf("index: note of kind %d", n.Kind)
		}
	}
	for ; at < len(moves); at++ {
		p.Make(moves[at])
	}
	return dst, nil
}

// notes reads the notes of a line whose moves start at p; p is left
// where it was.
func (d *decoder) notes(p engine.Position, moves []engine.Move, depth int) ([]movetext.Note, error) {
	if depth > movetext.MaxDepth {
		return nil, errors.New("variations nest too deep")
	}
	count := d.uvarint()
	if d.err != nil || count > uint64(len(d.b)) {
		return nil, errShort
	}
	var notes []movetext.Note // nil when there are none, as encoded
	at := 0
	for range count {
		h := d.uvarint()
		next := uint64(at) + h>>2
		if d.err != nil || next > uint64(len(moves)) {
			return nil, fmt.Errorf("note position")
		}
		for ; at < int(next); at++ {
			p.Make(moves[at])
		}
		n := movetext.Note{At: at, Kind: movetext.Kind(h & 3)}
		switch n.Kind {
		case movetext.Comment:
			n.Text = d.string()
		case movetext.NAG:
			n.NAG = d.byte()
		case movetext.Variation:
			if at == 0 {
				return nil, fmt.Errorf("variation before any move")
			}
			p.Unmake()
			line, err := d.line(p, depth+1)
			if err != nil {
				return nil, err
			}
			p.Make(moves[at-1])
			n.Line = line
		default:
			return nil, fmt.Errorf("note kind %d", n.Kind)
		}
		if d.err != nil {
			return nil, d.err
		}
		notes = append(notes, n)
	}
	for ; at > 0; at-- {
		p.Unmake()
	}
	return notes, nil
}

// line reads a variation from p; p is left where it was.
func (d *decoder) line(p engine.Position, depth int) (*movetext.Line, error) {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		return nil, errShort
	}
	l := &movetext.Line{Moves: make([]engine.Move, n)}
	for i := range l.Moves {
		m, ok := games.MoveAtRank(p, int(d.byte()))
		if !ok || d.err != nil {
			for range i {
				p.Unmake()
			}
			return nil, fmt.Errorf("variation move %d", i+1)
		}
		l.Moves[i] = m
		p.Make(m)
	}
	for range l.Moves {
		p.Unmake()
	}
	var err error
	if l.Notes, err = d.notes(p, l.Moves, depth); err != nil {
		return nil, err
	}
	return l, nil
}
