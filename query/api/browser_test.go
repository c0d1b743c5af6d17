package api

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/query"
)

// chromium finds Debian's chromium (.ci/run installs it): without it the
// test skips, unless under CI, where its absence fails.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed (apt-get install chromium): the browser test cannot run")
	}
	t.Skip("chromium is not installed (apt-get install chromium); skipping the browser test")
	return ""
}

// TestExplorerInBrowser drives the page in headless Chromium: it plays a
// move by clicking the board, then clicks a move of the tree, and checks
// after each that the board, the tree and the games list show the right
// position; it saves a screenshot in the test's artifact folder.
func TestExplorerInBrowser(t *testing.T) {
	exe := chromium(t)
	srv, store := testServer(t, Config{})
	hs := httptest.NewServer(srv)
	defer hs.Close()

	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1300, 950),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true)}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()

	// idle waits until the page has its answers for fen.
	idle := func(fen string) chromedp.Action[bool] {
		return chromedp.Poll[bool](fmt.Sprintf(`document.body.dataset.busy === "0" && document.body.dataset.fen === %q && document.querySelector("#tree").dataset.fen === %q`, fen, fen),
			chromedp.WithPollingTimeout(20*time.Second))
	}
	// check compares what the page shows with the store's answers.
	check := func(moves string) {
		t.Helper()
		pos, _ := games.New(engine.Xiangqi, "")
		for _, m := range strings.Fields(moves) {
			mv, err := pos.ParseMove(m, engine.ICCS)
			if err != nil {
				t.Fatal(err)
			}
			pos.Make(mv)
		}
		fen := pos.FEN()
		if _, err := chromedp.Run(ctx, idle(fen)); err != nil {
			t.Fatalf("after %q the page did not show %s: %v", moves, fen, err)
		}
		read := func(js string) string {
			v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
			if err != nil {
				t.Fatalf("after %q: %s: %v", moves, js, err)
			}
			return v
		}
		boardFEN := read(`document.querySelector("#board svg").dataset.fen`)
		ids := read(`[...document.querySelectorAll("#games tbody tr")].map(r => r.dataset.id).join(" ")`)
		treeUCI := read(`[...document.querySelectorAll("#tree tbody tr")].map(r => r.dataset.uci).join(" ")`)
		if boardFEN != fen {
			t.Errorf("after %q the board shows %s, want %s", moves, boardFEN, fen)
		}
		tree, err := query.BuildTree(store, pos, query.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, m := range tree.Moves {
			want = append(want, pos.FormatMove(m.Move, engine.ICCS))
		}
		if treeUCI != strings.Join(want, " ") || len(want) == 0 {
			t.Errorf("after %q the tree lists %q, want %q", moves, treeUCI, strings.Join(want, " "))
		}
		list, err := query.Games(store, query.ListRequest{Position: pos, Sort: query.ByDateDesc, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		var wantIDs []string
		for _, g := range list.Games {
			wantIDs = append(wantIDs, strconv.Itoa(int(g.Record.ID)))
		}
		if ids != strings.Join(wantIDs, " ") || len(wantIDs) == 0 {
			t.Errorf("after %q the games list shows %q, want %q", moves, ids, strings.Join(wantIDs, " "))
		}
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(hs.URL+"/")); err != nil {
		t.Fatalf("open the page: %v", err)
	}
	check("")
	// Play 炮二平五 by clicking the cannon, then its target.
	clicked := time.Now()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`rect[data-sq="h2"]`)), chromedp.Click(chromedp.CSS(`rect[data-sq="e2"]`))); err != nil {
		t.Fatal(err)
	}
	check("h2e2")
	// For information (a timed test would fail on a busy machine): the
	// clicks, the three requests and the drawing.
	t.Logf("a move by two clicks to its tree and games: %v", time.Since(clicked))
	// Click the tree's most played reply.
	reply, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#tree tbody tr").dataset.uci`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#tree tbody tr"))); err != nil {
		t.Fatal(err)
	}
	check("h2e2 " + reply)
	// An illegal click changes nothing: a black piece is not Red's to move.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`rect[data-sq="a0"]`)), chromedp.Click(chromedp.CSS(`rect[data-sq="a5"]`))); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100: PNG
	if err != nil {
		t.Fatal(err)
	}
	check("h2e2 " + reply)
	if len(shot) < 8 || !slices.Equal(shot[1:4], []byte("PNG")) {
		t.Fatalf("screenshot: %d bytes", len(shot))
	}
	path := filepath.Join(t.ArtifactDir(), "explorer.png")
	if !strings.HasSuffix(path, ".png") || os.WriteFile(path, shot, 0o644) != nil {
		t.Fatal("cannot save the screenshot")
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(shot))
}
