package main

import (
	"encoding/json"
	"github.com/xqdb/xqdb/query/api"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestNotationFlagIsOneFlag: --notation is the same flag, with the same
// values, default and help, in every command that has it, and --from-notation in
// every command that reads game files (issue 14).
func TestNotationFlagIsOneFlag(t *testing.T) {
	has := map[string]string{}
	eachCommand(func(path string, c *cli.Command) {
		for _, f := range c.Flags {
			switch f.Names()[0] {
			case "notation":
				if f != notationFlag {
					t.Errorf("xqdb %s has a --notation of its own", path)
				}
				has[path] += "notation "
			case "from-notation":
				if f != fromFlag {
					t.Errorf("xqdb %s has a --from-notation of its own", path)
				}
				has[path] += "from-notation "
			}
		}
	})
	for path, want := range map[string]string{
		"tree": "notation ", "games": "notation ", "export": "notation ", "show": "notation ", "position": "notation ",
		"book probe": "notation ", "clean": "notation from-notation ", "convert": "notation from-notation ", "import": "from-notation ", "classify": "from-notation ",
	} {
		if has[path] != want {
			t.Errorf("xqdb %s has flags %q, want %q", path, has[path], want)
		}
	}
}

// TestNotationOfTheOtherGame: a notation of the other game is the same
// usage error in every command: exit 2, nothing on standard output, one
// line saying whose notation it is and which the game has (issue 14).
func TestNotationOfTheOtherGame(t *testing.T) {
	db := ccpdDB(t)
	dir := t.TempDir()
	xq := writeFile(t, "xq.pgn", "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n")
	bookFile := filepath.Join(dir, "xq.obk")
	if code, _, stderr := runCLI(t, "book", "build", "-o", bookFile, xq); code != exitOK {
		t.Fatalf("book build: exit %d: %s", code, stderr)
	}
	const onXiangqi = "xqdb: --notation san is a chess notation, not a xiangqi one (xiangqi: iccs, wxf, chinese, chinese-traditional, vietnamese)\n"
	const onChess = "xqdb: --notation wxf is a xiangqi notation, not a chess one (chess: san, uci)\n"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"tree", "--db", db, "--notation", "san"}, ""}, // the notation says the game: chess
		{[]string{"tree", "--db", db, "--game", "xiangqi", "--notation", "san"}, onXiangqi},
		{[]string{"tree", "--db", db, "--moves", "h2e2", "--notation", "san"}, onXiangqi},
		{[]string{"tree", "--db", db, "--game", "chess", "--notation", "wxf"}, onChess},
		{[]string{"games", "--db", db, "--moves", "炮二平五", "--notation", "san"}, onXiangqi},
		{[]string{"games", "--db", db, "--game", "chess", "--notation", "wxf"}, onChess},
		{[]string{"export", "--db", db, "--game", "xiangqi", "--notation", "san"}, onXiangqi},
		{[]string{"show", "--db", db, "1", "--notation", "san"}, onXiangqi},
		{[]string{"position", "--moves", "h2e2", "--notation", "san"}, onXiangqi},
		{[]string{"position", "--game", "chess", "--notation", "wxf"}, onChess},
		{[]string{"book", "probe", "--book", bookFile, "--notation", "san"}, onXiangqi},
		{[]string{"clean", "--game", "xiangqi", "--notation", "san", xq}, onXiangqi},
		{[]string{"convert", "--game", "chess", "--notation", "wxf", "-o", filepath.Join(dir, "out.pgn"), xq}, onChess},
		{[]string{"import", "--db", filepath.Join(dir, "db"), "--game", "chess", "--from-notation", "wxf", xq}, strings.Replace(onChess, "--notation", "--from-notation", 1)},
		{[]string{"classify", "--game", "xiangqi", "--from-notation", "san", xq}, strings.Replace(onXiangqi, "--notation", "--from-notation", 1)},
	} {
		code, out, stderr := runCLI(t, tt.args...)
		if tt.want == "" {
			if code != exitOK {
				t.Errorf("xqdb %s: exit %d: %s", strings.Join(tt.args, " "), code, stderr)
			}
			continue
		}
		if code != exitUsage || out != "" || stderr != tt.want {
			t.Errorf("xqdb %s: exit %d, stdout %q, stderr %q; want 2 and %q", strings.Join(tt.args, " "), code, out, stderr, tt.want)
		}
	}
}

// TestNotationWrites: --notation is the notation moves are written in,
// the same default (Chinese for Xiangqi) everywhere, and --moves are read
// in any notation whatever it is (issue 14).
func TestNotationWrites(t *testing.T) {
	db := ccpdDB(t)
	for _, tt := range []struct {
		notation, want string
	}{
		{"auto", "炮二平五"}, {"wxf", "C2.5"}, {"iccs", "h2e2"}, {"vietnamese", "P2-5"},
	} {
		var tr treeJSON
		code, out, stderr := runCLI(t, "tree", "--db", db, "--moves", "h2e2", "--notation", tt.notation, "--json")
		if err := json.Unmarshal([]byte(out), &tr); err != nil || code != exitOK {
			t.Fatalf("tree: exit %d %v: %s", code, err, stderr)
		}
		// The moves after h2e2 are Black's: format h2e2 itself through show.
		var sh showJSON
		code, out, stderr = runCLI(t, "show", "--db", db, "1", "--notation", tt.notation, "--json")
		if err := json.Unmarshal([]byte(out), &sh); err != nil || code != exitOK {
			t.Fatalf("show: exit %d %v: %s", code, err, stderr)
		}
		if len(sh.Moves) == 0 || sh.Moves[0].UCI != "h2e2" || sh.Moves[0].Move != tt.want {
			t.Errorf("show --notation %s: first move %+v, want %s", tt.notation, sh.Moves[0], tt.want)
		}
		if !strings.Contains(sh.PGN, "1. "+tt.want+" ") {
			t.Errorf("show --notation %s: the PGN does not open with %s:\n%.200s", tt.notation, tt.want, sh.PGN)
		}
		if len(tr.Moves) == 0 {
			t.Fatalf("tree after h2e2: no moves")
		}
		// tree's move column is in the same notation as show's moves.
		_, out, _ = runCLI(t, "position", "--moves", "h2e2", "--json")
		var pos api.Position
		if err := json.Unmarshal([]byte(out), &pos); err != nil {
			t.Fatal(err)
		}
		field := map[string]string{"auto": "chinese", "wxf": "wxf", "iccs": "iccs", "vietnamese": "vietnamese"}[tt.notation]
		found := false
		for _, m := range pos.LegalMoves {
			if m["iccs"] == tr.Moves[0].UCI {
				found = m[field] == tr.Moves[0].Move
			}
		}
		if !found {
			t.Errorf("tree --notation %s: move %q (%s) is not in %s", tt.notation, tr.Moves[0].Move, tr.Moves[0].UCI, field)
		}
	}
	// --moves in Chinese read whatever --notation writes.
	if code, _, stderr := runCLI(t, "tree", "--db", db, "--moves", "炮二平五 马８进７", "--notation", "iccs"); code != exitOK {
		t.Errorf("tree --moves in Chinese with --notation iccs: exit %d: %s", code, stderr)
	}
}

// TestShowAndReindexJSON: show and reindex have --json (issue 14); show's
// object holds a games line's fields, and the game itself.
func TestShowAndReindexJSON(t *testing.T) {
	db := ccpdDB(t)
	var line gamesJSON
	code, out, stderr := runCLI(t, "games", "--db", db, "--query", `red:吕钦`, "--limit", "1", "--json")
	if err := json.Unmarshal([]byte(out), &line); err != nil || code != exitOK || len(line.Games) != 1 {
		t.Fatalf("games: exit %d, %v: %s", code, err, stderr)
	}
	g := line.Games[0]
	code, out, stderr = runCLI(t, "show", "--db", db, "--json", strconv.Itoa(int(g.ID)))
	var sh showJSON
	if err := json.Unmarshal([]byte(out), &sh); err != nil || code != exitOK {
		t.Fatalf("show --json: exit %d, %v: %s", code, err, stderr)
	}
	g.Ply = -1 // a game shown, not found at a position
	if sh.gameLineJSON != g {
		t.Errorf("show --json: %+v, want the games line %+v", sh.gameLineJSON, g)
	}
	_, pgnOut, _ := runCLI(t, "show", "--db", db, strconv.Itoa(int(g.ID)))
	if sh.PGN != pgnOut || len(sh.Moves) == 0 || len(sh.Tags) == 0 || sh.FEN == "" || !strings.HasSuffix(sh.Source.File, "ccpd-masters-3001.pgn.gz") || sh.Source.Game == 0 {
		t.Errorf("show --json: %d moves, %d tags, fen %q, source %+v; pgn equal %v", len(sh.Moves), len(sh.Tags), sh.FEN, sh.Source, sh.PGN == pgnOut)
	}

	small := filepath.Join(t.TempDir(), "db")
	importJSON(t, "--db", small, writeFile(t, "xq.pgn", "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 1-0\n"))
	code, out, stderr = runCLI(t, "reindex", "--db", small, "--metadata", "--json")
	var ri reindexSummary
	if err := json.Unmarshal([]byte(out), &ri); err != nil || code != exitOK || ri.Games != 1 || !ri.Metadata || ri.Positions {
		t.Errorf("reindex --json: exit %d, %v, %+v: %s", code, err, ri, stderr)
	}
}
