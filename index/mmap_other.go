//go:build !unix

package index

import "os"

// mapFile reads a file whole where xqdb does not map files.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }

func unmapFile([]byte) {}
