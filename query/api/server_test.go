package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/index/indextest"
	"github.com/xqdb/xqdb/query"
	"github.com/xqdb/xqdb/query/book"
	"github.com/xqdb/xqdb/replay"
)

// fixture is a bundled real-games file (testdata/SOURCES.md).
func fixture(name string) string { return filepath.Join("..", "..", "testdata", name) }

// readGames replays the first n valid games of a fixture for the index.
func readGames(t testing.TB, name string, n int) []*index.Game {
	t.Helper()
	r, err := importer.Open(fixture(name))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rp := replay.Replayer{Ranks: true}
	var out []*index.Game
	for len(out) < n {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		var g replay.Game
		if rec == nil || rp.Replay(rec, &g) != nil {
			continue
		}
		var tags []index.Tag
		for _, tg := range rec.Tags {
			if !strings.EqualFold(tg.Name, "FEN") && !strings.EqualFold(tg.Name, "SetUp") {
				tags = append(tags, index.Tag{Name: tg.Name, Value: tg.Value})
			}
		}
		out = append(out, &index.Game{Record: index.Record{Game: g.Game, StartFEN: g.StartFEN, Moves: append([]engine.Move(nil), g.Moves...),
			Ranks: append([]uint8(nil), g.Ranks...), Result: g.Result, Termination: g.Termination.Status, Tags: tags,
			Source: index.Source{File: rec.Source.File, Index: rec.Source.Game}}, Keys: append([]uint64(nil), g.Keys...)})
	}
	return out
}

var (
	storeOnce sync.Once
	testDB    *index.Store
	testBook  string
)

// testServer serves a store of 300 CCPD and 200 pgnmentor games with a
// Polyglot book of the chess games.
func testServer(t testing.TB, cfg Config) (*Server, *index.Store) {
	t.Helper()
	storeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "xqdb-api-")
		if err != nil {
			t.Fatal(err)
		}
		s, err := index.Open(filepath.Join(dir, "db"), index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		chess := readGames(t, "pgnmentor-capablanca-fischer.pgn.gz", 200)
		indextest.Import(t, s, append(readGames(t, "ccpd-masters-3001.pgn.gz", 300), chess...))
		testDB = s
		b, err := book.NewBuilder(book.Polyglot, book.Options{MinGames: 1, MaxPly: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range chess {
			if err := b.AddGame(g.Record.StartFEN, g.Record.Moves, g.Record.Result); err != nil {
				t.Fatal(err)
			}
		}
		testBook = filepath.Join(dir, "chess.bin")
		if _, err := b.Save(testBook); err != nil {
			t.Fatal(err)
		}
	})
	if testDB == nil {
		t.Fatal("no test store")
	}
	cfg.Store = testDB
	if cfg.Books == nil {
		bk, err := book.Open(testBook, book.Polyglot)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bk.Close() })
		cfg.Books = []*book.Book{bk}
	}
	srv := New(cfg)
	t.Cleanup(srv.Close)
	return srv, testDB
}

// get calls the server and decodes its JSON answer.
func get(t *testing.T, h http.Handler, target string, v any) int {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if v != nil {
		if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
			t.Fatalf("GET %s: %d, not JSON: %q", target, rec.Code, rec.Body.String())
		}
	}
	return rec.Code
}

const xqStart = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

// TestBadParameters: every endpoint refuses each kind of bad parameter
// with 400 and a JSON error naming it.
func TestBadParameters(t *testing.T) {
	srv, _ := testServer(t, Config{})
	long := strings.Repeat("h2e2 h7e7 e2h2 e7h7 ", MaxMoves/4+1)
	tests := []struct {
		target string
		param  string
	}{
		{"/api/tree?bogus=1", "bogus"},
		{"/api/tree?game=go", "game"},
		{"/api/tree?fen=xyz", "fen"},
		{"/api/tree?fen=" + url.QueryEscape("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1"), "fen"},
		{"/api/tree?moves=h2e2+zz9", "moves"},
		{"/api/tree?moves=e4", "moves"}, // a chess move in Xiangqi
		{"/api/tree?moves=" + url.QueryEscape(long), "moves"},
		{"/api/tree?notation=klingon", "notation"},
		{"/api/tree?notation=san", "notation"}, // the other game's
		{"/api/tree?mirror=maybe", "mirror"},
		{"/api/tree?game=chess&mirror=true", "mirror"},
		{"/api/tree?query=" + url.QueryEscape(`whte:carlsen`), "query"},
		{"/api/tree?query=" + url.QueryEscape(`black:"unbalanced`), "query"},
		{"/api/tree?limit=-1", "limit"},
		{"/api/tree?limit=ten", "limit"},
		{"/api/tree?moves=h2e2&moves=h7e7", "moves"},
		{"/api/games?sort=sideways", "sort"},
		{"/api/games?limit=0", "limit"},
		{"/api/games?limit=100000", "limit"},
		{"/api/games?offset=-5", "offset"},
		{"/api/games?moves=h2e2+h2e2", "moves"},
		{"/api/games?query=" + url.QueryEscape("(white:x"), "query"},
		{"/api/games?path=/etc/passwd", "path"},
		{"/api/game/abc", "id"},
		{"/api/game/0", "id"},
		{"/api/game/99999999999", "id"},
		{"/api/game/1?notation=klingon", "notation"},
		{"/api/game/1?annotate=perhaps", "annotate"},
		{"/api/position?game=shogi", "game"},
		{"/api/position?fen=8/8/8", "fen"},
		{"/api/position?moves=h2e2+h2e2", "moves"},
		{"/api/position?game=chess&notation=wxf", "notation"},
		{"/api/position?rules=fide", "rules"},
		{"/api/position?moves=" + url.QueryEscape(long), "moves"},
		{"/api/book?book=3", "book"},
		{"/api/book?game=xiangqi", "game"},
		{"/api/book?fen=nonsense", "fen"},
		{"/api/book?moves=e4+e4", "moves"},
		{"/api/book?file=/etc/passwd", "file"},
		{"/api/stats?db=/tmp", "db"},
		{"/api/import/x", "id"},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			var e Error
			code := get(t, srv, tt.target, &e)
			if code != http.StatusBadRequest || e.Param != tt.param || e.Error == "" {
				t.Fatalf("got %d %+v, want 400 naming %q", code, e, tt.param)
			}
		})
	}
}

// TestLimits: a query string, a body and a request's time are bounded.
func TestLimits(t *testing.T) {
	srv, _ := testServer(t, Config{})
	var e Error
	if code := get(t, srv, "/api/tree?moves="+strings.Repeat("a", MaxQueryBytes), &e); code != http.StatusBadRequest || !strings.Contains(e.Error, "query string") {
		t.Errorf("long query string: %d %+v", code, e)
	}
	if code := get(t, srv, "/api/nothing", &e); code != http.StatusNotFound {
		t.Errorf("unknown endpoint: %d %+v", code, e)
	}
	// A request over its time gets 503; the handler's late answer is dropped.
	slow, _ := testServer(t, Config{Timeout: 50 * time.Millisecond, PGN: func(*index.Record, engine.Notation, bool) string {
		time.Sleep(300 * time.Millisecond)
		return ""
	}})
	if code := get(t, slow, "/api/game/1", &e); code != http.StatusServiceUnavailable || !strings.Contains(e.Error, "longer than") {
		t.Errorf("slow request: %d %+v", code, e)
	}
	// A body past MaxBodyBytes: 413.
	root := t.TempDir()
	imp, _ := testServer(t, Config{ImportRoots: []string{root}, Import: func(ImportRequest, []string) (func(context.Context, func(int64)) (ImportSummary, error), error) {
		return nil, errors.New("not reached")
	}})
	body := `{"paths":["` + strings.Repeat("x", MaxBodyBytes) + `"]}`
	rec := httptest.NewRecorder()
	imp.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/import", strings.NewReader(body)))
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("large body: %d %s", rec.Code, rec.Body)
	}
}

// TestTreeAnswersAsQuery: /api/tree is query.BuildTree in the CLI's shape.
func TestTreeAnswersAsQuery(t *testing.T) {
	srv, s := testServer(t, Config{})
	for _, tt := range []struct {
		game  engine.Game
		moves string
		query string
	}{
		{engine.Xiangqi, "", ""},
		{engine.Xiangqi, "h2e2 h9g7", ""},
		{engine.Xiangqi, "炮二平五 马８进７", ""}, // any notation
		{engine.Chess, "e4 c5", ""},
		{engine.Chess, "e2e4", "white:capablanca"},
	} {
		pos, _ := games.New(tt.game, "")
		for _, m := range strings.Fields(tt.moves) {
			mv, err := pos.ParseMove(m, engine.Auto)
			if err != nil {
				t.Fatal(err)
			}
			pos.Make(mv)
		}
		want, err := query.BuildTree(s, pos, query.Options{Query: tt.query})
		if err != nil {
			t.Fatal(err)
		}
		v := url.Values{"game": {tt.game.String()}, "moves": {tt.moves}, "query": {tt.query}}
		var got Tree
		if code := get(t, srv, "/api/tree?"+v.Encode(), &got); code != http.StatusOK {
			t.Fatalf("%v: %d", tt, code)
		}
		w := NewTree(pos, want, engine.Display(tt.game), 0)
		if o, ok := PathOpening(tt.game, "", tt.moves); ok {
			w.Opening, w.OpeningName = o.Code, o.FullName()
		}
		wb, _ := json.Marshal(w)
		gb, _ := json.Marshal(got)
		if !bytes.Equal(wb, gb) {
			t.Errorf("%v:\n got %s\nwant %s", tt, gb, wb)
		}
		if got.Games == 0 || len(got.Moves) == 0 {
			t.Errorf("%v: empty tree %s", tt, gb)
		}
	}
	// Notation and limit apply; the cached answer of another request is not reused.
	var wxf, chinese Tree
	get(t, srv, "/api/tree?limit=1", &wxf)
	get(t, srv, "/api/tree?notation=chinese&limit=1", &chinese)
	if len(wxf.Moves) != 1 || wxf.Moves[0].Move == chinese.Moves[0].Move || wxf.Moves[0].UCI != chinese.Moves[0].UCI {
		t.Errorf("notation: %+v vs %+v", wxf.Moves, chinese.Moves)
	}
}

func TestGamesGamePositionStatsBook(t *testing.T) {
	srv, s := testServer(t, Config{PGN: func(r *index.Record, n engine.Notation, _ bool) string { return "PGN of " + r.Tag("Black") }})
	var gl GameList
	if code := get(t, srv, "/api/games?moves=h2e2&limit=5&offset=2", &gl); code != http.StatusOK || len(gl.Games) != 5 || gl.Total < 7 {
		t.Fatalf("games: %d %+v", code, gl)
	}
	for _, g := range gl.Games {
		if g.Ply != 1 || g.Game != "xiangqi" {
			t.Errorf("game %+v did not reach h2e2 at ply 1", g)
		}
	}
	var fischer GameList
	get(t, srv, "/api/games?query=white:capablanca&limit=500", &fischer)
	if fischer.Total == 0 || fischer.Total != len(fischer.Games) || !strings.Contains(fischer.Games[0].White, "Capablanca") {
		t.Errorf("white:capablanca: %+v", fischer.Total)
	}
	var g StoredGame
	if code := get(t, srv, "/api/game/1?notation=iccs", &g); code != http.StatusOK {
		t.Fatalf("game 1: %d", code)
	}
	r, _ := s.Game(1)
	if len(g.Moves) != len(r.Moves) || g.PGN != "PGN of "+r.Tag("Black") || g.Moves[0].UCI != g.Moves[0].Move {
		t.Fatalf("game 1: %d moves (want %d), pgn %q", len(g.Moves), len(r.Moves), g.PGN)
	}
	// Each FEN is the position after its move: replaying the UCI list reaches it.
	pos, _ := games.New(r.Game, r.StartFEN)
	for _, m := range g.Moves {
		mv, err := pos.ParseMove(m.UCI, engine.ICCS)
		if err != nil {
			t.Fatal(err)
		}
		pos.Make(mv)
		if pos.FEN() != m.FEN {
			t.Fatalf("ply %d: FEN %s, want %s", m.Ply, m.FEN, pos.FEN())
		}
	}
	var e Error
	if code := get(t, srv, "/api/game/99999", &e); code != http.StatusNotFound || e.Param != "id" {
		t.Errorf("missing game: %d %+v", code, e)
	}
	var p Position
	if code := get(t, srv, "/api/position?game=chess&moves=f3+e5+g4+Qh4", &p); code != http.StatusOK || p.Status != "checkmate" || p.Result != "0-1" || len(p.LegalMoves) != 0 {
		t.Errorf("fool's mate: %d %+v", code, p)
	}
	get(t, srv, "/api/position", &p)
	if len(p.LegalMoves) != 44 || p.LegalMoves[0]["chinese"] == "" || p.LegalMoves[0]["vietnamese"] == "" || p.LegalMoves[0]["wxf"] == "" || p.LegalMoves[0]["iccs"] == "" {
		t.Errorf("start: %d legal moves %v", len(p.LegalMoves), p.LegalMoves[:1])
	}
	var st Stats
	if code := get(t, srv, "/api/stats", &st); code != http.StatusOK || st.Games != s.Games() || st.PerGame["xiangqi"] != 300 || st.PerGame["chess"] != 200 {
		t.Errorf("stats: %d %+v", code, st)
	}
	var bp BookProbe
	if code := get(t, srv, "/api/book?moves=e4", &bp); code != http.StatusOK || bp.Format != "polyglot" || len(bp.Moves) == 0 {
		t.Errorf("book: %d %+v", code, bp)
	}
	none, _ := testServer(t, Config{Books: []*book.Book{}})
	if code := get(t, none, "/api/book", &e); code != http.StatusNotFound || e.Param != "book" {
		t.Errorf("no book: %d %+v", code, e)
	}
}

// TestPastedMoveLists: moves= reads a move list as people paste it, in
// any notation of the game and with PGN's move numbers, results, comments
// and variations, as the CLI's --moves does (issue 17: the page's move box
// sends the text as typed). The answer's line says what each move was, in
// every notation; a tree of the same text is the tree of those moves.
func TestPastedMoveLists(t *testing.T) {
	srv, _ := testServer(t, Config{})
	for _, tt := range []struct {
		game, text string
		want       []string // coordinates
	}{
		{"xiangqi", "1. 炮二平五 马８进７ 2. 马二进三 *", []string{"h2e2", "h9g7", "h0g2"}},
		{"xiangqi", "1. 砲二平五 馬８進７ 2. 傌二進三 {traditional} 1-0", []string{"h2e2", "h9g7", "h0g2"}},
		{"xiangqi", "1.C2.5 H8+7 2.H2+3", []string{"h2e2", "h9g7", "h0g2"}},
		{"xiangqi", "C2=5 h8+7", []string{"h2e2", "h9g7"}},
		{"xiangqi", "H2-E2 h9-g7", []string{"h2e2", "h9g7"}},
		{"xiangqi", "P2-5 M8.7", []string{"h2e2", "h9g7"}}, // Vietnamese: Pháo, Mã
		{"chess", "1. e4 e5 2. Nf3 (2. f4 exf4) 2... Nc6 3. Bb5+? $2 a6 1/2-1/2", []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}},
		{"chess", "1.e2-e4 e7e5 2.Ng1-f3", []string{"e2e4", "e7e5", "g1f3"}},
	} {
		var p Position
		target := "/api/position?game=" + tt.game + "&moves=" + url.QueryEscape(tt.text)
		if code := get(t, srv, target, &p); code != http.StatusOK {
			t.Errorf("%q: status %d", tt.text, code)
			continue
		}
		coord := map[string]string{"xiangqi": "iccs", "chess": "uci"}[tt.game]
		var got []string
		for _, m := range p.Line {
			got = append(got, m[coord])
			for _, f := range MoveNotations[engine.Chess] {
				if tt.game == "chess" && m[f.Field] == "" {
					t.Errorf("%q: line move %v lacks %s", tt.text, m, f.Field)
				}
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%q: line %v, want %v", tt.text, got, tt.want)
		}
		var pasted, plain Tree
		get(t, srv, "/api/tree?game="+tt.game+"&moves="+url.QueryEscape(tt.text), &pasted)
		get(t, srv, "/api/tree?game="+tt.game+"&moves="+strings.Join(tt.want, "+"), &plain)
		if pasted.FEN != plain.FEN || pasted.Games != plain.Games {
			t.Errorf("%q: tree at %s (%d games), want %s (%d)", tt.text, pasted.FEN, pasted.Games, plain.FEN, plain.Games)
		}
	}
	var e Error
	if code := get(t, srv, "/api/position?game=chess&moves="+url.QueryEscape("1. e4 e5 2. Qxf7"), &e); code != http.StatusBadRequest || e.Param != "moves" || !strings.Contains(e.Error, `"Qxf7"`) {
		t.Errorf("bad pasted move: %d %+v", code, e)
	}
}

// TestAnswersFollowCommits: tree and games answers are cached per
// committed state, so a commit (here, a second writer's games) is seen by
// the next request, and a repeated request before it gets the same bytes.
func TestAnswersFollowCommits(t *testing.T) {
	s, err := index.Open(filepath.Join(t.TempDir(), "db"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	gs := readGames(t, "ccpd-masters-3001.pgn.gz", 120)
	indextest.Import(t, s, gs[:60])
	srv := New(Config{Store: s, Books: []*book.Book{}})
	defer srv.Close()
	raw := func(target string) string {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", target, rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	const tree, list = "/api/tree?moves=h2e2", "/api/games?moves=h2e2&limit=500"
	counts := func() (int, int) {
		var tr Tree
		var gl GameList
		if json.Unmarshal([]byte(raw(tree)), &tr) != nil || json.Unmarshal([]byte(raw(list)), &gl) != nil {
			t.Fatal("bad JSON")
		}
		return tr.Games, gl.Total
	}
	t1, g1 := counts()
	if raw(tree) != raw(tree) || raw(list) != raw(list) {
		t.Error("a repeated request got another answer")
	}
	indextest.Import(t, s, gs[60:])
	t2, g2 := counts()
	pos, _ := games.New(engine.Xiangqi, "")
	mv, _ := pos.ParseMove("h2e2", engine.ICCS)
	pos.Make(mv)
	want, err := query.BuildTree(s, pos, query.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if t1 == 0 || t2 <= t1 || g2 <= g1 || t2 != want.Games || g2 != want.Games {
		t.Errorf("h2e2: tree %d then %d, games %d then %d; the store says %d", t1, t2, g1, g2, want.Games)
	}
}

// TestImportPaths: only absolute paths below an import root reach the
// file system; a symlink out of a root is refused too.
func TestImportPaths(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	in := filepath.Join(root, "a.pgn")
	os.WriteFile(in, []byte("[Event \"x\"]\n\n1. e4 e5 *\n"), 0o644)
	out := filepath.Join(outside, "b.pgn")
	os.WriteFile(out, []byte("[Event \"y\"]\n\n1. d4 *\n"), 0o644)
	os.Symlink(out, filepath.Join(root, "escape.pgn"))
	release := make(chan struct{})
	var once sync.Once
	defer once.Do(func() { close(release) }) // before the server's Close
	var gotFiles []string
	imp := func(req ImportRequest, files []string) (func(context.Context, func(int64)) (ImportSummary, error), error) {
		if req.Dedupe == "sometimes" {
			return nil, ParamError("dedupe", errors.New("unknown dedupe"))
		}
		gotFiles = files
		return func(ctx context.Context, progress func(int64)) (ImportSummary, error) {
			progress(10)
			<-release
			return ImportSummary{Games: 1, Added: 1}, nil
		}, nil
	}
	srv, _ := testServer(t, Config{ImportRoots: []string{root}, Import: imp})
	post := func(body string) (int, Error, ImportStatus) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/import", strings.NewReader(body)))
		var e Error
		var st ImportStatus
		json.Unmarshal(rec.Body.Bytes(), &e)
		json.Unmarshal(rec.Body.Bytes(), &st)
		return rec.Code, e, st
	}
	for _, tt := range []struct {
		body  string
		code  int
		param string
	}{
		{`not json`, 400, "body"},
		{`{"paths":["` + in + `"],"delete":true}`, 400, "body"},
		{`{"paths":[]}`, 400, "paths"},
		{`{"paths":["a.pgn"]}`, 403, "paths"},
		{`{"paths":["` + out + `"]}`, 403, "paths"},
		{`{"paths":["` + root + `/../` + filepath.Base(outside) + `/b.pgn"]}`, 403, "paths"},
		{`{"paths":["` + filepath.Join(root, "escape.pgn") + `"]}`, 403, "paths"}, // a symlink out
		{`{"paths":["` + filepath.Join(root, "missing.pgn") + `"]}`, 403, "paths"},
		{`{"paths":["` + in + `"],"dedupe":"sometimes"}`, 400, "dedupe"},
	} {
		code, e, _ := post(tt.body)
		if code != tt.code || e.Param != tt.param {
			t.Errorf("%s: %d %+v, want %d naming %q", tt.body, code, e, tt.code, tt.param)
		}
	}
	code, _, st := post(`{"paths":["` + in + `"]}`)
	if code != http.StatusAccepted || st.ID != 1 || st.State != "running" || len(gotFiles) != 1 {
		t.Fatalf("start: %d %+v %v", code, st, gotFiles)
	}
	if code, e, _ := post(`{"paths":["` + in + `"]}`); code != http.StatusConflict {
		t.Errorf("second import while one runs: %d %+v", code, e)
	}
	once.Do(func() { close(release) })
	for st.State == "running" {
		time.Sleep(5 * time.Millisecond)
		get(t, srv, "/api/import/1", &st)
	}
	if st.State != "done" || st.Summary == nil || st.Summary.Added != 1 || st.BytesDone != 10 {
		t.Errorf("finished: %+v", st)
	}
	var e Error
	if code := get(t, srv, "/api/import/7", &e); code != http.StatusNotFound {
		t.Errorf("unknown import: %d", code)
	}
	noRoots, _ := testServer(t, Config{Import: imp})
	rec := httptest.NewRecorder()
	noRoots.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/import", strings.NewReader(`{"paths":["`+in+`"]}`)))
	if rec.Code != http.StatusForbidden {
		t.Errorf("no import root: %d", rec.Code)
	}
}

// TestPage: the page and its files are served, small, with no request
// to another host.
func TestPage(t *testing.T) {
	srv, _ := testServer(t, Config{})
	total := 0
	for _, path := range []string{"/", "/app.js", "/style.css"} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK || rec.Body.Len() == 0 {
			t.Fatalf("%s: %d", path, rec.Code)
		}
		body := rec.Body.String()
		total += len(body)
		for _, bad := range []string{"http://", "https://", "//cdn"} {
			if strings.Contains(strings.ReplaceAll(body, "http://www.w3.org/2000/svg", ""), bad) {
				t.Errorf("%s refers to another host (%q)", path, bad)
			}
		}
	}
	if total > 300<<10 {
		t.Errorf("page weighs %d bytes, over 300 KB", total)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", rec.Code)
	}
}

// FuzzParams: no query string makes an endpoint panic or fail otherwise
// than with 400 (bad input) or 404 (no such game).
func FuzzParams(f *testing.F) {
	for _, s := range []string{"moves=h2e2+h9g7", "game=chess&moves=e4+c5&notation=uci", "fen=8/8/8/8/8/8/8/8+w+-+-+0+1&game=chess",
		"mirror=true&query=black:x", "limit=3&offset=2&sort=rating", "moves=%E7%82%AE%E4%BA%8C%E5%B9%B3%E4%BA%94", "notation=chinese&rules=asian"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		srv, _ := testServer(t, Config{})
		for _, path := range []string{"/api/tree", "/api/games", "/api/position", "/api/book", "/api/game/1"} {
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.URL.Path, req.URL.RawQuery = path, raw
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest {
				t.Fatalf("%s?%s: %d %s", path, raw, rec.Code, rec.Body)
			}
			if !json.Valid(rec.Body.Bytes()) {
				t.Fatalf("%s?%s: not JSON: %q", path, raw, rec.Body)
			}
		}
	})
}

// BenchmarkTreeRequest is one /api/tree request through the handler (no
// network): answered from the cache (a position asked before on the same
// committed state) and computed (a new request each time: the cache is
// emptied).
func BenchmarkTreeRequest(b *testing.B) {
	srv, _ := testServer(b, Config{})
	targets := []string{"/api/tree?moves=h2e2", "/api/tree?moves=h2e2+h9g7&limit=12", "/api/tree?game=chess&moves=e4+c5", "/api/tree"}
	for _, cached := range []bool{true, false} {
		name := map[bool]string{true: "cached", false: "computed"}[cached]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if !cached {
					srv.cache.mu.Lock()
					srv.cache.m = nil
					srv.cache.mu.Unlock()
				}
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, targets[i%len(targets)], nil))
				if rec.Code != http.StatusOK {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}
