package replay

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/movetext"
	"github.com/xqdb/xqdb/importer"
)

// hasNotes reports whether a record has anything beside its main line's
// moves, numbers and result: comments, NAGs, variations, or a move with
// a suffix annotation ("e4!", "炮二平五！"). Records without are most of
// every archive; for them replay does nothing more.
func hasNotes(rec *importer.Record) bool {
	for _, e := range rec.Elements {
		switch e.Kind {
		case importer.Move:
			if e.Depth != 0 {
				return true
			}
			if e.End > e.Start {
				if c := rec.Text[e.End-1]; c == '!' || c == '?' || c >= 0x80 && suffixLen(rec.Text[e.Start:e.End]) > 0 {
					return true
				}
			}
		case importer.MoveNumber, importer.Result:
		default:
			return true
		}
	}
	return false
}

// suffixLen returns the length of the annotation suffix of a move token
// ("!?" of "Nf3!?", "！" of "炮二平五！"), 0 when it has none.
func suffixLen(tok []byte) int {
	n := 0
	for len(tok) > n {
		r, size := utf8.DecodeLastRune(tok[:len(tok)-n])
		if r != '!' && r != '?' && r != '！' && r != '？' {
			break
		}
		n += size
	}
	if n == len(tok) {
		return 0 // all marks: a NAG token, not a move
	}
	return n
}

// suffixNAG reads a suffix annotation, full-width marks as ASCII; a
// longer run of one mark ("???", "!!!") is the strongest NAG of its kind,
// as pgn-extract reads it.
func suffixNAG(s []byte) (uint8, bool) {
	t := strings.NewReplacer("！", "!", "？", "?").Replace(string(s))
	switch {
	case len(t) > 2 && strings.Count(t, "?") == len(t):
		return 4, true
	case len(t) > 2 && strings.Count(t, "!") == len(t):
		return 3, true
	}
	return movetext.SuffixNAG(t)
}

// nagOf reads a NAG token: "$14", "$18." or a free-standing "!?". Check
// marks standing apart ("+", "#") are no annotation: SAN writes them.
func nagOf(tok []byte) (uint8, bool) {
	if len(tok) > 1 && tok[0] == '$' {
		n, err := strconv.Atoi(strings.TrimRight(string(tok[1:]), "."))
		if err != nil || n < 0 || n > 255 {
			return 0, false
		}
		return uint8(n), true
	}
	return suffixNAG(tok)
}

// level is one line open in notes' walk: the main line or a variation.
type level struct {
	line *movetext.Line // nil for the main line
	made int            // moves of the line made on the position
	ply0 int            // game plies before the line's first move
	// undone is the parent's move taken back to start this variation,
	// made again when it ends.
	undone engine.Move
	// skip marks a variation that is not kept (it follows no move, or
	// its parent was cut before it); cut marks a line cut at an illegal
	// move: what follows in it is dropped.
	skip, cut bool
}

// notes validates a record's variations and collects its comments, NAGs
// and variations into out.Notes. The main line (out.Moves) is already
// valid. A variation is replayed from the position before the move it
// replaces, as the main line is; an illegal move cuts that variation
// (reported in out.VariationErrors) and nothing else.
func (r *Replayer) notes(rec *importer.Record, out *Game) {
	g := out.Game
	pos, err := games.Reuse(r.varPos[g%4], g, out.StartFEN)
	if err != nil {
		return // cannot happen: the main line was set up from it
	}
	r.varPos[g%4] = pos
	bp, _ := pos.(byteParser)
	stack := []level{{}}
	main := 0 // main-line moves made
	addNote := func(top *level, n movetext.Note) {
		n.At = top.made
		if top.line == nil {
			out.Notes = append(out.Notes, n)
		} else {
			top.line.Notes = append(top.line.Notes, n)
		}
	}
	for _, e := range rec.Elements {
		top := &stack[len(stack)-1]
		tok := rec.Text[e.Start:e.End]
		switch e.Kind {
		case importer.VariationStart:
			if top.skip || top.cut || top.made == 0 || len(stack) > movetext.MaxDepth {
				stack = append(stack, level{skip: true})
				continue
			}
			var undone engine.Move
			if top.line == nil {
				undone = out.Moves[main-1]
			} else {
				undone = top.line.Moves[top.made-1]
			}
			pos.Unmake()
			v := &movetext.Line{}
			addNote(top, movetext.Note{Kind: movetext.Variation, Line: v})
			stack = append(stack, level{line: v, ply0: top.ply0 + top.made - 1, undone: undone})
		case importer.VariationEnd:
			if len(stack) == 1 {
				continue // unbalanced: the reader reported it
			}
			stack = r.closeLevel(pos, stack, out)
		case importer.Move:
			switch {
			case top.skip || top.cut:
			case top.line == nil:
				if main >= len(out.Moves) {
					continue // a move past the main line's end: cannot happen
				}
				pos.Make(out.Moves[main])
				main++
				top.made++
				if n := suffixLen(tok); n > 0 {
					if nag, ok := suffixNAG(tok[len(tok)-n:]); ok {
						addNote(top, movetext.Note{Kind: movetext.NAG, NAG: nag})
					}
				}
			default:
				m, err := parseVariationMove(pos, bp, tok, out.Notation)
				if err != nil {
					ge := newError(rec.Source, err)
					ge.Ply, ge.Move, ge.Variation = top.ply0+top.made+1, string(tok), true
					ge.Line, ge.Offset = int(e.Line), e.Offset
					out.VariationErrors = append(out.VariationErrors, ge)
					top.cut = true
					continue
				}
				pos.Make(m)
				top.line.Moves = append(top.line.Moves, m)
				top.made++
				if n := suffixLen(tok); n > 0 {
					if nag, ok := suffixNAG(tok[len(tok)-n:]); ok {
						addNote(top, movetext.Note{Kind: movetext.NAG, NAG: nag})
					}
				}
			}
		case importer.Comment, importer.LineComment:
			if top.skip || top.cut {
				continue
			}
			if text := strings.TrimSpace(string(tok)); text != "" {
				addNote(top, movetext.Note{Kind: movetext.Comment, Text: text})
			}
		case importer.NAG:
			if top.skip || top.cut || top.made == 0 {
				continue
			}
			if nag, ok := nagOf(tok); ok {
				addNote(top, movetext.Note{Kind: movetext.NAG, NAG: nag})
			}
		}
	}
	for len(stack) > 1 {
		stack = r.closeLevel(pos, stack, out)
	}
}

// closeLevel ends the innermost variation: its moves are taken back, the
// move it replaced is made again, and an empty variation is dropped.
func (r *Replayer) closeLevel(pos engine.Position, stack []level, out *Game) []level {
	top := stack[len(stack)-1]
	stack = stack[:len(stack)-1]
	if top.skip {
		return stack
	}
	for range top.made {
		pos.Unmake()
	}
	pos.Make(top.undone)
	if len(top.line.Moves) == 0 && len(top.line.Notes) == 0 {
		parent := &stack[len(stack)-1]
		notes := &out.Notes
		if parent.line != nil {
			notes = &parent.line.Notes
		}
		if n := len(*notes); n > 0 && (*notes)[n-1].Line == top.line {
			*notes = (*notes)[:n-1]
		}
	}
	return stack
}

// parseVariationMove reads a variation's move as the main line's are
// read, null moves included.
func parseVariationMove(pos engine.Position, bp byteParser, tok []byte, n engine.Notation) (engine.Move, error) {
	var m engine.Move
	var err error
	if bp != nil {
		m, err = bp.ParseMoveBytes(tok, n)
	} else {
		m, err = pos.ParseMove(unsafe.String(unsafe.SliceData(tok), len(tok)), n)
	}
	if err == nil {
		return m, nil
	}
	// Annotators' prose ends a sentence on a move ("8. Rg1 f5.",
	// "20. Bh6+, and"): read the move without its stop, as pgn-extract
	// does.
	if k := len(tok) - 1; k > 1 && (tok[k] == '.' || tok[k] == ',') {
		if m, err2 := parseVariationMove(pos, bp, tok[:k], n); err2 == nil {
			return m, nil
		}
	}
	if engine.IsNullToken(tok) {
		if !pos.InCheck() {
			return engine.NullMove, nil
		}
		return 0, fmt.Errorf("%w: a null move while in check", ErrIllegalMove)
	}
	return 0, err
}
