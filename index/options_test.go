package index

import "testing"

// TestBadgerOptionsForLookups: stores write 16 KB blocks (a lookup
// decompresses a whole block for each value it reads), and a read-only
// store keeps an 8 MB block cache (filling a large one costs a page fault
// per 4 KB of blocks seldom read twice) (issue 18).
func TestBadgerOptionsForLookups(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := w.db.Opts().BlockSize; got != 16<<10 {
		t.Errorf("a writer's block size is %d, want 16 KB", got)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := r.db.Opts().BlockSize; got != 16<<10 {
		t.Errorf("a reader's block size is %d, want 16 KB", got)
	}
	if got := r.db.Opts().BlockCacheSize; got != 8<<20 {
		t.Errorf("a read-only store's block cache is %d bytes, want 8 MB", got)
	}
}
