package main

import (
	"strconv"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/movetext"
	"github.com/xqdb/xqdb/importer/pgn"
)

// writeLine writes a line of a stored game as PGN movetext in notation n:
// its moves with their numbers, and its notes (comments, NAGs as "$n",
// variations in parentheses) where they stand. pos is the position before
// the line's first move, num its move number; pos is left as it was.
// after, when not nil, is called after each move of this line (not of
// its variations). Numbers follow the PGN export format (§8.2.2.2): every
// move of the first side, and a second side's move that opens a line or
// follows a comment or a variation ("3...").
func writeLine(w *pgn.Writer, pos engine.Position, num int, moves []engine.Move, notes []movetext.Note, n engine.Notation, after func(i int)) {
	ni := 0
	force := true // the next move needs its number
	// numbers[i] is the number of move i, which a variation replacing it
	// takes over.
	number := func(i int, first bool) int { return num + (i+boolInt(!first))/2 }
	firstSide := pos.SideToMove() == engine.First
	notesAt := func(at int) {
		for ; ni < len(notes) && notes[ni].At == at; ni++ {
			switch note := notes[ni]; note.Kind {
			case movetext.Comment:
				w.Comment(note.Text)
				force = true
			case movetext.NAG:
				w.Word("$" + strconv.Itoa(int(note.NAG)))
			case movetext.Variation:
				if at == 0 || note.Line == nil {
					continue
				}
				pos.Unmake()
				w.StartVariation()
				writeLine(w, pos, number(at-1, firstSide), note.Line.Moves, note.Line.Notes, n, nil)
				w.EndVariation()
				pos.Make(moves[at-1])
				force = true
			}
		}
	}
	notesAt(0)
	for i, m := range moves {
		first := pos.SideToMove() == engine.First
		switch {
		case first:
			w.Word(strconv.Itoa(number(i, firstSide)) + ".")
		case force:
			w.Word(strconv.Itoa(number(i, firstSide)) + "...")
		}
		force = false
		w.Word(pos.FormatMove(m, n))
		pos.Make(m)
		if after != nil {
			after(i)
		}
		notesAt(i + 1)
	}
	for range moves {
		pos.Unmake()
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
