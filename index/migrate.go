package index

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/dgraph-io/badger/v4"
)

// Migrate rewrites the store in dir in the current on-disk format and
// returns the schema version it had. Version 5 and 6 stores differ from
// version 8 only in their keys (keys.go): the position index's and the
// game records', which it rewrites in place, the records under run 0
// (manifest recordRun); a version 7 store is already in version 8's
// format (its runs all have full tail blocks). From version 8, each live
// run's values move into a folder of their own (runstore.go). A version 9
// or 10 store's metadata index is dropped, to be indexed again
// (dropMetadata). Older ones
// must be imported again (export, then import into a new folder). A
// migration stopped half-way leaves the old version with some keys
// rewritten or some runs copied: running it again finishes it.
func Migrate(dir string) (from uint64, err error) {
	if err := recoverRewrite(dir); err != nil {
		return 0, err
	}
	bdir := filepath.Join(dir, "badger")
	if _, err := os.Stat(filepath.Join(bdir, "MANIFEST")); err != nil {
		return 0, fmt.Errorf("%w: %s", ErrNoStore, dir)
	}
	db, err := badger.Open(badgerOptions(bdir, false))
	if err != nil {
		return 0, fmt.Errorf("index: open %s: %w", bdir, err)
	}
	defer func() {
		if db == nil {
			return
		}
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}()
	gdir := filepath.Join(dir, globalsDir)
	if from, found, err := globalsVersion(gdir); err != nil || found {
		if err == nil && slices.Contains(metaOnly, from) {
			err = dropMetadata(dir, gdir)
		}
		if err == nil && (slices.Contains(metaOnly, from) || from == SchemaVersion) {
			err = dropStaleKeys(db) // a migration stopped after its last step
		}
		return from, err
	}
	// Globals without a version: a migration stopped before its last
	// step, which begins again.
	if err := os.RemoveAll(gdir); err != nil {
		return 0, err
	}
	ver, found, err := readVersion(db)
	if err != nil {
		return 0, err
	}
	if !found {
		return SchemaVersion, nil // an empty store: the next writer makes it
	}
	from = ver
	if from < 5 || from >= SchemaVersion {
		return from, fmt.Errorf("%w: %s has version %d, which xqdb cannot migrate: export its games with an older xqdb and import them into a new folder", ErrSchemaMismatch, dir, from)
	}
	var man manifest
	err = db.View(func(txn *badger.Txn) error {
		return readValue(txn, manifestKey, func(v []byte) error { return json.Unmarshal(v, &man) })
	})
	if err != nil {
		return from, fmt.Errorf("index: migrate %s: read the manifest: %w", dir, err)
	}
	if from <= 6 {
		if err := migrateKeys(db, &man); err != nil {
			return from, fmt.Errorf("index: migrate %s: %w", dir, err)
		}
	}
	if err := os.MkdirAll(gdir, 0o755); err != nil {
		return from, err
	}
	gdb, err := badger.Open(globalsOptions(gdir, false))
	if err != nil {
		return from, fmt.Errorf("index: open %s: %w", gdir, err)
	}
	err = moveGlobalsOut(db, gdb)
	if err == nil {
		err = moveRunsOut(dir, db, gdb, &man)
	}
	if err == nil { // as a large import leaves it (Store.flatten)
		if err = flushMemtable(gdb); err == nil {
			err = gdb.Flatten(runtime.NumCPU())
		}
	}
	// The version last, with the metadata to index again (schema 11): a
	// migration stopped before it is run again.
	if err == nil {
		err = resetMetadata(dir, gdb)
	}
	if cerr := gdb.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = dropStaleKeys(db)
	}
	if err != nil {
		return from, fmt.Errorf("index: migrate %s: %w", dir, err)
	}
	// Every key was rewritten or dropped: left in levels 0 to 5 over the
	// old keys' values and tombstones, they would be compacted by the next
	// imports, a rewrite of the store (as after a large import:
	// Store.flatten). Closing flushes the last memtable, which Flatten
	// leaves.
	err = db.Close()
	if db = nil; err != nil {
		return from, err
	}
	if db, err = badger.Open(badgerOptions(bdir, false)); err != nil {
		return from, err
	}
	return from, db.Flatten(runtime.NumCPU())
}

// dropMetadata brings a store whose metadata index alone is of an older
// version (metaOnly) to this one (resetMetadata).
func dropMetadata(dir, gdir string) error {
	gdb, err := badger.Open(globalsOptions(gdir, false))
	if err != nil {
		return fmt.Errorf("index: open %s: %w", gdir, err)
	}
	err = resetMetadata(dir, gdb)
	if cerr := gdb.Close(); err == nil {
		err = cerr
	}
	return err
}

// resetMetadata removes the store's metadata index, then, in one
// transaction of its globals Badger gdb, marks no game indexed (MetaUpTo)
// and sets this xqdb's version. The next writer, or ReindexMetadata,
// indexes the metadata again from the records.
func resetMetadata(dir string, gdb *badger.DB) error {
	if err := os.RemoveAll(filepath.Join(dir, "meta.bleve")); err != nil {
		return err
	}
	if err := gdb.DropPrefix(postingsKind); err != nil {
		return err
	}
	return gdb.Update(func(txn *badger.Txn) error {
		var man manifest
		found := false
		err := readValue(txn, manifestKey, func(v []byte) error { found = true; return json.Unmarshal(v, &man) })
		if err != nil {
			return err
		}
		if found { // else no game: nothing indexed
			man.MetaUpTo = 1
			b, err := json.Marshal(&man)
			if err != nil {
				return err
			}
			if err := txn.Set(manifestKey, b); err != nil {
				return err
			}
		}
		return txn.Set(versionKey, binary.AppendUvarint(nil, SchemaVersion))
	})
}

// globalsVersion reads the version in the globals Badger at gdir, if it
// has one.
func globalsVersion(gdir string) (ver uint64, found bool, err error) {
	if _, err := os.Stat(filepath.Join(gdir, "MANIFEST")); err != nil {
		return 0, false, nil
	}
	gdb, err := badger.Open(globalsOptions(gdir, false))
	if err != nil {
		return 0, false, fmt.Errorf("index: open %s: %w", gdir, err)
	}
	ver, found, err = readVersion(gdb)
	if cerr := gdb.Close(); err == nil {
		err = cerr
	}
	return ver, found, err
}

// moveGlobalsOut copies the global kinds of a version 8 store's Badger
// db into the globals Badger gdb (the popular keys P| as p|), but the
// version, which the migration writes last.
func moveGlobalsOut(db, gdb *badger.DB) error {
	wb := gdb.NewWriteBatch()
	defer wb.Cancel()
	err := db.View(func(txn *badger.Txn) error {
		for _, kind := range []byte{prefixAttrs, prefixHash, prefixPopularV8, prefixManifest} {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kind, '|'}})
			for it.Rewind(); it.Valid(); it.Next() {
				k := it.Item().KeyCopy(nil)
				if kind == prefixPopularV8 {
					k[0] = prefixPopular
				}
				v, err := it.Item().ValueCopy(nil)
				if err == nil {
					err = wb.Set(k, v)
				}
				if err != nil {
					it.Close()
					return err
				}
			}
			it.Close()
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	return gdb.Sync()
}

// dropStaleKeys drops from the store's Badger db every key a version 9
// store keeps elsewhere: the global kinds and the runs' values, which a
// migration copied out.
func dropStaleKeys(db *badger.DB) error {
	prefixes := [][]byte{{prefixAttrs, '|'}, {prefixHash, '|'}, {prefixPopularV8, '|'}, {prefixManifest, '|'}, {prefixVersion, '|'}}
	var runs []uint32
	err := db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{prefixRun, '|'}})
		defer it.Close()
		// A run's values sort before its records: its first key tells.
		for it.Rewind(); it.Valid(); {
			k := it.Item().Key()
			run := runOf(k)
			if isRunValue(k) {
				runs = append(runs, run)
			}
			it.Seek(kindPrefix(0, run+1))
		}
		return nil
	})
	if err != nil {
		return err
	}
	found := false
	err = db.View(func(txn *badger.Txn) error {
		for _, p := range prefixes {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
			it.Rewind()
			found = found || it.Valid()
			it.Close()
		}
		return nil
	})
	if err != nil || !found && len(runs) == 0 {
		return err
	}
	for _, run := range runs {
		for _, kind := range runKinds {
			prefixes = append(prefixes, kindPrefix(kind, run))
		}
	}
	return db.DropPrefix(prefixes...)
}

// migrateKeys rewrites the keys of a version 5 or 6 store as version 8's.
func migrateKeys(db *badger.DB, man *manifest) error {
	wb := db.NewWriteBatch()
	defer wb.Cancel()
	err := db.View(func(txn *badger.Txn) error {
		for _, kind := range []byte{prefixStatsV5, prefixTailV5, prefixStats, prefixTail, prefixHead, prefixGame} {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kind, '|'}})
			for it.Rewind(); it.Valid(); it.Next() {
				k := it.Item().Key()
				nk, ok := migratedKey(k, man.NextGid)
				if !ok {
					continue
				}
				var err error
				if nk != nil {
					var v []byte
					if v, err = it.Item().ValueCopy(nil); err == nil {
						err = wb.Set(nk, v)
					}
				}
				if err == nil {
					err = wb.Delete(it.Item().KeyCopy(nil))
				}
				if err != nil {
					it.Close()
					return err
				}
			}
			it.Close()
		}
		return nil
	})
	if err == nil {
		err = wb.Flush()
	}
	return err
}

// moveRunsOut writes the values of the live runs and of the merge under
// way into their folders (schema 9), each by StreamWriter in key order
// (dropStaleKeys then drops every run's values from the store's Badger).
// Folders an interrupted migration left are written again from the
// start.
func moveRunsOut(dir string, db, gdb *badger.DB, man *manifest) error {
	if err := os.RemoveAll(filepath.Join(dir, runsDir)); err != nil {
		return err
	}
	s := &Store{dir: dir, db: db, gdb: gdb, opts: Options{}.withDefaults()}
	defer s.closeRunDBs()
	keep := func(run uint32) bool {
		return man.live(run) || man.Merging != nil && man.Merging.Run == run
	}
	var b *batch
	err := db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{prefixRun, '|'}})
		defer it.Close()
		cur := uint32(0)
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().Key()
			if !isRunValue(k) {
				continue
			}
			if run := runOf(k); b == nil || run != cur {
				if b != nil {
					if err := b.Flush(); err != nil {
						return err
					}
					b.Cancel()
					b = nil
				}
				cur = run
				if !keep(run) {
					continue
				}
				b = s.newBatch()
				if err := b.stream(run, man.tailBits(run), runTableSize); err != nil {
					return err
				}
			}
			if b == nil {
				continue // a run that is not live
			}
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			if err := b.Set(it.Item().KeyCopy(nil), v); err != nil {
				return err
			}
		}
		if b != nil {
			return b.Flush()
		}
		return nil
	})
	if b != nil {
		b.Cancel()
	}
	if err != nil {
		return err
	}
	return s.closeRunDBs()
}

// migratedKey returns the schema 7 key of a key of schema version 5 or 6
// (keys.go), nil for a key to delete (the record of a game past
// nextGid, which no run committed), and false for a key it does not
// rewrite.
func migratedKey(k []byte, nextGid uint32) ([]byte, bool) {
	be := binary.BigEndian
	switch {
	case k[0] == prefixStatsV5 && len(k) == 15: // s|game|key(8)|run(4)
		return statsKey(k[2], be.Uint32(k[11:]), be.Uint64(k[3:11])), true
	case k[0] == prefixTailV5 && len(k) == 9: // t|game|bucket(2)|run(4)
		return tailKey(k[2], be.Uint32(k[5:]), be.Uint16(k[3:5])), true
	case k[0] == prefixStats && len(k) == 15: // S|game|run(4)|key(8)
		return statsKey(k[2], be.Uint32(k[3:7]), be.Uint64(k[7:])), true
	case k[0] == prefixHead && len(k) == 15: // H|game|run(4)|key(8)
		return headKey(k[2], be.Uint32(k[3:7]), be.Uint64(k[7:])), true
	case k[0] == prefixTail && len(k) == 9: // T|game|run(4)|bucket(2)
		return tailKey(k[2], be.Uint32(k[3:7]), be.Uint16(k[7:])), true
	case k[0] == prefixGame && len(k) == 6: // g|gid(4)
		if gid := be.Uint32(k[2:]); gid < nextGid {
			return recordKey(0, gid), true
		}
		return nil, true
	}
	return nil, false
}
