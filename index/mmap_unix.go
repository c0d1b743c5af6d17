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

// mapsFiles says that mapFileWritable maps: writes to its slice reach the
// file.
const mapsFiles = true

// mapFileWritable maps a file for reading and writing in place
// (counts.go: the system writes back the pages changed).
func mapFileWritable(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return nil, err
	}
	return syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}
