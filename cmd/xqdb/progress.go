package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
)

// Progress of the long commands (import, clean, convert, book build,
// reindex, compact, delete, selfplay), shown the same way by all (issue 14): a bar
// on a terminal, phase after phase ("reading", then "writing indexes"), so
// that it never stands still at 99%; on a pipe or a log file a plain line
// every few seconds (what, phase, games, rate), as JSON under --json.

var progressFlag = &cli.StringFlag{Name: "progress", Value: "auto",
	Usage: "auto (a bar on a terminal, else a line every few seconds: phase, games, rate; JSON lines under --json), always (a bar) or never"}

// progressEvery is how often a plain progress line is printed.
var progressEvery = 5 * time.Second

// meter shows a command's progress on stderr. Its methods are safe for
// concurrent use; a nil meter shows nothing.
type meter struct {
	mu       sync.Mutex
	w        io.Writer
	what     string // the command: "import"
	lines    bool   // plain lines (else a bar)
	json     bool   // the lines as JSON
	phase    string
	note     string // what the command adds: "+3 =5 -2"
	unit     string // "bytes", "games" or "" (no count)
	total    int64  // of the phase, in unit; 0 unknown
	done     atomic.Int64
	games    atomic.Int64
	start    time.Time
	phaseAt  time.Time
	bar      *progressbar.ProgressBar
	stop     chan struct{}
	finished sync.WaitGroup
	once     sync.Once
}

// startProgress starts a meter of command what, in its first phase: total
// units of unit ("bytes" or "games"; "" counts nothing). --progress and
// whether stderr is a terminal decide how it shows, or that it does not.
func startProgress(c *cli.Context, what, phase, unit string, total int64) (*meter, error) {
	mode := c.String("progress")
	if mode == "" {
		mode = "auto"
	}
	w := c.App.ErrWriter
	m := &meter{w: w, what: what, start: time.Now(), stop: make(chan struct{})}
	switch mode {
	case "never":
		return nil, nil
	case "always":
	case "auto":
		m.lines = !isTerminal(w)
		m.json = m.lines && c.Bool("json")
	default:
		return nil, usagef("--progress %q: want auto, always or never", mode)
	}
	m.setPhase(phase, unit, total)
	if m.lines {
		m.finished.Add(1)
		go m.tick()
	}
	return m, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Add counts n more units of the phase (the pipeline's bytes read).
func (m *meter) Add(n int64) {
	if m == nil {
		return
	}
	m.done.Add(n)
	if !m.lines {
		m.mu.Lock()
		if m.bar != nil {
			_ = m.bar.Add64(n)
		}
		m.mu.Unlock()
	}
}

// Games sets the number of games done so far.
func (m *meter) Games(n int) {
	if m == nil {
		return
	}
	m.games.Store(int64(n))
}

// Phase starts the next phase: "writing indexes" after "reading".
func (m *meter) Phase(phase, unit string, total int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bar != nil {
		_ = m.bar.Finish()
	}
	m.setPhase(phase, unit, total)
	if m.lines {
		m.line() // a phase change is news: say it at once
	}
}

// Note sets a few words the command adds to the phase ("+3 =5 -2").
func (m *meter) Note(note string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.note = note
	if m.bar != nil {
		m.bar.Describe(m.what + ": " + m.phase + " " + note)
	}
}

// Expect sets what the current phase counts, once it is known (the
// size of the files found), without announcing a new phase.
func (m *meter) Expect(unit string, total int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bar != nil {
		_ = m.bar.Finish()
	}
	m.setPhase(m.phase, unit, total)
}

// setPhase switches to phase; m.mu is held (or m not yet shared).
func (m *meter) setPhase(phase, unit string, total int64) {
	m.phase, m.unit, m.total, m.phaseAt = phase, unit, total, time.Now()
	m.done.Store(0)
	if m.lines {
		return
	}
	max := total
	if unit == "" || total <= 0 {
		max = -1 // a spinner: the length is unknown
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(m.w),
		progressbar.OptionSetDescription(m.what + ": " + phase),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetElapsedTime(true),
	}
	switch unit {
	case "bytes":
		opts = append(opts, progressbar.OptionShowBytes(true), progressbar.OptionShowCount())
	case "games":
		opts = append(opts, progressbar.OptionShowCount(), progressbar.OptionSetItsString("games"), progressbar.OptionShowIts())
	}
	m.bar = progressbar.NewOptions64(max, opts...)
	_ = m.bar.RenderBlank()
}

// tick prints a line every progressEvery until Done.
func (m *meter) tick() {
	defer m.finished.Done()
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			m.mu.Lock()
			m.line()
			m.mu.Unlock()
		}
	}
}

// progressLine is a plain progress line under --json.
type progressLine struct {
	Progress string  `json:"progress"` // the command
	Phase    string  `json:"phase"`
	Games    int     `json:"games"`
	Done     int64   `json:"done,omitempty"`
	Total    int64   `json:"total,omitempty"`
	Unit     string  `json:"unit,omitempty"`
	Note     string  `json:"note,omitempty"`
	Rate     float64 `json:"games_per_second"`
	Seconds  float64 `json:"seconds"`
}

// line prints where the command is; m.mu is held.
func (m *meter) line() {
	secs := time.Since(m.start).Seconds()
	games, done := int(m.games.Load()), m.done.Load()
	rate := 0.0
	if secs > 0 {
		rate = float64(games) / secs
	}
	if m.json {
		_ = writeJSON(m.w, progressLine{Progress: m.what, Phase: m.phase, Games: games, Done: done, Total: m.total, Unit: m.unit, Note: m.note, Rate: rate, Seconds: secs})
		return
	}
	s := fmt.Sprintf("%s: %s", m.what, m.phase)
	switch {
	case m.unit == "bytes" && m.total > 0:
		s += fmt.Sprintf(" %.1f of %.1f MB (%.0f%%)", float64(done)/1e6, float64(m.total)/1e6, 100*float64(done)/float64(m.total))
	case m.unit == "games" && m.total > 0:
		s += fmt.Sprintf(" %d of %d games (%.0f%%)", done, m.total, 100*float64(done)/float64(m.total))
	}
	s += fmt.Sprintf(", %d games, %.0f games/s, %.0fs", games, rate, secs)
	if m.note != "" {
		s += ", " + m.note
	}
	fmt.Fprintln(m.w, s)
}

// Done ends the meter: the bar is cleared, the lines stop. It may be
// called again.
func (m *meter) Done() {
	if m == nil {
		return
	}
	m.once.Do(func() {
		close(m.stop)
		m.finished.Wait()
		m.mu.Lock()
		if m.bar != nil {
			_ = m.bar.Finish()
		}
		m.mu.Unlock()
	})
}

// totalSize sums the sizes of files (the progress bar's end).
func totalSize(files []string) int64 {
	var n int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}
