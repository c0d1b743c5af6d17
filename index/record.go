package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/movetext"
)

// Tag is one PGN tag pair as the source wrote it.
type Tag struct{ Name, Value string }

// Source says where a stored game was read from.
type Source struct {
	File   string
	Index  int   // 1-based index of the record in its file
	Offset int64 // byte offset of the record
}

// Record is a stored game: enough to replay and export it exactly.
type Record struct {
	ID       uint32
	Game     engine.Game
	StartFEN string // empty for the standard start
	Moves    []engine.Move
	// Ranks, when not nil, holds each move's games.MoveRank (the replay
	// computes them while it has the positions); otherwise encoding replays
	// the game to find them.
	Ranks       []uint8
	Result      engine.Result
	Termination engine.Status
	Tags        []Tag
	Source      Source
	// Rulings are the referee's decided rulings over the game (ply, status,
	// loser), the violations users query; Termination is the status of the
	// one at the last ply, if any.
	Rulings []engine.Ruling
	// Opening and OpeningName are the ECO (chess) or ECCO (Xiangqi) code
	// and name query/opening gives the moves, when the importer set them.
	// The metadata index takes them for opening and opening_name instead
	// of the record's ECO, ECCO, Opening and Variation tags, which the
	// record keeps as written. They are not part of the record's bytes:
	// the moves give them again.
	Opening, OpeningName string
	// Notes are the comments, NAGs and variations of the main line (nil
	// for most games).
	Notes []movetext.Note
}

// Tag returns the value of the first tag named name (case-insensitive).
func (r *Record) Tag(name string) string { return tagValue(r.Tags, name) }

func tagValue(tags []Tag, name string) string {
	for _, t := range tags {
		if equalFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// recordVersion is the first byte of every record. Version 3 stores a
// null move as the move byte games.NullRank (255), which no version 2
// record holds, and the main line's notes after its moves when it has any
// (see appendNotes): a game without notes costs no byte more. Version 2
// records read as before.
const recordVersion = 3

// ErrCorruptRecord is returned when a stored game record cannot be decoded.
var ErrCorruptRecord = errors.New("index: corrupt game record")

// encodeRecord packs a record. Moves are stored as their canonical index:
// the rank of the move's wire code among the legal moves' codes, one byte
// each (no position has more than 218 legal moves). This is independent of
// the order in which an engine generates moves.
func encodeRecord(dst []byte, r *Record) ([]byte, error) {
	dst = append(dst, recordVersion, byte(r.Game), byte(r.Result), byte(r.Termination))
	dst = appendString(dst, r.StartFEN)
	dst = binary.AppendUvarint(dst, uint64(len(r.Tags)))
	for _, t := range r.Tags {
		dst = appendString(dst, t.Name)
		dst = appendString(dst, t.Value)
	}
	dst = appendString(dst, r.Source.File)
	dst = binary.AppendUvarint(dst, uint64(r.Source.Index))
	dst = binary.AppendUvarint(dst, uint64(r.Source.Offset))
	dst = binary.AppendUvarint(dst, uint64(len(r.Rulings)))
	for _, ru := range r.Rulings {
		dst = binary.AppendUvarint(dst, uint64(ru.Ply))
		dst = append(dst, byte(ru.Status), byte(ru.Result), byte(ru.Side))
	}
	dst = binary.AppendUvarint(dst, uint64(len(r.Moves)))
	if len(r.Ranks) == len(r.Moves) && len(r.Notes) == 0 {
		return append(dst, r.Ranks...), nil
	}
	p, err := games.New(r.Game, r.StartFEN)
	if err != nil {
		return nil, err
	}
	if dst, err = appendRanks(dst, p, r.Moves); err != nil {
		return nil, fmt.Errorf("index: game %w", err)
	}
	if len(r.Notes) == 0 {
		return dst, nil
	}
	return appendNotes(dst, p, r.Moves, r.Notes, 0)
}

// recordSizeHint is about the bytes encodeRecord writes for r without
// notes, so that its buffer is allocated once (grown from nothing, it was
// four allocations a game).
func recordSizeHint(r *Record) int {
	n := 32 + len(r.StartFEN) + len(r.Source.File) + 4*len(r.Rulings) + len(r.Moves)
	for _, t := range r.Tags {
		n += 4 + len(t.Name) + len(t.Value)
	}
	return n
}

// decodeRecord unpacks a record stored under id.
func decodeRecord(id uint32, b []byte) (*Record, error) {
	return decodeRecordKeys(id, b, nil)
}

// recordScratch is what decoding record after record reuses (one per
// goroutine): a position of each game, set up again for each record, and
// the buffers of its moves and keys. A copy of every stored game decodes
// ~16 M plies; a new position, moves and keys for each of 196 k records
// were 1 GB of the copy's 2.7 GB of allocations.
type recordScratch struct {
	pos   [4]engine.Position // by game
	moves []engine.Move
	keys  []uint64
}

// decodeRecordKeys is decodeRecord that also sets s.keys to the key of
// every position the game reached (when s is not nil): decoding plays the
// moves anyway, so a copy needs no second replay. With s, the record's
// Moves are s.moves: they hold until s decodes the next record.
func decodeRecordKeys(id uint32, b []byte, s *recordScratch) (*Record, error) {
	d := decoder{b: b}
	if s != nil {
		// The record's strings (tags, source, notes) are cut from one
		// copy of its bytes: a copy decodes 196 k records of about 22
		// strings each, and the records live only until their game is
		// added (what outlives them, the metadata caches, copies what
		// it keeps).
		d.str, d.n = string(b), len(b)
	}
	r, plies, err := d.header(id, len(b))
	if err != nil {
		return nil, err
	}
	version := b[0]
	var p engine.Position
	if s == nil {
		p, err = games.New(r.Game, r.StartFEN)
		r.Moves = make([]engine.Move, plies)
	} else {
		slot := &s.pos[r.Game%4]
		if p, err = games.Reuse(*slot, r.Game, r.StartFEN); err == nil {
			*slot = p
		}
		r.Moves = slices.Grow(s.moves[:0], int(plies))[:plies]
		s.moves = r.Moves
		s.keys = append(s.keys[:0], 0)
	}
	if err != nil {
		return nil, fmt.Errorf("%w %d: %v", ErrCorruptRecord, id, err)
	}
	if s != nil {
		s.keys[0] = p.Key()
	}
	for i := range r.Moves {
		m, ok := games.MoveAtRank(p, int(d.byte()))
		if !ok || d.err != nil {
			return nil, fmt.Errorf("%w %d: move %d", ErrCorruptRecord, id, i+1)
		}
		r.Moves[i] = m
		p.Make(m)
		if s != nil {
			s.keys = append(s.keys, p.Key())
		}
	}
	if len(d.b) > 0 && version >= 3 {
		for range r.Moves {
			p.Unmake()
		}
		if r.Notes, err = d.notes(p, r.Moves, 0); err != nil {
			return nil, fmt.Errorf("%w %d: notes: %v", ErrCorruptRecord, id, err)
		}
	}
	return r, nil
}

// header reads a record's fields up to its moves (Game, Result,
// Termination, StartFEN, Tags, Source, Rulings) and the number of its
// plies; size is the record's length.
func (d *decoder) header(id uint32, size int) (*Record, uint64, error) {
	version := d.byte()
	if version != recordVersion && version != 2 {
		return nil, 0, fmt.Errorf("%w %d: unknown version", ErrCorruptRecord, id)
	}
	r := &Record{ID: id}
	r.Game = engine.Game(d.byte())
	r.Result = engine.Result(d.byte())
	r.Termination = engine.Status(d.byte())
	r.StartFEN = d.string()
	n := d.uvarint()
	if n > uint64(size) {
		return nil, 0, fmt.Errorf("%w %d: tag count", ErrCorruptRecord, id)
	}
	r.Tags = make([]Tag, n)
	for i := range r.Tags {
		r.Tags[i] = Tag{d.string(), d.string()}
	}
	r.Source.File = d.string()
	r.Source.Index = int(d.uvarint())
	r.Source.Offset = int64(d.uvarint())
	nr := d.uvarint()
	if nr > uint64(size) {
		return nil, 0, fmt.Errorf("%w %d: ruling count", ErrCorruptRecord, id)
	}
	for i := uint64(0); i < nr; i++ {
		ru := engine.Ruling{Game: r.Game, Ply: int(d.uvarint())}
		ru.Status, ru.Result, ru.Side = engine.Status(d.byte()), engine.Result(d.byte()), engine.Color(d.byte()&1)
		r.Rulings = append(r.Rulings, ru)
	}
	plies := d.uvarint()
	if d.err != nil || plies > uint64(len(d.b)) {
		return nil, 0, fmt.Errorf("%w %d: header", ErrCorruptRecord, id)
	}
	return r, plies, nil
}

// decodeRecordHeader is decodeRecord without the moves and notes, which
// take replaying the game: for what reads only a game's tags.
func decodeRecordHeader(id uint32, b []byte) (*Record, error) {
	d := decoder{b: b}
	r, _, err := d.header(id, len(b))
	return r, err
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// decoder reads the varint-and-bytes layouts of this package; the first
// error sticks and later reads return zero values.
type decoder struct {
	b   []byte
	err error
	// str, when set, is the n bytes b began as, as a string that string
	// cuts its answers from.
	str string
	n   int
}

var errShort = errors.New("short buffer")

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.err = errShort
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errShort
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err = errShort
		d.b = nil
		return ""
	}
	var s string
	if d.str != "" {
		at := d.n - len(d.b)
		s = d.str[at : at+int(n)]
	} else {
		s = string(d.b[:n])
	}
	d.b = d.b[n:]
	return s
}

func (d *decoder) skipString() {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err = errShort
		d.b = nil
		return
	}
	d.b = d.b[n:]
}

// replayPositions are findInRecord's positions, kept for the next
// replay: a new one is about 6 KB (its undo stack), and a tree at a
// million games replays 1.8 games on average, 0.56 of them strays (issue
// 18: a tree's garbage, which in a fresh process is fresh memory).
var replayPositions sync.Pool

// findInRecord is FindPosition on a stored record's bytes: it decodes the
// moves only up to the first ply at which the game reaches pos (key is
// pos.Key(), id its positionID, computed once by the caller), and returns
// that ply and the move played there (EndSlot's NullMove when the game
// ended there). A tree lookup replays every candidate game of the tail:
// decoding a whole record (tags, all its moves), then replaying it again
// to find the ply, took half of a lookup's time (issue 18).
func findInRecord(gid uint32, b []byte, pos engine.Position, key uint64, id *string) (ply int, next engine.Move, ok bool, err error) {
	d := decoder{b: b}
	if version := d.byte(); version != recordVersion && version != 2 {
		return 0, 0, false, fmt.Errorf("%w %d: unknown version", ErrCorruptRecord, gid)
	}
	game := engine.Game(d.byte())
	d.byte() // result
	d.byte() // termination
	start := d.string()
	n := d.uvarint()
	if n > uint64(len(b)) {
		return 0, 0, false, fmt.Errorf("%w %d: tag count", ErrCorruptRecord, gid)
	}
	for i := uint64(0); i < 2*n; i++ {
		d.skipString()
	}
	d.skipString() // source file
	d.uvarint()    // source index
	d.uvarint()    // source offset
	nr := d.uvarint()
	if nr > uint64(len(b)) {
		return 0, 0, false, fmt.Errorf("%w %d: ruling count", ErrCorruptRecord, gid)
	}
	for i := uint64(0); i < nr; i++ {
		d.uvarint()
		d.byte()
		d.byte()
		d.byte()
	}
	plies := d.uvarint()
	if d.err != nil || plies > uint64(len(d.b)) {
		return 0, 0, false, fmt.Errorf("%w %d: header", ErrCorruptRecord, gid)
	}
	pooled, _ := replayPositions.Get().(engine.Position)
	p, err := games.Reuse(pooled, game, start)
	if err != nil {
		return 0, 0, false, fmt.Errorf("%w %d: %v", ErrCorruptRecord, gid, err)
	}
	defer replayPositions.Put(p)
	for ply := 0; ; ply++ {
		found := false
		if p.Key() == key {
			if *id == "" {
				*id = positionID(pos)
			}
			found = positionID(p) == *id
		}
		if ply == int(plies) {
			return ply, engine.NullMove, found, nil
		}
		m, ok := games.MoveAtRank(p, int(d.byte()))
		if !ok || d.err != nil {
			return 0, 0, false, fmt.Errorf("%w %d: move %d", ErrCorruptRecord, gid, ply+1)
		}
		if found {
			return ply, m, true, nil
		}
		if m == engine.NullMove {
			return 0, 0, false, nil // position search stops at a null move
		}
		p.Make(m)
	}
}
