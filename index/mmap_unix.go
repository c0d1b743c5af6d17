//go:build unix

package index

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// mapFile maps a file read-only (filter.go: its pages are the system's
// cache of the file, cheap to touch).
func mapFile(path string) ([]byte, error) {
	return mapFileAs(path, os.O_RDONLY, syscall.PROT_READ)
}

func unmapFile(b []byte) {
	if len(b) > 0 {
		syscall.Munmap(b)
	}
}

// mapFileWritable maps a file for reading and writing in place
// (counts.go: the system writes back the pages changed), or, where the
// file system cannot map it, reads it (mapped false).
func mapFileWritable(path string) (data []byte, mapped bool, err error) {
	data, err = mapFileAs(path, os.O_RDWR, syscall.PROT_READ|syscall.PROT_WRITE)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		data, err = os.ReadFile(path)
		return data, false, err
	}
	return data, err == nil && len(data) > 0, err
}

// mapFileAs maps the whole of the file at path, opened with flag, shared,
// with protection prot; an empty file maps to nothing.
func mapFileAs(path string, flag, prot int) ([]byte, error) {
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return nil, err
	}
	return syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), prot, syscall.MAP_SHARED)
}
