package opening

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/chess"
)

//go:embed eco.tsv.gz
var ecoTSV []byte

// ECO is the chess table: named positions by key.
type ECO struct {
	// seen has a bit per value of a key's top 16 bits: most positions of a
	// game are not named, and a bit test costs less than a map lookup.
	seen    [1 << 16 / 64]uint64
	byKey   map[uint64]int32
	entries []Opening
	// Lines is how many lines the table read, Positions how many distinct
	// named positions they reach.
	Lines, Positions int
}

var (
	ecoOnce  sync.Once
	ecoTable *ECO
)

// ChessTable returns the ECO table built from the embedded lichess table,
// loaded on first use (about 3,600 lines replayed).
func ChessTable() *ECO {
	ecoOnce.Do(func() {
		zr, err := gzip.NewReader(bytes.NewReader(ecoTSV))
		if err == nil {
			ecoTable, err = ReadECO(zr)
		}
		if err != nil { // the embedded table is tested: this is a build fault
			panic(fmt.Sprintf("opening: embedded ECO table: %v", err))
		}
	})
	return ecoTable
}

// ReadECO builds the table from lichess's TSV form (eco, name, pgn; a
// header line per file, which may repeat). Each line is replayed from the
// standard start; its final position gets its code and name. When lines
// reach the same position, the first keeps it (lichess lists no position
// twice under different names; the test checks that).
func ReadECO(r io.Reader) (*ECO, error) {
	t := &ECO{byKey: map[uint64]int32{}}
	sc := bufio.NewScanner(r)
	p := chess.NewStart()
	for line := 1; sc.Scan(); line++ {
		f := strings.Split(sc.Text(), "\t")
		if len(f) == 3 && f[0] == "eco" {
			continue
		}
		if len(f) != 3 || !validECO(f[0]) {
			return nil, fmt.Errorf("opening: ECO line %d: want eco, name and pgn", line)
		}
		p.Reset()
		for _, tok := range strings.Fields(f[2]) {
			if tok[len(tok)-1] == '.' { // a move number
				continue
			}
			m, err := p.ParseMove(tok, engine.SAN)
			if err != nil {
				return nil, fmt.Errorf("opening: ECO line %d (%s): %w", line, f[1], err)
			}
			p.Make(m)
		}
		t.Lines++
		k := p.Key()
		if _, dup := t.byKey[k]; dup {
			continue
		}
		t.byKey[k] = int32(len(t.entries))
		t.entries = append(t.entries, Opening{Code: f[0], Name: f[1]})
		t.seen[k>>48/64] |= 1 << (k >> 48 % 64)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("opening: read ECO table: %w", err)
	}
	t.Positions = len(t.entries)
	return t, nil
}

func validECO(s string) bool {
	return len(s) == 3 && s[0] >= 'A' && s[0] <= 'E' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9'
}

// Position names the position of key, if the table names it.
func (t *ECO) Position(key uint64) (Opening, bool) {
	if t.seen[key>>48/64]&(1<<(key>>48%64)) == 0 {
		return Opening{}, false
	}
	i, ok := t.byKey[key]
	if !ok {
		return Opening{}, false
	}
	return t.entries[i], true
}

// Classify names a game by the deepest named position among keys (the
// key of each position of the game, in order): lichess's rule of taking
// moves back until a named position appears.
func (t *ECO) Classify(keys []uint64) (Opening, bool) {
	for i := len(keys) - 1; i >= 0; i-- {
		if o, ok := t.Position(keys[i]); ok {
			return o, true
		}
	}
	return Opening{}, false
}
