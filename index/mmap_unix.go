//go:build unix

package index

import (
	"os"
	"syscall"
)

// mapFile maps a file read-only (filter.go: its pages are the system's
// cache of the file, cheap to touch).
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return nil, err
	}
	return syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapFile(b []byte) {
	if len(b) > 0 {
		syscall.Munmap(b)
	}
}
