//go:build !unix

package index

import "os"

// mapFile reads a file whole where xqdb does not map files.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }

func unmapFile([]byte) {}

// mapsFiles says that mapFileWritable maps: here it reads the file.
const mapsFiles = false

// mapFileWritable reads a file whole where xqdb does not map files: its
// writer writes it back whole.
func mapFileWritable(path string) ([]byte, error) { return os.ReadFile(path) }
