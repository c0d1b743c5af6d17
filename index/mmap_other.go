//go:build !unix

package index

import "os"

// mapFile reads a file whole where xqdb does not map files.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }

func unmapFile([]byte) {}

// mapFileWritable reads a file whole where xqdb does not map files: its
// writer writes it back whole (mapped false).
func mapFileWritable(path string) (data []byte, mapped bool, err error) {
	data, err = os.ReadFile(path)
	return data, false, err
}
