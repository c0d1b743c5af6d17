package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/importer/textenc"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query/api"
	"github.com/xqdb/xqdb/query/opening"
	"github.com/xqdb/xqdb/replay"
)

// dbFlag is the database folder every database command takes.
var dbFlag = &cli.StringFlag{Name: "db", Value: "./xqdb-data", Usage: "database folder", EnvVars: []string{"XQDB_DB"}}

var importCommand = &cli.Command{
	Name:      "import",
	Usage:     "add the valid games of archives to the database",
	ArgsUsage: "PATH...",
	Description: `Reads and validates games exactly as clean does, and stores every valid
game: its record, its positions (for tree and games) and a metadata document
(for --query). Each game is classified as it is stored: opening is its ECO
(chess) or ECCO (Xiangqi) code and opening_name the opening's name, in place
of the game's own ECO, ECCO, Opening and Variation tags, which the record
keeps (show and export write them). A game already in the database is not
stored twice, so importing a file again adds nothing. Later imports add to
the database.

--dedupe says what "already in the database" means:
   game   (default) the same start and moves, the same result, the same
          date where both records know it (1922.??.?? is 1922.03.19), and
          the same players, compared by surname and first initial after
          folding case, diacritics and Chinese script ("Carlsen, M.",
          "Magnus Carlsen" and "CARLSEN Magnus" are one player), as SCID's
          twin check does. Games with the same moves and other metadata
          are all stored; xqdb twins lists them for you to decide on.
   moves  the same start and moves alone (xqdb before 2026-12): the first
          game stored wins, whatever its players, date or result.

An import is crash-safe. Ctrl-C (or SIGTERM) stops it cleanly: the games
read so far are saved, it says "interrupted: N games saved; rerun the same
command to finish" and exits with code 130. If it is killed outright or the
power fails, the database keeps every run committed before, and reads work
on it at once. When the disk fills up it stops with "disk full" (exit 1)
before writing what the disk cannot hold. In every case, run the same
command again: the games already saved are reported as "already in the
database" (not as duplicates), the rest is added, and the result equals an
uninterrupted import.

--db must be an xqdb database, an empty folder or a new one: import does not
write a database among other files.

A record with tags but no moves (a broadcast's results, a crosstable) is
stored as a header-only game: its metadata is searchable (games --query),
show and export write it, and position search skips it. A null move ("--")
is stored; the positions after it are not indexed.

Example:
   xqdb import --report rejects.jsonl games/`,
	Flags: append([]cli.Flag{
		dbFlag, storeFlag,
		&cli.StringFlag{Name: "game", Aliases: []string{"g"}, Value: "auto", Usage: "auto, xiangqi or chess"},
		fromFlag,
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "the number of cores", Usage: "replay on this many workers"},
		&cli.StringFlag{Name: "report", Usage: "write a JSON line per rejected or duplicate game here"},
		&cli.StringFlag{Name: "dedupe", Value: "game", Usage: "what makes a duplicate: game (moves and metadata) or moves (moves alone)"},
		&cli.IntFlag{Name: "run-games", Value: 50_000, Usage: "games buffered before each write (memory vs speed)"},
		encodingFlag,
		strictResultsFlag,
		progressFlag,
		jsonFlag,
	}, rulesFlags...),
	Action: runImport,
}

// importSummary is the --json output of import: api.ImportSummary, which
// /api/import reports too.
type importSummary = api.ImportSummary

func runImport(c *cli.Context) error {
	start := time.Now()
	// An import allocates much and keeps little; its heap stays under a soft
	// memory limit (importMemoryLimit; GOMEMLIMIT, when set, decides).
	defer debug.SetGCPercent(debug.SetGCPercent(importGCPercent))
	g, n, err := readGameNotation(c)
	if err != nil {
		return err
	}
	rules, err := readRules(c)
	if err != nil {
		return err
	}
	enc, err := readEncoding(c)
	if err != nil {
		return err
	}
	dedupe, err := index.ParseDedupe(c.String("dedupe"))
	if err != nil {
		return usagef("--dedupe: %v", err)
	}
	files, err := inputFiles(c)
	if err != nil {
		return err
	}
	textBytes := inputTextBytes(files)
	if os.Getenv("GOMEMLIMIT") == "" {
		limit := importMemoryLimit(physicalMemory(), storedBytes(location(c))+textBytes)
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	}
	if cl := serverOf(c); cl != nil {
		// The server owns the store: it runs the import (issue 17).
		return remoteImport(c, cl, files)
	}
	if err := checkOutputs(c.Args().Slice(), files, c.String("report")); err != nil {
		return err
	}
	// Games store their source file's absolute path, so that show and
	// export name it wherever they run (issue 13.15).
	if err := absolutePaths(files); err != nil {
		return err
	}
	repF, err := createOutput(c.String("report"))
	if err != nil {
		return err
	}
	defer repF.abort()
	var rep *reportWriter
	if repF != nil {
		rep = newReportWriter(repF)
	}
	s, err := index.OpenDB(location(c), index.Options{RunGames: c.Int("run-games"), Opening: classifyRecord,
		DeferCompaction: textBytes < smallImportBytes})
	if errors.Is(err, index.ErrNotDatabase) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	defer s.Close()
	gamesBefore := s.Games()
	// Ctrl-C or SIGTERM stops reading; the games read so far are saved
	// below. A second signal kills at once (stop restores the default).
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	m, err := startProgress(c, "import", "reading", "bytes", totalSize(files))
	if err != nil {
		return err
	}
	defer m.Done()
	job := importJob{files: files, jobs: c.Int("jobs"), encoding: enc, dedupe: dedupe, rep: rep, progress: m.Add, meter: m, warn: c.App.ErrWriter,
		replayer: replay.Replayer{Game: g, Notation: n, Rules: rules, StrictResults: c.Bool("strict-results"), Ranks: true, KeepEmpty: true}}
	sum, err := job.run(ctx, s)
	interrupted := errors.Is(err, context.Canceled) && ctx.Err() != nil && c.Context.Err() == nil
	if interrupted {
		err = nil
	}
	err = commitAll(firstError(err, rep.flush), repF)
	saved := s.Games() - gamesBefore
	if errors.Is(err, index.ErrDiskFull) {
		return fmt.Errorf("%w; %d games saved; free some space and rerun the same command to finish", err, saved)
	}
	if err != nil {
		return err
	}
	if interrupted {
		return cli.Exit(fmt.Sprintf("interrupted: %d games saved; rerun the same command to finish", saved), exitInterrupted)
	}
	sum.Seconds = time.Since(start).Seconds()
	if c.Bool("json") {
		return writeJSON(c.App.Writer, sum)
	}
	printImportSummary(c.App.Writer, sum, s.Dir(), s.Games())
	return nil
}

// printImportSummary prints what an import did, run here or by a server.
func printImportSummary(w io.Writer, sum importSummary, dir string, total int) {
	if sum.Unreadable > 0 {
		fmt.Fprintf(w, "%d unreadable files (see above); ", sum.Unreadable)
	}
	if sum.NotGames > 0 {
		fmt.Fprintf(w, "%d records that are not games (section titles); ", sum.NotGames)
	}
	already := ""
	if sum.AlreadySaved > 0 {
		already = fmt.Sprintf(", %d already in the database", sum.AlreadySaved)
	}
	fmt.Fprintf(w, "games %d: %d added%s, %d duplicates, %d rejected; %d positions indexed in %.1fs (%.0f games/s); database %s holds %d games\n",
		sum.Games, sum.Added, already, sum.Duplicates, sum.Rejected, sum.Positions, sum.Seconds, float64(sum.Games)/sum.Seconds, dir, total)
}

// importJob is one import into an open store: what xqdb import runs, and
// what xqdb serve runs for POST /api/import on the store it owns.
type importJob struct {
	files    []string
	jobs     int
	replayer replay.Replayer
	encoding textenc.Encoding
	dedupe   index.Dedupe
	rep      *reportWriter // nil: no report
	progress func(n int64) // told the input bytes each record took (may be nil)
	meter    *meter        // told the games read (may be nil)
	warn     io.Writer     // where unreadable files are named
}

// run imports the job's files into s and closes its writer (committing
// every run). When ctx is cancelled it stops reading, saves the games read
// so far and returns an error wrapping context.Canceled.
func (j *importJob) run(ctx context.Context, s index.DB) (importSummary, error) {
	var sum importSummary
	lastBefore := s.LastGid()
	rep := j.rep
	w, err := s.NewGameWriter()
	if err != nil {
		return sum, err
	}
	w.SetDedupe(j.dedupe)
	// A writer sizes the position index's fingerprints for the store the
	// import will leave (index.Writer.ExpectGames): the games read so far,
	// scaled by the input not yet read.
	expect, _ := w.(interface{ ExpectGames(n int) })
	total := totalSize(j.files)
	var read atomic.Int64
	progress := func(n int64) {
		read.Add(n)
		if j.progress != nil {
			j.progress(n)
		}
	}
	p := &pipeline{files: j.files, jobs: j.jobs, progress: progress, markRepeats: true, noMoveNumbers: true, encoding: j.encoding,
		replayer: j.replayer,
		work: func(it *item) {
			if it.hasRec && it.err == nil {
				it.prepared, it.err = index.Prepare(indexGame(&it.rec, &it.game))
			}
		}}
	if j.dedupe == index.DedupeGame {
		// A repeat of a record's moves under other names or another date
		// is another game: replay it (the index compares folded names).
		p.repeatTags = []string{"White", "Red", "Black", "Date"}
	}
	// gids holds the game each record was stored as or found stored as
	// (0: none), by its place in the input (item.n): a record repeating
	// one of them is that game again. A map by text key was a tenth of
	// the sink's time, and 35 MB at a million games.
	var gids []uint32
	own := p.replayer // for repeats of rejected records, replayed here
	duplicate := func(it *item, gid uint32) error {
		if gid <= lastBefore && savedFrom(s, gid, it) {
			sum.AlreadySaved++
			return nil
		}
		sum.Duplicates++
		src := it.rec.Source
		return rep.write(reportLine{File: src.File, Game: src.Game, Offset: src.Offset, Line: src.Line,
			Kind: "duplicate", Reason: fmt.Sprintf("already stored as game %d", gid), DuplicateOf: &gameRef{ID: gid}})
	}
	err = p.run(ctx, func(it *item) error {
		gids = append(gids, 0) // gids[it.n]: the sink takes every item, in order
		if l, ok := unreadableFile(it, j.warn); ok {
			sum.Unreadable++
			return rep.write(l)
		}
		if l, ok := notAGame(it); ok {
			sum.NotGames++
			return rep.write(l)
		}
		sum.Games++
		j.meter.Games(sum.Games)
		if expect != nil && sum.Games%4096 == 1 {
			if r := read.Load(); r > 0 && total > r {
				expect.ExpectGames(int(float64(sum.Games) * float64(total) / float64(r)))
			}
		}
		if it.repeat {
			if gid := gids[it.repeatOf]; gid != 0 {
				gids[it.n] = gid
				return duplicate(it, gid)
			}
			p.process(&own, it) // the earlier copy was rejected: say why for this one too
		}
		if !it.hasRec || it.err != nil {
			sum.Rejected++
			return rep.write(rejectLine(it))
		}
		res, err := w.AddPrepared(it.prepared)
		if err != nil {
			return err
		}
		gids[it.n] = res.Gid
		if res.Duplicate {
			return duplicate(it, res.Gid)
		}
		sum.Added++
		if len(it.game.Moves) == 0 {
			sum.HeaderOnly++
		}
		sum.Positions += it.prepared.Positions()
		for _, ge := range it.game.VariationErrors {
			sum.VariationErrors++
			if err := rep.write(variationLine(ge)); err != nil {
				return err
			}
		}
		if it.game.Mismatch != "" {
			sum.Mismatches++
			return rep.write(mismatchLine(it))
		}
		return nil
	})
	// Closing the writer merges the last runs and writes the metadata
	// index: a phase of its own, not a bar frozen at 99%. The records'
	// games are of no more use there.
	gids = nil
	j.meter.Phase("writing indexes", "", 0)
	return sum, firstError(err, w.Close)
}

// indexGame turns a replayed record into what the index stores.
func indexGame(rec *importer.Record, g *replay.Game) *index.Game {
	tags := make([]index.Tag, 0, len(rec.Tags))
	for _, t := range rec.Tags {
		// The set-up is stored as the start position (and written back
		// from it on export), not as a tag.
		if strings.EqualFold(t.Name, "FEN") || strings.EqualFold(t.Name, "SetUp") {
			continue
		}
		tags = append(tags, index.Tag{Name: t.Name, Value: t.Value})
	}
	op, _ := opening.Classify(g.Game, g.StartFEN, g.Moves, g.Keys)
	return &index.Game{
		Record: index.Record{
			Opening: op.Code, OpeningName: op.FullName(),
			Game: g.Game, StartFEN: g.StartFEN, Moves: g.Moves, Ranks: g.Ranks, Result: g.Result, Termination: g.Termination.Status, Tags: tags,
			Rulings: g.Rulings, Notes: g.Notes,
			Source: storedSource(rec),
		},
		Keys: g.Keys,
	}
}

// classifyRecord names a stored game's opening, for metadata documents
// the index rebuilds from its records (after a crash, or by reindex).
func classifyRecord(r *index.Record, keys []uint64) {
	op, _ := opening.Classify(r.Game, r.StartFEN, r.Moves, keys)
	r.Opening, r.OpeningName = op.Code, op.FullName()
}

// absolutePaths makes relative paths absolute, in place.
func absolutePaths(paths []string) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	for i, p := range paths {
		if !filepath.IsAbs(p) {
			paths[i] = filepath.Join(dir, p)
		}
	}
	return nil
}

// storedSource is where a stored game says it came from.
func storedSource(rec *importer.Record) index.Source {
	return index.Source{File: rec.Source.File, Index: rec.Source.Game, Offset: rec.Source.Offset}
}

// savedFrom reports whether stored game gid is the record it.rec itself,
// saved by an earlier import of the same file (an interrupted one, or the
// same command run again), rather than another record of the same game.
func savedFrom(s index.DB, gid uint32, it *item) bool {
	r, err := s.Game(gid)
	return err == nil && r.Source == storedSource(&it.rec)
}

// importGCPercent is the collector's setting of an import: Go's default.
// An import used to collect less often (400: the heap grew to five times
// its live size), which saved collections but grew the heap into fresh
// memory, whose first touch costs about 3 ms a MB on this project's
// virtual machine: the pgnmentor import (137,000 games) took 10.8–11.2 s
// and 20.3–21.4 CPU-seconds at 400, peaking at 1.35–1.39 GiB, and 9.5–10.4
// s and 18.1–19.6 CPU-seconds at 100, peaking at 0.90–1.01 GiB (two runs
// each of 50, 75, 100, 150 and 400, alternating, at rest; 50–150 alike).
// An import of a million games, whose memory limit sets its collections
// anyway (189 s at 400, 194 s at 100, one run each), and one of 10,000
// games, whose heap stays small (three pairs), take about the same time
// at either (issue 18).
const importGCPercent = 100

// importMemoryLimit is the heap an import aims to stay under, so that the
// whole process stays under 2 GB whatever the size of the import or of the
// database (issue 18): a quarter of the machine's memory, and within that
// what the store's files leave. The heap holds Badger's memtables and table
// buffers and Bleve's segments being built; what the process holds besides
// is the pages of the store's files that Badger and Bleve map, up to about
// twice the bytes the store will hold (the million-game import's 564 MB of
// PGN: 1.1 GB besides its 640 MiB heap at its peak of 1.76 GB). So the
// limit is 1.75 GB less twice projected, the store's bytes and the
// input's, which bound what the store will hold.
//
// The limit is 640 MiB at least (the million-game import's: its live heap
// reaches the limit at times, where the collector runs back to back) and
// 1400 MiB at most. Under a limit near its live heap (230-490 MB) an import
// hands memory back to the system and faults it in again: the pgnmentor
// import (137,000 games, 111 MB of PGN) spent 2.7 of its 33 CPU-seconds in
// madvise at 640 MiB, 0.3 at 1400 MiB (2026-12-02, load 2-5), where its
// peak was 1.36-1.43 GB. A larger limit gains nothing there: its heap
// stays under 1400 MiB (at GOGC=400 then, peak 1.45 GB with a 2000 MiB
// limit; at importGCPercent about 1 GiB).
func importMemoryLimit(physical, projected int64) int64 {
	const floor, ceiling = 640 << 20, 1400 << 20
	room := int64(1750e6) - 2*projected
	return min(max(physical/4, 1<<29), max(floor, min(room, ceiling)))
}

// storedBytes is what the database at location holds on disk (0 for a
// server's, whose files this process does not map).
func storedBytes(location string) int64 {
	if index.IsURL(location) {
		return 0
	}
	return index.DirBytes(location)
}

// compressedRatio is what inputTextBytes counts a compressed file's byte
// for: deflate packs PGN 3-4 times (the pgnmentor corpus: 3.3), so a
// compressed input is not taken for a small one.
const compressedRatio = 6

// smallImportBytes is the input below which an import leaves Badger's
// compactions to a larger one (index.Options.DeferCompaction): about
// 2,000 games of PGN.
const smallImportBytes = 1 << 20

// inputTextBytes is about how many bytes of records files hold: a gzip or
// zip archive's bytes count compressedRatio times, and what is not a
// regular file (a pipe) counts as a large input (its size is unknown).
func inputTextBytes(files []string) int64 {
	var n int64
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil || !fi.Mode().IsRegular() {
			return math.MaxInt64 / 4
		}
		n += fi.Size()
		if compressed(f) {
			n += (compressedRatio - 1) * fi.Size()
		}
	}
	return n
}

// compressed reports whether file f starts as a gzip or zip archive does
// (the importer reads archives by content, whatever their names).
func compressed(f string) bool {
	h, err := os.Open(f)
	if err != nil {
		return false
	}
	defer h.Close()
	var head [4]byte
	n, _ := io.ReadFull(h, head[:])
	return n >= 2 && head[0] == 0x1f && head[1] == 0x8b || n == 4 && string(head[:]) == "PK\x03\x04"
}

// physicalMemory reads the machine's memory from /proc/meminfo (0 when it
// cannot).
func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if n, _ := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kb); n == 1 {
			return kb << 10
		}
	}
	return 0
}
