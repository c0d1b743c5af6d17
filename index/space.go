package index

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"syscall"
)

// ErrDiskFull is returned when the disk holding the store has too little
// free space for the next write. Badger writes through memory-mapped files,
// and a write to a mapped page the file system cannot back kills the
// process with SIGBUS (no error to handle, and a store whose log later
// readers cannot map either). So a writer checks the free space before
// every run and stops cleanly while everything written is still committed.
var ErrDiskFull = errors.New("disk full")

// spaceMargin is free space always kept: Badger's manifest and log
// headers, a new write-ahead log's first pages, Bleve's segment files and
// the page cache's rounding (a 4 KiB page for every file touched).
var spaceMargin int64 = 4 << 20 // a variable for tests

// memTableBytes is Badger's memtable size (badger.DefaultOptions): what a
// close or a memtable rotation flushes to a level-0 table at most.
const memTableBytes = 64 << 20

// freeSpace returns the bytes of dir's file system that xqdb may use.
var freeSpace = func(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// runBytes estimates what a run writes to Badger's log, uncompressed: its
// records, attribute chunks and position postings (a tail posting or a
// stats game entry takes 2–5 bytes, a popular position's aggregates more;
// 16 a posting bounds both), and its metadata documents in Bleve.
func runBytes(rd *runData) int64 {
	n := int64(0)
	for _, p := range rd.recs {
		n += int64(len(p.rec)) + 16
	}
	for _, c := range rd.chunks {
		n += int64(len(c)) + 16
	}
	for _, g := range rd.occ {
		n += 16 * int64(len(g.occ))
	}
	return n + 512*int64(len(rd.docs))
}

// ensureSpace returns ErrDiskFull unless the store's disk has room to
// write run bytes, with what those writes bring after them: the log holds
// them uncompressed, then a level-0 table holds them again (compressed,
// but counted whole), the memtable flushed at close holds up to a
// memtable of what came before (pending), and Badger's compactions
// rewrite tables beside the ones they replace (a quarter of the store's
// tables, as its levels grow tenfold).
func (s *Store) ensureSpace(run, pending int64) error {
	free, err := freeSpace(s.dir)
	if err != nil {
		return nil // no statfs here: write and let the file system decide
	}
	bdir := filepath.Join(s.dir, "badger")
	need := 2*run + min(pending, memTableBytes) + allocatedBytes(bdir)/4 + spaceMargin
	if free < need {
		return fmt.Errorf("%w: %s has %s free, the next %s of games need %s", ErrDiskFull, s.dir, mib(free), mib(run), mib(need))
	}
	return nil
}

// allocatedBytes is the space a folder's files take on disk (Badger's logs
// are sparse: their size is not their use).
func allocatedBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		var st syscall.Stat_t
		if err == nil && path != dir && syscall.Stat(path, &st) == nil {
			n += st.Blocks * 512
		}
		return nil
	})
	return n
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// roomFor reports whether the disk has n bytes free beyond the margin.
func (s *Store) roomFor(n int64) bool {
	free, err := freeSpace(s.dir)
	return err != nil || free >= n+spaceMargin
}

// allocatedTree is allocatedBytes over a folder and its subfolders.
func allocatedTree(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		var st syscall.Stat_t
		if err == nil && d.Type().IsRegular() && syscall.Stat(path, &st) == nil {
			n += st.Blocks * 512
		}
		return nil
	})
	return n
}
