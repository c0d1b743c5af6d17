package main

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"strings"
	"sync"
	"unsafe"

	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/importer/textenc"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query/book"
	"github.com/xqdb/xqdb/replay"
)

// item is one record on its way through the pipeline, with what reading
// and replaying it gave.
type item struct {
	file    string
	rec     importer.Record // owned copy (when hasRec)
	hasRec  bool
	readErr error // a *importer.ParseError, or an I/O error of the file
	game    replay.Game
	err     error // the replay error, a *replay.GameError
	// prepared is the game encoded for the index (import only).
	prepared *index.Prepared
	// out holds what a worker formatted for the sink to write as is
	// (clean, convert): writing stays in input order, formatting runs in
	// parallel.
	out bytes.Buffer
	// ready is the game readied for a book builder (book build only).
	ready book.Ready
	// n is the item's place in input order. When the pipeline marks
	// repeats, repeat says an earlier record had the same game, start and
	// move text (textKey), the record at place repeatOf, so the workers
	// left it alone.
	n, repeatOf int
	repeat      bool
}

// textKey is a 128-bit hash of what a replay reads from a record: the game
// and variant, the start position, the notation hint, the results (tag
// and marker: --strict-results rejects on them) and the move tokens. Two
// records with the same key replay alike.
type textKey [2]uint64

var textSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// textKeyOf keys r, using buf (returned for reuse) to gather what it
// hashes: two hashes over one buffer cost less than many small writes.
// The values of tags are keyed too (import's --dedupe game: a record
// repeating another's moves under other players is another game).
func textKeyOf(r *importer.Record, buf []byte, tags []string) (textKey, []byte) {
	buf = append(buf[:0], byte(r.Game), byte(r.NotationHint))
	for _, t := range tags {
		buf = append(buf, r.Tag(t)...)
		buf = append(buf, 0)
	}
	buf = append(buf, r.Variant...)
	buf = append(buf, 0)
	buf = append(buf, r.FEN...)
	buf = append(buf, 0)
	buf = append(buf, r.Tag("Result")...)
	buf = append(buf, 0)
	buf = append(buf, r.Result...)
	for _, m := range r.Moves {
		buf = append(buf, 0)
		buf = append(buf, r.Text[m.Start:m.End]...)
	}
	if len(r.Moves) == 0 {
		// Header-only games differ by their tags alone (a broadcast's
		// results): the tags are what repeats.
		for _, t := range r.Tags {
			buf = append(buf, 1)
			buf = append(buf, t.Name...)
			buf = append(buf, 0)
			buf = append(buf, t.Value...)
		}
	}
	return textKey{maphash.Bytes(textSeeds[0], buf), maphash.Bytes(textSeeds[1], buf)}, buf
}

// pipeline reads every record of its files, replays them on several
// workers and hands the results to a sink in input order, whatever the
// number of workers: clean, convert and import all run on it.
type pipeline struct {
	files    []string
	jobs     int
	replayer replay.Replayer
	// progress, when set, is told how many input bytes each record took.
	progress func(n int64)
	// work, when set, runs on the worker after the replay, whatever its
	// outcome (the parallel part of what the sink needs).
	work func(*item)
	// markRepeats has the reader key every record (item.text) and mark
	// those whose key an earlier record had: the workers skip them, and the
	// sink settles them from the earlier copy (or calls process). Archives
	// that overlap repeat many games; import need not replay them twice.
	markRepeats bool
	// repeatTags are tags whose values a repeat must share as well.
	repeatTags []string
	// noMoveNumbers has the readers keep every element but the move
	// numbers (import: the database stores comments and variations, and
	// export numbers the moves again).
	noMoveNumbers bool
	// mainLineOnly has the readers keep only the main line (book: it
	// reads no comments or variations).
	mainLineOnly bool
	// encoding, when not Auto, is --encoding: every record is decoded
	// from it.
	encoding textenc.Encoding
}

// process replays an item and runs work on it, as a worker does.
func (p *pipeline) process(rp *replay.Replayer, it *item) {
	if it.hasRec {
		it.err = rp.Replay(&it.rec, &it.game)
	}
	if p.work != nil {
		p.work(it)
	}
}

// bundleSize is how many records travel the pipeline together. Handed
// over one at a time, the reader, the workers and the sink woke each
// other some 8,000 times a second, and the pgnmentor import used 1.7 of
// its 2 cores while it read and replayed; in bundles of 16, 1.8 (twice
// four or five alternating runs: 4.77 → 4.53 s and 5.10 → 4.86 s;
// issue 18, import ≥ 0.5× SCID).
const bundleSize = 16

// bundle is the pipeline's unit of work: consecutive records, read,
// replayed and released together.
type bundle struct {
	seq   int
	items []*item
}

func (p *pipeline) run(ctx context.Context, sink func(*item) error) error {
	jobs := max(p.jobs, 1)
	// Enough bundles that one a worker is slow on does not hold the rest
	// back: the sink takes them in order.
	pool := make(chan *bundle, 4*jobs+2)
	for i := 0; i < cap(pool); i++ {
		b := &bundle{items: make([]*item, 0, bundleSize)}
		for range bundleSize {
			b.items = append(b.items, &item{})
		}
		pool <- b
	}
	work := make(chan *bundle, cap(pool))
	done := make(chan *bundle, cap(pool))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var readErr error
	go func() { // reader: files in order, records in order
		defer close(work)
		readErr = p.read(ctx, pool, work)
	}()
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rp := p.replayer
			for b := range work {
				for _, it := range b.items {
					if !it.repeat {
						p.process(&rp, it)
					}
				}
				done <- b
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()

	// Collector: bundles come back in any order; release them in order.
	pending := map[int]*bundle{}
	next := 0
	var sinkErr error
	for b := range done {
		pending[b.seq] = b
		for {
			cur, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			for _, it := range cur.items {
				if sinkErr == nil {
					if sinkErr = sink(it); sinkErr != nil {
						cancel()
					}
				}
			}
			pool <- cur
		}
	}
	if sinkErr != nil {
		return sinkErr
	}
	return readErr
}

func (p *pipeline) read(ctx context.Context, pool, work chan *bundle) error {
	seq := 0
	var seen map[textKey]int // each key's first record, by place
	var keyBuf []byte
	if p.markRepeats {
		seen = map[textKey]int{}
	}
	place := 0      // the next item's
	var cur *bundle // being filled
	send := func() {
		if cur != nil && len(cur.items) > 0 {
			work <- cur
		}
		cur = nil
	}
	emit := func(fill func(*item)) bool {
		if cur == nil {
			select {
			case cur = <-pool:
			case <-ctx.Done():
				return false
			}
			cur.seq = seq
			seq++
			cur.items = cur.items[:0]
		}
		n := len(cur.items)
		cur.items = cur.items[:n+1] // the bundle's items stay within its capacity
		it := cur.items[n]
		*it = item{rec: it.rec, game: it.game, out: it.out, ready: it.ready, n: place}
		place++
		it.out.Reset()
		fill(it)
		if len(cur.items) == cap(cur.items) {
			send()
		}
		return true
	}
	defer send()
	for _, f := range p.files {
		r, err := importer.Open(f)
		if err != nil {
			err = &importer.UnreadableError{File: f, Reason: fmt.Sprintf("cannot be opened (%v)", err), Err: err}
			if !emit(func(it *item) { it.file, it.readErr = f, err }) {
				return ctx.Err()
			}
			continue
		}
		r.ReuseRecord, r.NoMoveNumbers, r.MainLineOnly, r.Encoding = true, p.noMoveNumbers, p.mainLineOnly, p.encoding
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			sticky := err != nil && r.Err() != nil // the file is done (in an archive, a member's errors are not)
			ok := emit(func(it *item) {
				it.file, it.readErr = f, err
				if rec != nil {
					copyRecord(&it.rec, rec)
					it.hasRec = true
					if seen != nil && err == nil {
						var key textKey
						key, keyBuf = textKeyOf(rec, keyBuf, p.repeatTags)
						if it.repeatOf, it.repeat = seen[key]; !it.repeat {
							seen[key] = it.n
						}
					}
				}
			})
			if !ok {
				r.Close()
				return ctx.Err()
			}
			if p.progress != nil && rec != nil {
				p.progress(int64(len(rec.Raw)))
			}
			if sticky {
				break
			}
		}
		r.Close()
	}
	return nil
}

// copyRecord deep-copies src into dst, reusing dst's buffers: readers
// reuse their record, and the pipeline keeps many in flight.
func copyRecord(dst, src *importer.Record) {
	tags, moves, elems, raw, text := dst.Tags[:0], dst.Moves[:0], dst.Elements[:0], dst.Raw[:0], dst.Text[:0]
	*dst = *src
	// The tags' names and values share one copy: a string each was a
	// fifth of the import's allocations (issue 18).
	n := 0
	for _, t := range src.Tags {
		n += len(t.Name) + len(t.Value)
	}
	var b strings.Builder
	b.Grow(n)
	for _, t := range src.Tags {
		b.WriteString(t.Name)
		b.WriteString(t.Value)
	}
	all := b.String()
	for _, t := range src.Tags {
		name, value := all[:len(t.Name)], all[len(t.Name):len(t.Name)+len(t.Value)]
		all = all[len(t.Name)+len(t.Value):]
		tags = append(tags, importer.Tag{Name: name, Value: value})
	}
	dst.Tags = tags
	dst.Moves = append(moves, src.Moves...)
	dst.Elements = append(elems, src.Elements...)
	dst.Raw = append(raw, src.Raw...)
	if len(src.Text) == len(src.Raw) && unsafe.SliceData(src.Text) == unsafe.SliceData(src.Raw) {
		// UTF-8 input: the text is the raw bytes (importer.Record), once.
		dst.Text = dst.Raw
	} else {
		if unsafe.SliceData(text) == unsafe.SliceData(raw) {
			text = nil // the record before shared it with Raw
		}
		dst.Text = append(text, src.Text...)
	}
	dst.Source.File = src.Source.File
	dst.FEN = strings.Clone(src.FEN)
	dst.Result = strings.Clone(src.Result)
	dst.Variant = strings.Clone(src.Variant)
	dst.Encoding = strings.Clone(src.Encoding)
	dst.Format = strings.Clone(src.Format)
}
