package index

import "testing"

// BenchmarkSmallImportIntoGrownStore times what `xqdb import` of 100 new
// games does to a store grown by a large import and small ones (issue 18:
// 100 games into the million-game database in ≤ 0.5 s every time): open
// the store, check and add the games, write the run and close, where the
// costs that grow with what is stored would show (the popular keys, the
// opening counts, the runs, Badger's tables). Each iteration adds 100
// games the store has not seen; allocations are reported, since on this
// project's virtual machine fresh memory costs about 40 µs a page.
func BenchmarkSmallImportIntoGrownStore(b *testing.B) {
	dir := b.TempDir()
	s, err := Open(dir, Options{RunGames: 2000})
	if err != nil {
		b.Fatal(err)
	}
	for i, n := range []int{6000, 500, 500, 500} {
		importGames(b, s, randomChessGames(n, uint64(70+i)))
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		gs := randomChessGames(100, uint64(100+i))
		b.StartTimer()
		s, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, dups := importGames(b, s, gs); dups != 0 {
			b.Fatalf("%d of 100 new games taken for duplicates", dups)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
