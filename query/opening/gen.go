//go:build ignore

// gen rebuilds the generated tables of package opening from the shared
// data folder:
//
//   - eco.tsv.gz: lichess-org/chess-openings a.tsv–e.tsv (CC0),
//     concatenated and gzipped;
//   - ecco_names.tsv: the ECCO names, copied;
//   - ecco_tree.txt: the decision tree learned from every labelled CCPD
//     game (ccpd_ecco_labels.tsv.gz, CC BY 4.0).
//
// Run with go generate ./query/opening/ (or go run gen.go -shared DIR).
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/xqdb/xqdb/query/opening"
)

func main() {
	shared := flag.String("shared", "../../../shared/data", "the shared data folder")
	flag.Parse()

	var eco bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&eco, gzip.BestCompression)
	for _, f := range []string{"a", "b", "c", "d", "e"} {
		b, err := os.ReadFile(filepath.Join(*shared, "chess/lichess-chess-openings", f+".tsv"))
		if err != nil {
			log.Fatal(err)
		}
		zw.Write(b)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if _, err := opening.ReadECO(mustGunzip(eco.Bytes())); err != nil {
		log.Fatal(err)
	}
	write("eco.tsv.gz", eco.Bytes())

	names, err := os.ReadFile(filepath.Join(*shared, "xiangqi/ecco/ecco_names.tsv"))
	if err != nil {
		log.Fatal(err)
	}
	write("ecco_names.tsv", names)

	labels, err := os.ReadFile(filepath.Join(*shared, "xiangqi/ecco/ccpd_ecco_labels.tsv.gz"))
	if err != nil {
		log.Fatal(err)
	}
	samples, err := opening.ReadSamples(mustGunzip(labels))
	if err != nil {
		log.Fatal(err)
	}
	tree := opening.Learn(samples)
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s", opening.TreeHeader(len(samples)))
	tree.WriteTo(&out)
	write("ecco_tree.txt", out.Bytes())
	log.Printf("ECCO tree: %d nodes from %d games", tree.Nodes(), len(samples))
}

func mustGunzip(b []byte) *gzip.Reader {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		log.Fatal(err)
	}
	return zr
}

func write(name string, b []byte) {
	if err := os.WriteFile(name, b, 0o644); err != nil {
		log.Fatal(err)
	}
}
