package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dgraph-io/badger/v4"
)

// Migrate rewrites the store in dir in the current on-disk format and
// returns the schema version it had. Version 5 stores differ only in the
// position index's keys (keys.go), which it rewrites in place; older ones
// must be imported again (export, then import into a new folder). A
// migration stopped half-way leaves version 5 with some keys rewritten:
// running it again finishes it.
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
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}()
	err = db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(versionKey)
		if errors.Is(err, badger.ErrKeyNotFound) {
			from = SchemaVersion // an empty store
			return nil
		}
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) error { from, _ = binary.Uvarint(v); return nil })
	})
	if err != nil || from == SchemaVersion {
		return from, err
	}
	if from != 5 {
		return from, fmt.Errorf("%w: %s has version %d, which xqdb cannot migrate: export its games with an older xqdb and import them into a new folder", ErrSchemaMismatch, dir, from)
	}
	wb := db.NewWriteBatch()
	defer wb.Cancel()
	err = db.View(func(txn *badger.Txn) error {
		for _, kind := range []byte{prefixStatsV5, prefixTailV5} {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kind, '|'}})
			for it.Rewind(); it.Valid(); it.Next() {
				k := it.Item().Key()
				var nk []byte
				switch {
				case kind == prefixStatsV5 && len(k) == 15: // s|game|key(8)|run(4)
					nk = statsKey(k[2], binary.BigEndian.Uint32(k[11:]), binary.BigEndian.Uint64(k[3:11]))
				case kind == prefixTailV5 && len(k) == 9: // t|game|bucket(2)|run(4)
					nk = tailKey(k[2], binary.BigEndian.Uint32(k[5:]), binary.BigEndian.Uint16(k[3:5]))
				default:
					continue
				}
				v, err := it.Item().ValueCopy(nil)
				if err == nil {
					err = wb.Set(nk, v)
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
	if err != nil {
		return from, fmt.Errorf("index: migrate %s: %w", dir, err)
	}
	// The version last: a migration stopped before it is run again.
	err = db.Update(func(txn *badger.Txn) error {
		return txn.Set(versionKey, binary.AppendUvarint(nil, SchemaVersion))
	})
	return from, err
}
