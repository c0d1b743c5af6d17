package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/importer/record"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query"
	"github.com/xqdb/xqdb/query/book"
)

// Limits of a request. A request past them gets 400 naming the parameter
// (or 413 for a body, 503 for time): a page on another tab cannot make the
// server read, compute or send without bound.
const (
	// MaxQueryBytes bounds the URL's query string (a move list of a long
	// game is about 2 KB).
	MaxQueryBytes = 16 << 10
	// MaxBodyBytes bounds a POST body (/api/import).
	MaxBodyBytes = 64 << 10
	// MaxMoves bounds a move list.
	MaxMoves = 1000
	// MaxGames bounds a page of /api/games.
	MaxGames = 500
	// DefaultTimeout bounds the time of one request; StatsTimeout that of
	// /api/stats, which reads the whole store.
	DefaultTimeout = 10 * time.Second
	StatsTimeout   = 5 * time.Minute
)

// Config is what a Server serves.
type Config struct {
	// Store is the open database. When it has a Read method (a Badger
	// store: index.Store.Read), every query runs inside it, so that an
	// import the server runs commits between queries, never during one.
	Store index.DB
	// Books are opening books /api/book probes (?book=N, from 0).
	Books []*book.Book
	// BookNames name them (their files), for /api/book's error messages.
	BookNames []string
	// PGN writes a stored game as PGN in notation n (cmd/xqdb's show).
	PGN func(r *index.Record, n engine.Notation, annotate bool) string
	// Import, when set, prepares an import for /api/import (nil: imports
	// are refused). ImportRoots are the folders its paths must lie in.
	Import      ImportFunc
	ImportRoots []string
	// Timeout bounds one request (DefaultTimeout when 0).
	Timeout time.Duration
}

// Server is the HTTP API and the explorer page over one store.
type Server struct {
	cfg     Config
	mux     *http.ServeMux
	bookMu  []sync.Mutex // a book is probed by one request at a time
	imports imports
	cache   answerCache
}

// New returns a server for cfg. Call Close to stop a running import
// (its games read so far are saved) before closing the store.
func New(cfg Config) *Server {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), bookMu: make([]sync.Mutex, len(cfg.Books))}
	s.imports.init(cfg)
	s.mux.HandleFunc("GET /api/tree", s.handleTree)
	s.mux.HandleFunc("GET /api/games", s.handleGames)
	s.mux.HandleFunc("GET /api/game/{id}", s.handleGame)
	s.mux.HandleFunc("GET /api/position", s.handlePosition)
	s.mux.HandleFunc("GET /api/book", s.handleBook)
	s.mux.HandleFunc("GET /api/stats", s.handleStats)
	s.mux.HandleFunc("POST /api/import", s.handleImportStart)
	s.mux.HandleFunc("GET /api/import", s.handleImportStatus)
	s.mux.HandleFunc("GET /api/import/{id}", s.handleImportStatus)
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "", fmt.Errorf("no such endpoint %s %s", r.Method, r.URL.Path))
	})
	static, _ := fs.Sub(webFiles, "web")
	files := http.FileServerFS(static)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		files.ServeHTTP(w, r)
	})
	return s
}

// ServeHTTP applies the limits, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if len(r.URL.RawQuery) > MaxQueryBytes {
		writeError(w, http.StatusBadRequest, "", fmt.Errorf("query string of %d bytes (at most %d)", len(r.URL.RawQuery), MaxQueryBytes))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	limit := s.cfg.Timeout
	if r.URL.Path == "/api/stats" {
		// Counting reads every entry of the store: minutes on a large one.
		limit = max(limit, StatsTimeout)
	}
	ctx, cancel := context.WithTimeout(r.Context(), limit)
	defer cancel()
	tw := &timeoutWriter{w: w, h: http.Header{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.mux.ServeHTTP(tw, r.WithContext(ctx))
	}()
	select {
	case <-done:
	case <-ctx.Done():
		if tw.claim() {
			writeError(w, http.StatusServiceUnavailable, "", fmt.Errorf("request took longer than %v", limit))
		}
		<-done // the handler holds the store's read lock until it returns
	}
}

// read runs a query on the store's last committed state.
func (s *Server) read(fn func() error) error {
	if r, ok := s.cfg.Store.(interface{ Read(func() error) error }); ok {
		return r.Read(fn)
	}
	return fn()
}

// Close stops a running import (saving what it read) and waits for it.
func (s *Server) Close() { s.imports.stop() }

// timeoutWriter lets a handler write only while the request has not
// timed out, and the timeout answer only when the handler wrote nothing.
type timeoutWriter struct {
	w http.ResponseWriter
	// h is the handler's header, copied into w's when it answers first:
	// the handler may still set headers after the timeout's answer, which
	// wrote w's header map from another goroutine (go test -race).
	h       http.Header
	mu      sync.Mutex
	started bool
	timeout bool
}

// start sends the handler's header; under mu.
func (t *timeoutWriter) start() {
	t.started = true
	maps.Copy(t.w.Header(), t.h)
}

func (t *timeoutWriter) claim() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.started {
		return false
	}
	t.timeout = true
	return true
}

func (t *timeoutWriter) Header() http.Header { return t.h }

func (t *timeoutWriter) WriteHeader(code int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.timeout || t.started {
		return
	}
	t.start()
	t.w.WriteHeader(code)
}

func (t *timeoutWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.timeout {
		return 0, http.ErrHandlerTimeout
	}
	if !t.started {
		t.start()
	}
	return t.w.Write(b)
}

// Error is the JSON of a failed request: Param names the parameter at
// fault, when one is.
type Error struct {
	Error string `json:"error"`
	Param string `json:"param,omitempty"`
	Hint  string `json:"hint,omitempty"`
}

// paramError is a bad parameter: 400.
type paramError struct {
	param string
	err   error
}

func (e *paramError) Error() string { return e.param + ": " + e.err.Error() }
func (e *paramError) Unwrap() error { return e.err }

func badParam(param string, err error) error { return &paramError{param, err} }

func writeError(w http.ResponseWriter, code int, param string, err error) {
	e := Error{Error: err.Error(), Param: param}
	var qe *index.QueryError
	if errors.As(err, &qe) {
		e.Hint = qe.Hint
	}
	writeJSON(w, code, e)
}

// fail answers err: 400 for a bad parameter, 500 otherwise.
func fail(w http.ResponseWriter, err error) {
	var pe *paramError
	if errors.As(err, &pe) {
		writeError(w, http.StatusBadRequest, pe.param, err)
		return
	}
	if errors.Is(err, index.ErrNoMetadata) {
		writeError(w, http.StatusInternalServerError, "", fmt.Errorf("%w; rebuild it with xqdb reindex --metadata", err))
		return
	}
	writeError(w, http.StatusInternalServerError, "", err)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"encode answer"}`+"\n")
	}
	writeRaw(w, code, b)
}

func writeRaw(w http.ResponseWriter, code int, b []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(b)
}

// marshal writes v as the CLI's writeJSON does: one line, UTF-8 unescaped.
func marshal(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// params reads a request's parameters, refusing those the endpoint does
// not know and those given twice.
type params struct {
	v     map[string][]string
	known map[string]bool
}

func readParams(r *http.Request, known ...string) (*params, error) {
	v := r.URL.Query()
	p := &params{v: v, known: map[string]bool{}}
	for _, k := range known {
		p.known[k] = true
	}
	for k, vals := range v {
		if !p.known[k] {
			return nil, badParam(k, fmt.Errorf("unknown parameter (this endpoint takes %s)", strings.Join(known, ", ")))
		}
		if len(vals) > 1 {
			return nil, badParam(k, errors.New("given more than once"))
		}
	}
	return p, nil
}

func (p *params) str(k string) string {
	if vals := p.v[k]; len(vals) > 0 {
		return vals[0]
	}
	return ""
}

func (p *params) has(k string) bool { return len(p.v[k]) > 0 }

func (p *params) boolean(k string) (bool, error) {
	switch strings.ToLower(p.str(k)) {
	case "", "0", "false", "no", "off":
		return false, nil
	case "1", "true", "yes", "on":
		return true, nil
	}
	return false, badParam(k, fmt.Errorf("%q is not a boolean (want true or false)", p.str(k)))
}

func (p *params) integer(k string, def, lo, hi int) (int, error) {
	if !p.has(k) {
		return def, nil
	}
	n, err := strconv.Atoi(p.str(k))
	if err != nil || n < lo || n > hi {
		return 0, badParam(k, fmt.Errorf("%q is not a number from %d to %d", p.str(k), lo, hi))
	}
	return n, nil
}

// asked is a position a request asks about.
type asked struct {
	game    engine.Game
	fen     string // as given ("" for the start)
	moves   []string
	pos     engine.Position
	display engine.Notation
}

// readGame reads game=; without it the FEN's shape says, else Xiangqi.
func (p *params) game() (engine.Game, error) {
	if p.has("game") {
		g, err := engine.ParseGame(p.str("game"))
		if err != nil {
			return 0, badParam("game", err)
		}
		return g, nil
	}
	if record.FENRanks(p.str("fen")) == 8 {
		return engine.Chess, nil
	}
	return engine.Xiangqi, nil
}

// position reads game, fen, moves (any notation) and notation (the one
// answers are written in; default the game's usual: WXF, SAN).
func (p *params) position(g engine.Game, gameSet bool) (*asked, error) {
	a := &asked{game: g, fen: p.str("fen")}
	var err error
	if !gameSet {
		if a.game, err = p.game(); err != nil {
			return nil, err
		}
	}
	a.pos, err = games.New(a.game, a.fen)
	if err != nil {
		return nil, badParam("fen", err)
	}
	a.moves = MoveTokens(p.str("moves"))
	if len(a.moves) > MaxMoves {
		return nil, badParam("moves", fmt.Errorf("%d moves (at most %d)", len(a.moves), MaxMoves))
	}
	for i, tok := range a.moves {
		m, err := a.pos.ParseMove(tok, engine.Auto)
		if err != nil {
			return nil, badParam("moves", &MoveError{Index: i + 1, Token: tok, Err: err})
		}
		a.pos.Make(m)
	}
	n, err := engine.ParseNotation(p.str("notation"))
	if err != nil {
		return nil, badParam("notation", err)
	}
	switch {
	case n == engine.Auto:
		n = engine.Display(a.game)
	case n.Game() != a.game:
		return nil, badParam("notation", fmt.Errorf("%v is not a %v notation", n, a.game))
	}
	a.display = n
	return a, nil
}

// options reads mirror and query.
func (p *params) options(g engine.Game) (query.Options, error) {
	mirror, err := p.boolean("mirror")
	if err != nil {
		return query.Options{}, err
	}
	if mirror && g != engine.Xiangqi {
		return query.Options{}, badParam("mirror", fmt.Errorf("mirror is for Xiangqi: a %v position is not found with its mirror image", g))
	}
	q := p.str("query")
	if err := index.ValidateQuery(q); err != nil {
		return query.Options{}, badParam("query", err)
	}
	return query.Options{Mirror: mirror, Query: q}, nil
}

var positionParams = []string{"game", "fen", "moves", "notation"}

func (s *Server) handleTree(w http.ResponseWriter, r *http.Request) {
	p, err := readParams(r, append(positionParams, "mirror", "query", "limit")...)
	if err != nil {
		fail(w, err)
		return
	}
	st := s.cfg.Store
	// A request answered before on the same committed state is answered
	// from the cache, before its position is even set up.
	if s.cached(w, r) {
		return
	}
	a, err := p.position(0, false)
	if err != nil {
		fail(w, err)
		return
	}
	opt, err := p.options(a.game)
	if err != nil {
		fail(w, err)
		return
	}
	limit, err := p.integer("limit", 0, 0, 1<<20)
	if err != nil {
		fail(w, err)
		return
	}
	err = s.read(func() error {
		// Answers are cached per committed state: an import's commit
		// changes the state, and so the key.
		key := s.answerKey(r)
		t, err := query.BuildTree(st, a.pos, opt)
		if err != nil {
			var qe *index.QueryError
			if errors.As(err, &qe) {
				return badParam("query", err)
			}
			return err
		}
		out := NewTree(a.pos, t, a.display, limit)
		if o, ok := PathOpening(a.game, a.fen, strings.Join(a.moves, " ")); ok {
			out.Opening, out.OpeningName = o.Code, o.FullName()
		}
		return s.answer(w, key, out)
	})
	if err != nil {
		fail(w, err)
	}
}

func (s *Server) handleGames(w http.ResponseWriter, r *http.Request) {
	p, err := readParams(r, append(positionParams, "mirror", "query", "sort", "limit", "offset")...)
	if err != nil {
		fail(w, err)
		return
	}
	g, err := p.game()
	if err != nil {
		fail(w, err)
		return
	}
	req := query.ListRequest{}
	if p.has("fen") || p.has("moves") {
		a, err := p.position(g, true)
		if err != nil {
			fail(w, err)
			return
		}
		req.Position = a.pos
	} else if _, err := p.position(g, true); err != nil { // notation, checked alike
		fail(w, err)
		return
	}
	if req.Options, err = p.options(g); err != nil {
		fail(w, err)
		return
	}
	if req.Position == nil && p.has("game") {
		req.Filter = "game:" + g.String()
	}
	if req.Sort, err = query.ParseSort(p.str("sort")); err != nil {
		fail(w, badParam("sort", err))
		return
	}
	if req.Limit, err = p.integer("limit", 20, 1, MaxGames); err != nil {
		fail(w, err)
		return
	}
	if req.Offset, err = p.integer("offset", 0, 0, 1<<31-1); err != nil {
		fail(w, err)
		return
	}
	if s.cached(w, r) {
		return
	}
	err = s.read(func() error {
		key := s.answerKey(r)
		list, err := query.Games(s.cfg.Store, req)
		if err != nil {
			var qe *index.QueryError
			if errors.As(err, &qe) {
				return badParam("query", err)
			}
			return err
		}
		return s.answer(w, key, NewGameList(list))
	})
	if err != nil {
		fail(w, err)
	}
}

// StoredGame is the JSON of /api/game/{id}: the game as PGN and its main
// line with the position after each move.
type StoredGame struct {
	ID       uint32            `json:"id"`
	Game     string            `json:"game"`
	StartFEN string            `json:"start_fen"`
	Result   string            `json:"result"`
	Tags     map[string]string `json:"tags"`
	PGN      string            `json:"pgn"`
	Moves    []GameMove        `json:"moves"`
}

// GameMove is one move of a stored game's main line.
type GameMove struct {
	Ply  int    `json:"ply"` // from 1
	UCI  string `json:"uci"` // ICCS for Xiangqi
	Move string `json:"move"`
	FEN  string `json:"fen"` // after the move
}

func (s *Server) handleGame(w http.ResponseWriter, r *http.Request) {
	p, err := readParams(r, "notation", "annotate")
	if err != nil {
		fail(w, err)
		return
	}
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 32)
	if err != nil || id == 0 {
		fail(w, badParam("id", fmt.Errorf("%q is not a game id", r.PathValue("id"))))
		return
	}
	annotate, err := p.boolean("annotate")
	if err != nil {
		fail(w, err)
		return
	}
	n, err := engine.ParseNotation(p.str("notation"))
	if err != nil {
		fail(w, badParam("notation", err))
		return
	}
	var rec *index.Record
	err = s.read(func() error {
		var err error
		rec, err = s.cfg.Store.Game(uint32(id))
		return err
	})
	if err != nil {
		writeError(w, http.StatusNotFound, "id", fmt.Errorf("no game %d: %w", id, err))
		return
	}
	// The PGN is written as show writes it (a notation of the other game
	// gives the game's export default); the moves list in n when it is
	// the game's, else in the game's usual notation.
	pgnN := n
	if n == engine.Auto || n.Game() != rec.Game {
		n = engine.Display(rec.Game)
	}
	out := StoredGame{ID: rec.ID, Game: rec.Game.String(), StartFEN: rec.StartFEN, Result: rec.Result.String(), Tags: map[string]string{}, Moves: []GameMove{}}
	for _, t := range rec.Tags {
		out.Tags[t.Name] = t.Value
	}
	if s.cfg.PGN != nil {
		out.PGN = s.cfg.PGN(rec, pgnN, annotate)
	}
	pos, err := games.New(rec.Game, rec.StartFEN)
	if err != nil {
		fail(w, err)
		return
	}
	if out.StartFEN == "" {
		out.StartFEN = pos.FEN()
	}
	for i, m := range rec.Moves {
		if m == engine.NullMove {
			break // the positions after a null move are not the game's
		}
		gm := GameMove{Ply: i + 1, UCI: pos.FormatMove(m, engine.Coordinate(rec.Game)), Move: pos.FormatMove(m, n)}
		pos.Make(m)
		gm.FEN = pos.FEN()
		out.Moves = append(out.Moves, gm)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handlePosition(w http.ResponseWriter, r *http.Request) {
	p, err := readParams(r, "game", "fen", "moves", "notation", "rules")
	if err != nil {
		fail(w, err)
		return
	}
	g, err := p.game()
	if err != nil {
		fail(w, err)
		return
	}
	pos, err := games.New(g, p.str("fen"))
	if err != nil {
		fail(w, badParam("fen", err))
		return
	}
	n, err := engine.ParseNotation(p.str("notation"))
	if err != nil {
		fail(w, badParam("notation", err))
		return
	}
	if n != engine.Auto && n.Game() != g {
		fail(w, badParam("notation", fmt.Errorf("%v is not a %v notation", n, g)))
		return
	}
	profile, err := xiangqi.ParseProfile(p.str("rules"))
	if err != nil {
		fail(w, badParam("rules", err))
		return
	}
	moves := MoveTokens(p.str("moves"))
	if len(moves) > MaxMoves {
		fail(w, badParam("moves", fmt.Errorf("%d moves (at most %d)", len(moves), MaxMoves)))
		return
	}
	res, _, err := PlayPosition(pos, moves, n, xiangqi.Rules{Profile: profile, MoveLimit: xiangqi.DefaultMoveLimit})
	if err != nil {
		fail(w, badParam("moves", err))
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) handleBook(w http.ResponseWriter, r *http.Request) {
	p, err := readParams(r, append(positionParams, "book")...)
	if err != nil {
		fail(w, err)
		return
	}
	if len(s.cfg.Books) == 0 {
		writeError(w, http.StatusNotFound, "book", errors.New("no book: start the server with --book FILE"))
		return
	}
	i, err := p.integer("book", 0, 0, len(s.cfg.Books)-1)
	if err != nil {
		fail(w, err)
		return
	}
	bk := s.cfg.Books[i]
	g := bk.Format().Game()
	if p.has("game") {
		asked, err := p.game()
		if err != nil {
			fail(w, err)
			return
		}
		if asked != g {
			fail(w, badParam("game", fmt.Errorf("book %d is a %s book, for %v", i, bk.Format(), g)))
			return
		}
	}
	a, err := p.position(g, true)
	if err != nil {
		fail(w, err)
		return
	}
	s.bookMu[i].Lock()
	moves, err := bk.Probe(a.pos)
	s.bookMu[i].Unlock()
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, NewBookProbe(bk.Format(), a.pos, moves, a.display))
}

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	if _, err := readParams(r); err != nil {
		fail(w, err)
		return
	}
	var out Stats
	err := s.read(func() error {
		var err error
		out, err = StatsOf(s.cfg.Store)
		return err
	})
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// answerKey identifies a tree or games answer: the endpoint, the request,
// and the committed state it was computed on.
type answerKey struct {
	path  string
	last  uint32
	games int
	raw   string
}

// answerCache keeps recent tree and games answers (an explorer's users go
// back and forth over the same openings); it forgets everything when full.
type answerCache struct {
	mu sync.Mutex
	m  map[answerKey][]byte
}

const answerCacheSize = 20000

// cached answers a request from the cache (true), if it was answered
// before on the same committed state.
func (s *Server) cached(w http.ResponseWriter, r *http.Request) bool {
	var b []byte
	s.read(func() error {
		b, _ = s.cache.get(s.answerKey(r))
		return nil
	})
	if b != nil {
		writeRaw(w, http.StatusOK, b)
	}
	return b != nil
}

// answerKey is r's key in the cache; call it under s.read.
func (s *Server) answerKey(r *http.Request) answerKey {
	st := s.cfg.Store
	return answerKey{path: r.URL.Path, last: st.LastGid(), games: st.Games(), raw: r.URL.RawQuery}
}

// answer writes v as the answer to the request of key, and keeps it in
// the cache for the next one.
func (s *Server) answer(w http.ResponseWriter, key answerKey, v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	s.cache.put(key, b)
	writeRaw(w, http.StatusOK, b)
	return nil
}

func (c *answerCache) get(k answerKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[k]
	return b, ok
}

func (c *answerCache) put(k answerKey, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= answerCacheSize {
		c.m = make(map[answerKey][]byte)
	}
	c.m[k] = b
}
