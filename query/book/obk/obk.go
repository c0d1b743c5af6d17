// Package obk reads, writes and builds the .obk opening books of BHGUI
// (兵河五四), the Xiangqi book format most Chinese interfaces read
// (../shared/data/xiangqi/books/SOURCES.md).
//
// An .obk book is an SQLite database with one table,
//
//	bhobk(id INTEGER PRIMARY KEY AUTOINCREMENT, vkey INTEGER, vmove INTEGER,
//	      vscore INTEGER, vwin INTEGER, vdraw INTEGER, vlost INTEGER,
//	      vvalid INTEGER, vmemo, vindex INTEGER)
//
// and an index idxkey on vkey. vkey is the format's own 64-bit Zobrist key
// (binghe_zobrist.txt, stored as a signed integer), vmove is from<<8 | to
// on the 16×16 board whose rows run from Black's back rank (h2e2 = 43687).
// SQLite is reached through modernc.org/sqlite, a pure-Go translation, so
// xqdb builds without cgo.
//
//	file        what
//	zobrist.go  the key table (embedded), Key, move codes
//	obk.go      Row, Read, Write, Probe
//	build.go    Builder: per (position, move) game counts
package obk

import (
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

// Schema is the table and index every .obk book has.
const Schema = `CREATE TABLE bhobk(id INTEGER PRIMARY KEY AUTOINCREMENT, vkey INTEGER, vmove INTEGER, vscore INTEGER, vwin INTEGER, vdraw INTEGER, vlost INTEGER, vvalid INTEGER, vmemo, vindex INTEGER);
CREATE INDEX idxkey ON bhobk(vkey);`

// Row is one book row: a move of a position with its statistics.
type Row struct {
	Key             uint64
	Move            uint16
	Score           int
	Win, Draw, Lost int
	Valid           int
	Index           int
}

// ErrNotBook is returned when a file is not an SQLite database with a
// bhobk table.
var ErrNotBook = errors.New("obk: not an .obk book (no bhobk table)")

func open(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'bhobk'`).Scan(&n); err != nil {
		db.Close()
		return nil, fmt.Errorf("obk: %s: %w", path, err)
	}
	if n == 0 {
		db.Close()
		return nil, fmt.Errorf("%w: %s", ErrNotBook, path)
	}
	return db, nil
}

// keyOf reads a vkey: an INTEGER holding the key's bits as a signed
// number, or a REAL holding them as a double's bits (real books store keys
// above 2^63 that way).
func keyOf(v any) (uint64, bool) {
	switch k := v.(type) {
	case int64:
		return uint64(k), true
	case float64:
		return math.Float64bits(k), true
	}
	return 0, false
}

func intOf(v any) int {
	switch x := v.(type) {
	case int64:
		return int(x)
	case float64:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return int(x)
		}
	}
	return 0
}

// Read returns every row of a book, in id order. Rows whose key or move
// is not a number are skipped.
func Read(path string) ([]Row, error) {
	db, err := open(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return query(db, `SELECT vkey, vmove, vscore, vwin, vdraw, vlost, vvalid, vindex FROM bhobk ORDER BY id`)
}

func query(db *sql.DB, q string, args ...any) ([]Row, error) {
	rows, err := db.Query(q, args...)
	if err != nil {
		return nil, fmt.Errorf("obk: %w", err)
	}
	defer rows.Close()
	var out []Row
	for rows.Next() {
		var v [8]any
		if err := rows.Scan(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]); err != nil {
			return nil, fmt.Errorf("obk: %w", err)
		}
		k, ok := keyOf(v[0])
		mv := intOf(v[1])
		if !ok || mv < 0 || mv > 0xFFFF {
			continue
		}
		out = append(out, Row{Key: k, Move: uint16(mv), Score: intOf(v[2]), Win: intOf(v[3]), Draw: intOf(v[4]),
			Lost: intOf(v[5]), Valid: intOf(v[6]), Index: intOf(v[7])})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("obk: %w", err)
	}
	return out, nil
}

// Write creates the book path (replacing any file there) holding rows.
func Write(path string, rows []Row) (err error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	defer func() {
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}()
	// The book is written once, start to end: a failure leaves a file to
	// delete, not one to recover, so the journal can stay in memory.
	if _, err := db.Exec(`PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF;`); err != nil {
		return fmt.Errorf("obk: %w", err)
	}
	if _, err := db.Exec(Schema); err != nil {
		return fmt.Errorf("obk: %w", err)
	}
	tx, err := db.Begin()
	if err != nil {
		return fmt.Errorf("obk: %w", err)
	}
	st, err := tx.Prepare(`INSERT INTO bhobk(vkey, vmove, vscore, vwin, vdraw, vlost, vvalid, vmemo, vindex) VALUES(?, ?, ?, ?, ?, ?, ?, NULL, ?)`)
	if err != nil {
		tx.Rollback()
		return fmt.Errorf("obk: %w", err)
	}
	for _, r := range rows {
		if _, err := st.Exec(int64(r.Key), int(r.Move), r.Score, r.Win, r.Draw, r.Lost, r.Valid, r.Index); err != nil {
			tx.Rollback()
			return fmt.Errorf("obk: %w", err)
		}
	}
	st.Close()
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("obk: %w", err)
	}
	return nil
}

// Book is an open book for probing.
type Book struct{ db *sql.DB }

// Open opens a book for probing.
func Open(path string) (*Book, error) {
	db, err := open(path)
	if err != nil {
		return nil, err
	}
	return &Book{db}, nil
}

// Close closes the book.
func (b *Book) Close() error { return b.db.Close() }

// Hit is one book move of a position.
type Hit struct {
	Move engine.Move
	Row
}

// Probe returns the valid book moves of p: the rows of its key and of its
// mirror's (moves mapped back), as readers query them (vvalid = 1, ordered
// by vscore then vwin, descending), a move met under both keys once with
// its counts summed, and only moves legal in p.
func (b *Book) Probe(p *xiangqi.Position) ([]Hit, error) {
	var hits []Hit
	k, mk := Key(p, false), Key(p, true)
	for i, key := range [2]uint64{k, mk} {
		if i == 1 && mk == k {
			break
		}
		rows, err := query(b.db, `SELECT vkey, vmove, vscore, vwin, vdraw, vlost, vvalid, vindex FROM bhobk
			WHERE (vkey = ? OR vkey = ?) AND vvalid = 1`, int64(key), math.Float64frombits(key))
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if r.Key != key {
				continue
			}
			code := r.Move
			if i == 1 {
				code = MirrorCode(code)
			}
			m, ok := FromCode(code)
			if !ok || !p.IsLegal(m) {
				continue
			}
			if j := slices.IndexFunc(hits, func(h Hit) bool { return h.Move == m }); j >= 0 {
				h := &hits[j]
				h.Score += r.Score
				h.Win += r.Win
				h.Draw += r.Draw
				h.Lost += r.Lost
				h.Index = min(h.Index, r.Index)
				continue
			}
			r.Move = Code(m)
			hits = append(hits, Hit{Move: m, Row: r})
		}
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(b.Win, a.Win)
	})
	return hits, nil
}
