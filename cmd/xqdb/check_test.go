package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

func checkOf(t *testing.T, db string) (int, checkJSON) {
	t.Helper()
	code, out, stderr := runCLI(t, "check", "--db", db, "--json")
	var rep checkJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("check: exit %d: %v: %s", code, err, stderr)
	}
	return code, rep
}

type checkJSON struct {
	Games              int      `json:"games"`
	Positions          int64    `json:"positions"`
	ExpectedPositions  int64    `json:"expected_positions"`
	PositionMismatches int      `json:"position_mismatches"`
	MetadataMissing    bool     `json:"metadata_missing"`
	MetadataDocs       int      `json:"metadata_documents"`
	MissingMetadata    int      `json:"missing_metadata"`
	Problems           []string `json:"problems"`
}

func gamesTotal(t *testing.T, db string, args ...string) int {
	t.Helper()
	code, out, stderr := runCLI(t, append([]string{"games", "--db", db, "--json", "--limit", "1"}, args...)...)
	var gl gamesJSON
	if err := json.Unmarshal([]byte(out), &gl); err != nil || code != exitOK {
		t.Fatalf("games %v: exit %d: %s", args, code, stderr)
	}
	return gl.Total
}

// TestCheckAndReindex: a database that lost its metadata index says so on
// every read and points to xqdb reindex; check finds a missing metadata
// index and missing positions; reindex rebuilds either from the records,
// and the database answers as before (issue 13 point 11).
func TestCheckAndReindex(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	src := fixture("pgnmentor-capablanca-fischer.pgn.gz")
	if code, _, stderr := runCLI(t, "import", "--db", db, "--run-games", "200", src); code != exitOK {
		t.Fatalf("import: %s", stderr)
	}
	code, rep := checkOf(t, db)
	if code != exitOK || len(rep.Problems) != 0 || rep.Games == 0 || rep.Positions != rep.ExpectedPositions || rep.MetadataDocs != rep.Games {
		t.Fatalf("check of a fresh import: exit %d, %+v", code, rep)
	}
	games := rep.Games
	trees := map[string]treeJSON{}
	sameTrees := func(when string) {
		t.Helper()
		for moves, want := range trees {
			got := treeOf(t, "--db", db, "--game", "chess", "--moves", moves)
			jg, _ := json.Marshal(got)
			jw, _ := json.Marshal(want)
			if string(jg) != string(jw) {
				t.Fatalf("%s: tree after %q:\n got %s\nwant %s", when, moves, jg, jw)
			}
		}
	}
	const q = "white:capablanca"
	byCapablanca := gamesTotal(t, db, "--query", q)
	if byCapablanca == 0 || byCapablanca == games {
		t.Fatalf("%s finds %d of %d games", q, byCapablanca, games)
	}
	// The opening the import classified is not stored in the record: a
	// rebuilt metadata index must classify it again.
	_, out, _ := runCLI(t, "games", "--db", db, "--json", "--limit", "1")
	var first gamesJSON
	if err := json.Unmarshal([]byte(out), &first); err != nil || len(first.Games) == 0 || first.Games[0].Opening == "" {
		t.Fatalf("games: %v %+v", err, first)
	}
	byOpening := "opening:" + first.Games[0].Opening
	inOpening := gamesTotal(t, db, "--query", byOpening)

	// The metadata index is lost.
	if err := os.RemoveAll(filepath.Join(db, "meta.bleve")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"games", "--db", db}, {"games", "--db", db, "--query", q}} {
		code, _, stderr := runCLI(t, args...)
		if code != exitFailure || !strings.Contains(stderr, "metadata index") || !strings.Contains(stderr, "xqdb reindex --metadata") {
			t.Fatalf("%v without a metadata index: exit %d: %s", args, code, stderr)
		}
	}
	if code, _, stderr := runCLI(t, "tree", "--db", db, "--moves", "e4"); code != exitOK || !strings.Contains(stderr, "xqdb reindex --metadata") {
		t.Fatalf("tree without a metadata index: exit %d, stderr %q", code, stderr)
	}
	if code, rep := checkOf(t, db); code != exitFailure || !rep.MetadataMissing || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "reindex --metadata") {
		t.Fatalf("check without a metadata index: exit %d, %+v", code, rep)
	}
	if code, _, stderr := runCLI(t, "reindex", "--db", db, "--metadata"); code != exitOK {
		t.Fatalf("reindex --metadata: exit %d: %s", code, stderr)
	}
	if n, m, o := gamesTotal(t, db), gamesTotal(t, db, "--query", q), gamesTotal(t, db, "--query", byOpening); n != games || m != byCapablanca || o != inOpening {
		t.Fatalf("after reindex --metadata: %d games, %s %d, %s %d; want %d, %d, %d", n, q, m, byOpening, o, games, byCapablanca, inOpening)
	}
	if code, rep := checkOf(t, db); code != exitOK || len(rep.Problems) != 0 {
		t.Fatalf("check after reindex --metadata: exit %d, %+v", code, rep)
	}
	// The import a user would try repairs it too.
	if err := os.RemoveAll(filepath.Join(db, "meta.bleve")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "import", "--db", db, src); code != exitOK {
		t.Fatalf("import: %s", stderr)
	}
	if n, o := gamesTotal(t, db, "--query", q), gamesTotal(t, db, "--query", byOpening); n != byCapablanca || o != inOpening {
		t.Fatalf("after an import into a database without its metadata index: %s finds %d games, %s %d; want %d, %d", q, n, byOpening, o, byCapablanca, inOpening)
	}

	// A deleted game is no problem: it has no record, positions or
	// metadata any more, and a rebuild leaves it out.
	if code, _, stderr := runCLI(t, "delete", "--db", db, "5"); code != exitOK {
		t.Fatalf("delete: %s", stderr)
	}
	if code, rep := checkOf(t, db); code != exitOK || len(rep.Problems) != 0 || rep.Games != games-1 {
		t.Fatalf("check after a deletion: exit %d, %+v", code, rep)
	}
	for _, moves := range []string{"", "e4", "e4 c5", "d4 Nf6 c4", "Nf3"} {
		trees[moves] = treeOf(t, "--db", db, "--game", "chess", "--moves", moves)
	}

	// The position index loses its tail blocks, keyed E|run(4)|T|… in
	// each run's Badger, runs/<run> (index/keys.go, index/runstore.go).
	runDirs, err := filepath.Glob(filepath.Join(db, "runs", "*"))
	if err != nil || len(runDirs) == 0 {
		t.Fatalf("no run folders: %v", err)
	}
	for _, dir := range runDirs {
		bdb, err := badger.Open(badger.DefaultOptions(dir).WithLogger(nil).WithValueThreshold(128 << 10).WithMemTableSize(1 << 20))
		if err != nil {
			t.Fatal(err)
		}
		wb := bdb.NewWriteBatch()
		err = bdb.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte("E|")})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				if k := it.Item().Key(); len(k) > 6 && k[6] == 'T' {
					if err := wb.Delete(it.Item().KeyCopy(nil)); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err == nil {
			err = wb.Flush()
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := bdb.Close(); err != nil {
			t.Fatal(err)
		}
	}
	code, rep = checkOf(t, db)
	if code != exitFailure || rep.PositionMismatches == 0 || rep.Positions >= rep.ExpectedPositions || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "reindex --positions") {
		t.Fatalf("check without tail blocks: exit %d, %+v", code, rep)
	}
	// Small runs: the rebuild writes several and merges them.
	if code, _, stderr := runCLI(t, "reindex", "--db", db, "--positions", "--run-games", "100"); code != exitOK {
		t.Fatalf("reindex --positions: exit %d: %s", code, stderr)
	}
	if code, rep := checkOf(t, db); code != exitOK || len(rep.Problems) != 0 {
		t.Fatalf("check after reindex --positions: exit %d, %+v", code, rep)
	}
	sameTrees("after reindex --positions")
	if code, _, stderr := runCLI(t, "reindex", "--db", db); code != exitOK {
		t.Fatalf("reindex: exit %d: %s", code, stderr)
	}
	sameTrees("after reindex")
	if n := gamesTotal(t, db); n != games-1 {
		t.Fatalf("after reindex: %d games listed, want %d (the deleted one left out)", n, games-1)
	}
	if code, _, _ := runCLI(t, "reindex", "--db", filepath.Join(t.TempDir(), "none")); code != exitFailure {
		t.Fatalf("reindex of no database: exit %d", code)
	}
}
