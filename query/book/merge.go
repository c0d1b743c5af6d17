package book

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/xqdb/xqdb/query/book/eleeye"
	"github.com/xqdb/xqdb/query/book/obk"
	"github.com/xqdb/xqdb/query/book/polyglot"
)

// Entry is one stored (position, move) of any format, as dump and merge see
// it: the format's key (BOOK.DAT keeps only lock1) and move code.
type Entry struct {
	Key                 uint64
	Code                uint16
	Weight              int
	Wins, Draws, Losses int
	// Index is .obk's vindex (the ply), Learn Polyglot's learn field.
	Index int
	Learn uint32
}

// Entries returns every stored entry in file order.
func (b *Book) Entries() ([]Entry, error) {
	var out []Entry
	switch b.format {
	case Polyglot:
		for _, e := range b.pg {
			out = append(out, Entry{Key: e.Key, Code: e.Move, Weight: int(e.Weight), Learn: e.Learn})
		}
	case Eleeye:
		for _, r := range b.ee {
			out = append(out, Entry{Key: uint64(r.Lock), Code: r.Move, Weight: int(r.Value)})
		}
	case OBK:
		rows, err := obk.Read(b.path)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if r.Valid != 1 {
				continue
			}
			out = append(out, Entry{Key: r.Key, Code: r.Move, Weight: r.Score, Wins: r.Win, Draws: r.Draw, Losses: r.Lost, Index: r.Index})
		}
	}
	return out, nil
}

// CodeText writes a format's move code in coordinates without a position:
// UCI for Polyglot (castling as the file stores it, king takes rook), ICCS
// for the Xiangqi formats. Codes off the board read "?".
func CodeText(f Format, code uint16) string {
	switch f {
	case Polyglot:
		sq := func(s uint16) string { return string([]byte{'a' + byte(s&7), '1' + byte(s>>3&7)}) }
		s := sq(code>>6&63) + sq(code&63)
		if p := code >> 12 & 7; p != 0 {
			s += string(" nbrq???"[p])
		}
		return s
	case Eleeye:
		return iccs(uint8(code), uint8(code>>8))
	case OBK:
		return iccs(uint8(code>>8), uint8(code))
	}
	return "?"
}

// iccs writes two squares of the Xiangqi book formats' board (rows from
// Black's back rank).
func iccs(from, to uint8) string {
	sq := func(s uint8) string {
		file, row := int(s&15)-3, int(s>>4)-3
		if file < 0 || file > 8 || row < 0 || row > 9 {
			return "??"
		}
		return string([]byte{'a' + byte(file), '0' + byte(9-row)})
	}
	return sq(from) + sq(to)
}

// Merge combines books of one format into path: the entries of the same
// (key, move) are summed (weights clamped to 16 bits where the format
// stores 16), the rest kept, and the file sorted as the format requires.
func Merge(path string, f Format, books ...*Book) (int, error) {
	type pk struct {
		key  uint64
		code uint16
	}
	sum := map[pk]*Entry{}
	var order []pk
	for _, b := range books {
		if b.format != f {
			return 0, fmt.Errorf("%w: cannot merge a %s book into %s", ErrOption, b.format, f)
		}
		es, err := b.Entries()
		if err != nil {
			return 0, err
		}
		for _, e := range es {
			k := pk{e.Key, e.Code}
			if s := sum[k]; s != nil {
				s.Weight += e.Weight
				s.Wins += e.Wins
				s.Draws += e.Draws
				s.Losses += e.Losses
				s.Index = min(s.Index, e.Index)
				continue
			}
			e := e
			sum[k] = &e
			order = append(order, k)
		}
	}
	clamp := func(w int) uint16 { return uint16(min(max(w, 0), 0xFFFF)) }
	switch f {
	case Polyglot:
		es := make([]polyglot.Entry, 0, len(order))
		for _, k := range order {
			e := sum[k]
			es = append(es, polyglot.Entry{Key: e.Key, Move: e.Code, Weight: clamp(e.Weight), Learn: e.Learn})
		}
		polyglot.SortEntries(es)
		return len(es), writeFile(path, polyglot.Append(nil, es))
	case Eleeye:
		rs := make([]eleeye.Record, 0, len(order))
		for _, k := range order {
			e := sum[k]
			rs = append(rs, eleeye.Record{Lock: uint32(e.Key), Move: e.Code, Value: clamp(e.Weight)})
		}
		slices.SortFunc(rs, func(a, b eleeye.Record) int {
			if c := cmp.Compare(a.Lock, b.Lock); c != 0 {
				return c
			}
			return cmp.Compare(a.Move, b.Move)
		})
		return len(rs), writeFile(path, eleeye.Append(nil, rs))
	}
	rows := make([]obk.Row, 0, len(order))
	for _, k := range order {
		e := sum[k]
		rows = append(rows, obk.Row{Key: e.Key, Move: e.Code, Score: e.Weight, Win: e.Wins, Draw: e.Draws, Lost: e.Losses, Valid: 1, Index: e.Index})
	}
	obk.SortRows(rows)
	return len(rows), writeOBK(path, rows)
}
