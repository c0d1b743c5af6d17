package pgn_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/xqdb/xqdb/engine/enginetest"
	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/importer/textenc"
)

// benchCorpora are the inputs of BenchmarkReadPGN: plain ASCII master
// games (five pgnmentor player files, 10.7 MB), lichess games with a
// clock comment on every move, and CCPD's 31,082 Chinese-notation records
// (UTF-8, 47.5 MB).
var benchCorpora = []struct {
	name  string
	files []string
}{
	{"pgnmentor", []string{"chess/pgnmentor-players/Kasparov.pgn.gz", "chess/pgnmentor-players/Karpov.pgn.gz",
		"chess/pgnmentor-players/Carlsen.pgn.gz", "chess/pgnmentor-players/Anand.pgn.gz", "chess/pgnmentor-players/Tal.pgn.gz"}},
	{"lichess-clk", []string{"chess/shakmaty/pgn-bench/lichess_db_1000k.pgn"}},
	{"ccpd", []string{"xiangqi/ccpd/ccpd_unique.utf8.pgn.gz"}},
}

func loadCorpus(b *testing.B, files []string) []byte {
	var buf bytes.Buffer
	for _, rel := range files {
		f, err := os.Open(enginetest.SharedData(b, rel))
		if err != nil {
			b.Fatal(err)
		}
		var r io.Reader = f
		if len(rel) > 3 && rel[len(rel)-3:] == ".gz" {
			if r, err = gzip.NewReader(f); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := io.Copy(&buf, r); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	return buf.Bytes()
}

// BenchmarkReadPGN measures reading alone (no replay): MB/s, records/s,
// and heap allocations per record and per move, with and without
// ReuseRecord, keeping the main line only (as import read before it kept
// comments and variations), and all but the move numbers (as import reads).
func BenchmarkReadPGN(b *testing.B) {
	textenc.Detect([]byte{0xB0, 0xA1}, textenc.UTF8) // build the decoding tables outside the timing
	for _, c := range benchCorpora {
		data := loadCorpus(b, c.files)
		for _, mode := range []string{"reuse", "alloc", "mainline", "nonumbers"} {
			reuse, mainLine, noNumbers := mode != "alloc", mode == "mainline", mode == "nonumbers"
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				var records, moves int
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					r := pgn.NewReader(bytes.NewReader(data), c.name)
					r.ReuseRecord, r.MainLineOnly, r.NoMoveNumbers = reuse, mainLine, noNumbers
					for {
						rec, err := r.Next()
						if err == io.EOF {
							break
						}
						if rec != nil {
							records++
							moves += len(rec.Moves)
						}
					}
				}
				b.StopTimer()
				runtime.ReadMemStats(&after)
				mallocs := float64(after.Mallocs - before.Mallocs)
				b.ReportMetric(float64(records)/b.Elapsed().Seconds(), "records/s")
				b.ReportMetric(mallocs/float64(records), "allocs/record")
				b.ReportMetric(mallocs/float64(moves), "allocs/move")
			})
		}
	}
}
