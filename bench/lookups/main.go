// Command lookups times trees and game lists (the first page, newest
// first) at the same positions on several databases in one process, for
// bench/scale.sh: whether reads stay as fast after growth imports as
// before them (issue 18).
//
// Timed one store after the other, a pass of 1,000 lookups moved by up
// to 30% from one pass to the next on this project's machine, and its
// slow lookups came in runs of twenty or so consecutive ones whichever
// store was asked: the machine's time, not the store's. Here each
// position is asked of every store in turn, the first store alternating,
// so that a slow moment falls on each alike.
//
//	lookups [-rounds 5] [-warm] [-faults] [-positions FILE] DB...
//
// prints, for each database and kind, p50 / p90 / p99 in ms over every
// timed lookup and over each position's median, and the change against
// the first database. With -faults (Linux) it also counts each lookup's
// page faults (its thread's minor faults: the lookups run on one locked
// thread) and whether a garbage collection ended during it, and says what
// the slowest 1% of the lookups were: page faults, collections, or stalls
// with neither.
package main

import (
	"bufio"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query"
)

// kinds are the lookups timed: what xqdb tree and xqdb games answer for a
// position with their default options.
var kinds = []struct {
	name string
	run  func(s index.DB, pos engine.Position) error
}{
	{"tree", func(s index.DB, pos engine.Position) error {
		_, err := query.BuildTree(s, pos, query.Options{})
		return err
	}},
	{"games", func(s index.DB, pos engine.Position) error {
		_, err := query.Games(s, query.ListRequest{Position: pos, Sort: query.ByDateDesc, Limit: 20})
		return err
	}},
}

func main() {
	rounds := flag.Int("rounds", 5, "times each position is asked of each database")
	warm := flag.Bool("warm", false, "open the databases once and time the rounds after an untimed one, as a server answers")
	faults := flag.Bool("faults", false, "count each lookup's page faults and collections, and say what the slowest 1% were (Linux)")
	posFile := flag.String("positions", "positions.tsv", `positions, one "game<TAB>FEN" a line (bench/sample)`)
	flag.Parse()
	if flag.NArg() == 0 || *rounds < 1 {
		fmt.Fprintln(os.Stderr, "usage: lookups [-rounds N] [-warm] [-faults] [-positions FILE] DB...")
		os.Exit(2)
	}
	if *faults {
		// Minor faults are counted per thread (getrusage RUSAGE_THREAD).
		runtime.LockOSThread()
		details = [][][]sample{}
	}
	if err := run(*posFile, *rounds, *warm, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "lookups:", err)
		os.Exit(1)
	}
}

func run(posFile string, rounds int, warm bool, dbs []string) error {
	debug.SetGCPercent(50) // as xqdb tree and games (cmd/xqdb, readerGCPercent)
	positions, err := readPositions(posFile)
	if err != nil {
		return err
	}
	// micros[kind][store][position][round]
	micros := make([][][][]float64, len(kinds))
	for k := range kinds {
		micros[k] = make([][][]float64, len(dbs))
		for i := range dbs {
			micros[k][i] = make([][]float64, len(positions))
		}
		if details != nil {
			details = append(details, make([][]sample, len(dbs)))
		}
	}
	var open []index.DB // with -warm, the databases every round asks
	if warm {
		defer func() {
			for _, s := range open {
				s.Close()
			}
		}()
		for _, dir := range dbs {
			s, err := index.OpenDB(dir, index.Options{ReadOnly: true})
			if err != nil {
				return err
			}
			open = append(open, s)
		}
		for k := range kinds { // the untimed round
			if err := round(dbs, open, positions, k, 0, nil); err != nil {
				return err
			}
		}
	}
	for r := range rounds {
		for k := range kinds {
			if err := round(dbs, open, positions, k, r, micros[k]); err != nil {
				return err
			}
		}
	}
	fmt.Printf("%d positions, %d rounds, each position asked of the %d databases in turn; p50 / p90 / p99 in ms\n", len(positions), rounds, len(dbs))
	for k, kind := range kinds {
		var base [2][3]float64
		for i, dir := range dbs {
			all, perPos := summarize(micros[k][i])
			line := fmt.Sprintf("  %-5s %-24s every lookup %s, each position's median %s", kind.name, dir, ms(all), ms(perPos))
			if i == 0 {
				base = [2][3]float64{all, perPos}
			} else {
				line += fmt.Sprintf(": %s and %s", change(all, base[0]), change(perPos, base[1]))
			}
			fmt.Println(line)
			if details != nil {
				fmt.Println("       " + slowest(details[k][i]))
			}
		}
	}
	return nil
}

// details[kind][store] are the timed lookups with their page faults and
// collections, with -faults (nil without).
var details [][][]sample

type sample struct {
	micros float64
	faults int64 // the lookup's thread's minor page faults
	gc     bool  // a collection ended during it
}

// How slowest tells the slow lookups apart: one that faulted more than
// manyFaults pages in paid for them; one that faulted at most fewFaults
// and took stallMicros or more, with no collection, was held up by
// neither (a scheduler tick lost: 4 ms at 250 Hz).
const (
	manyFaults  = 30
	fewFaults   = 10
	stallMicros = 2500
)

// slowest says what the slowest 1% of samples were.
func slowest(samples []sample) string {
	var total int64
	for _, s := range samples {
		total += s.faults
	}
	sorted := slices.SortedFunc(slices.Values(samples), func(a, b sample) int { return cmp.Compare(b.micros, a.micros) })
	top := sorted[:max(1, len(sorted)/100)]
	var many, gcs, stalls int
	for _, s := range top {
		switch {
		case s.faults > manyFaults:
			many++
		case s.gc:
			gcs++
		case s.faults <= fewFaults && s.micros >= stallMicros:
			stalls++
		}
	}
	return fmt.Sprintf("page faults a lookup %.1f; the slowest %d: %d faulted over %d pages in, %d more overlapped a collection, %d more stalled %.1f ms or more with at most %d faults",
		float64(total)/float64(len(samples)), len(top), many, manyFaults, gcs, stalls, stallMicros/1e3, fewFaults)
}

// threadFaults returns the calling thread's minor page faults so far.
func threadFaults() int64 {
	const rusageThread = 1 // RUSAGE_THREAD (Linux)
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0
	}
	return ru.Minflt
}

var gcCycles = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}

func gcCount() uint64 {
	metrics.Read(gcCycles)
	return gcCycles[0].Value.Uint64()
}

// round asks each position of each database in turn (a tree, or a game
// list: kinds[k]) and notes the times in micros (nil: untimed). Without
// open databases it opens them and closes them after: its lookups are
// the first of their process, as those of xqdb tree --batch or games
// --batch are (Badger's tables are mapped anew, and the first touch of
// each page costs a fault), not those of a server that has answered
// them before.
func round(dbs []string, open []index.DB, positions []engine.Position, k, r int, micros [][][]float64) (err error) {
	stores := open
	if stores == nil {
		stores = make([]index.DB, len(dbs))
		defer func() {
			for _, s := range stores {
				if s != nil {
					err = errors.Join(err, s.Close())
				}
			}
		}()
		for i, dir := range dbs {
			if stores[i], err = index.OpenDB(dir, index.Options{ReadOnly: true}); err != nil {
				return err
			}
		}
	}
	for p, pos := range positions {
		for j := range stores {
			i := (j + p + r) % len(stores) // who goes first alternates
			var faults0 int64
			var gc0 uint64
			if details != nil {
				faults0, gc0 = threadFaults(), gcCount()
			}
			start := time.Now()
			if err := kinds[k].run(stores[i], pos); err != nil {
				return err
			}
			took := float64(time.Since(start).Nanoseconds()) / 1e3
			if micros != nil {
				micros[i][p] = append(micros[i][p], took)
				if details != nil {
					details[k][i] = append(details[k][i], sample{took, threadFaults() - faults0, gcCount() != gc0})
				}
			}
		}
	}
	return nil
}

// summarize returns the p50, p90 and p99 of every sample and of each
// position's median over the rounds.
func summarize(byPos [][]float64) (all, perPos [3]float64) {
	var every, medians []float64
	for _, v := range byPos {
		every = append(every, v...)
		medians = append(medians, median(v))
	}
	return percentiles(every), percentiles(medians)
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// percentiles returns the nearest-rank p50, p90 and p99 of v.
func percentiles(v []float64) [3]float64 {
	s := slices.Sorted(slices.Values(v))
	var out [3]float64
	for i, p := range []int{50, 90, 99} {
		out[i] = s[(p*len(s)+99)/100-1]
	}
	return out
}

func ms(p [3]float64) string {
	return fmt.Sprintf("%.2f / %.2f / %.2f", p[0]/1e3, p[1]/1e3, p[2]/1e3)
}

func change(p, base [3]float64) string {
	return fmt.Sprintf("%+.0f%% / %+.0f%% / %+.0f%%", (p[0]/base[0]-1)*100, (p[1]/base[1]-1)*100, (p[2]/base[2]-1)*100)
}

// readPositions reads "game<TAB>FEN" lines (a FEN alone is chess).
func readPositions(path string) ([]engine.Position, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []engine.Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		g, fen := engine.Chess, line
		if name, rest, ok := strings.Cut(line, "\t"); ok {
			if g, err = engine.ParseGame(name); err != nil {
				return nil, err
			}
			fen = rest
		}
		pos, err := games.New(g, fen)
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %w", path, fen, err)
		}
		out = append(out, pos)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no positions", path)
	}
	return out, nil
}
