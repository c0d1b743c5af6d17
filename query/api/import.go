package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/xqdb/xqdb/importer"
)

// ImportRequest is the body of POST /api/import. Paths are absolute
// files or folders below one of the server's --import-root folders; the
// other fields are xqdb import's flags of the same names ("" for their
// defaults).
type ImportRequest struct {
	Paths         []string `json:"paths"`
	Game          string   `json:"game,omitempty"`
	Notation      string   `json:"notation,omitempty"`
	Dedupe        string   `json:"dedupe,omitempty"`
	Encoding      string   `json:"encoding,omitempty"`
	Rules         string   `json:"rules,omitempty"`
	StrictResults bool     `json:"strict_results,omitempty"`
}

// ImportFunc checks a request's options (an error names the field at
// fault with ParamError) and returns the import to run on the files the
// paths expand to: it runs on the server's store, tells progress the
// input bytes each record took, and stops (saving what it read) when ctx
// is cancelled.
type ImportFunc func(req ImportRequest, files []string) (run func(ctx context.Context, progress func(int64)) (ImportSummary, error), err error)

// ParamError is a bad parameter of a request, for ImportFunc.
func ParamError(param string, err error) error { return badParam(param, err) }

// ImportStatus is the JSON of /api/import/{id}: a job's state, its
// progress in input bytes and, once done, its summary (the JSON of xqdb
// import) or error.
type ImportStatus struct {
	ID         int            `json:"id"`
	State      string         `json:"state"` // running, done, failed, interrupted
	Files      int            `json:"files"`
	Bytes      int64          `json:"bytes"`
	BytesDone  int64          `json:"bytes_done"`
	GamesTotal int            `json:"games_total"` // the database's games now
	Summary    *ImportSummary `json:"summary,omitempty"`
	Error      string         `json:"error,omitempty"`
	Dir        string         `json:"dir"` // the database folder
}

type importJob struct {
	id        int
	files     int
	bytes     int64
	bytesDone atomic.Int64
	mu        sync.Mutex
	state     string
	summary   *ImportSummary
	err       string
	done      chan struct{}
}

// imports runs one import at a time.
type imports struct {
	cfg    Config
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	jobs   []*importJob
}

func (im *imports) init(cfg Config) {
	im.cfg = cfg
	im.ctx, im.cancel = context.WithCancel(context.Background())
}

func (im *imports) stop() {
	im.cancel()
	im.mu.Lock()
	jobs := append([]*importJob(nil), im.jobs...)
	im.mu.Unlock()
	for _, j := range jobs {
		<-j.done
	}
}

// allowed resolves path (absolute, symlinks followed) and checks that it
// lies in one of the import roots.
func allowed(roots []string, path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%q is not an absolute path", path)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(path))
	if err != nil {
		return "", fmt.Errorf("%q: %w", path, errors.Unwrap(err))
	}
	for _, root := range roots {
		rr, err := filepath.EvalSymlinks(root)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(rr, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return real, nil
		}
	}
	return "", fmt.Errorf("%q is not below an import root (the server's --import-root)", path)
}

func (s *Server) handleImportStart(w http.ResponseWriter, r *http.Request) {
	if _, err := readParams(r); err != nil {
		fail(w, err)
		return
	}
	im := &s.imports
	if s.cfg.Import == nil || len(s.cfg.ImportRoots) == 0 {
		writeError(w, http.StatusForbidden, "paths", errors.New("this server takes no imports: start it with --import-root DIR"))
		return
	}
	var req ImportRequest
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, "", fmt.Errorf("body over %d bytes", MaxBodyBytes))
			return
		}
		fail(w, badParam("body", fmt.Errorf("not an import request: %w", err)))
		return
	}
	if len(req.Paths) == 0 {
		fail(w, badParam("paths", errors.New("give at least one file or folder")))
		return
	}
	var real []string
	for _, p := range req.Paths {
		rp, err := allowed(s.cfg.ImportRoots, p)
		if err != nil {
			writeError(w, http.StatusForbidden, "paths", err)
			return
		}
		real = append(real, rp)
	}
	files, err := importer.Files(real)
	if err != nil {
		fail(w, badParam("paths", err))
		return
	}
	var total int64
	for _, f := range files {
		// A symlink inside a root may point out of it.
		if _, err := allowed(s.cfg.ImportRoots, f); err != nil {
			writeError(w, http.StatusForbidden, "paths", err)
			return
		}
		if fi, err := os.Stat(f); err == nil {
			total += fi.Size()
		}
	}
	run, err := s.cfg.Import(req, files)
	if err != nil {
		fail(w, err)
		return
	}
	im.mu.Lock()
	for _, j := range im.jobs {
		if j.status().State == "running" {
			im.mu.Unlock()
			writeError(w, http.StatusConflict, "", fmt.Errorf("import %d is running: one at a time", j.id))
			return
		}
	}
	if im.ctx.Err() != nil {
		im.mu.Unlock()
		writeError(w, http.StatusServiceUnavailable, "", errors.New("the server is shutting down"))
		return
	}
	j := &importJob{id: len(im.jobs) + 1, files: len(files), bytes: total, state: "running", done: make(chan struct{})}
	im.jobs = append(im.jobs, j)
	im.mu.Unlock()
	go func() {
		defer close(j.done)
		start := time.Now()
		sum, err := run(im.ctx, func(n int64) { j.bytesDone.Add(n) })
		j.mu.Lock()
		defer j.mu.Unlock()
		sum.Seconds = time.Since(start).Seconds()
		j.summary = &sum
		switch {
		case errors.Is(err, context.Canceled):
			j.state, j.err = "interrupted", "interrupted: the server stopped; the games read so far are saved"
		case err != nil:
			j.state, j.err = "failed", err.Error()
		default:
			j.state = "done"
		}
	}()
	st := j.status()
	st.Dir, st.GamesTotal = s.cfg.Store.Dir(), s.games()
	w.Header().Set("Location", "/api/import/"+strconv.Itoa(j.id))
	writeJSON(w, http.StatusAccepted, st)
}

func (s *Server) games() int {
	n := 0
	s.read(func() error { n = s.cfg.Store.Games(); return nil })
	return n
}

func (j *importJob) status() ImportStatus {
	j.mu.Lock()
	defer j.mu.Unlock()
	return ImportStatus{ID: j.id, State: j.state, Files: j.files, Bytes: j.bytes, BytesDone: j.bytesDone.Load(), Summary: j.summary, Error: j.err}
}

// handleImportStatus answers GET /api/import/{id}, or the latest job
// for GET /api/import.
func (s *Server) handleImportStatus(w http.ResponseWriter, r *http.Request) {
	if _, err := readParams(r); err != nil {
		fail(w, err)
		return
	}
	im := &s.imports
	im.mu.Lock()
	jobs := im.jobs
	im.mu.Unlock()
	var j *importJob
	if idText := r.PathValue("id"); idText != "" {
		id, err := strconv.Atoi(idText)
		if err != nil || id < 1 {
			fail(w, badParam("id", fmt.Errorf("%q is not an import id", idText)))
			return
		}
		if id > len(jobs) {
			writeError(w, http.StatusNotFound, "id", fmt.Errorf("no import %d", id))
			return
		}
		j = jobs[id-1]
	} else if len(jobs) > 0 {
		j = jobs[len(jobs)-1]
	} else {
		writeError(w, http.StatusNotFound, "", errors.New("no import yet"))
		return
	}
	st := j.status()
	st.Dir, st.GamesTotal = s.cfg.Store.Dir(), s.games()
	writeJSON(w, http.StatusOK, st)
}
