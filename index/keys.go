package index

import (
	"encoding/binary"
	"slices"
)

// SchemaVersion is the on-disk format version. Changing any byte layout in
// this package, or a game's Zobrist table, is a migration: bump it, and
// Open refuses stores of another version.
//
//	5  attributes gained the players' hash and the deleted mark
//	6  a run's stats values and tail blocks sort together (S|game|run|key,
//	   T|game|run|bucket; before, s|game|key|run and t|game|bucket|run),
//	   so writing, merging and removing a run touch that run's keys only
//	   (Migrate rewrites a version 5 store)
//
// A new kind of key that an older xqdb of the same version can ignore
// comes with a manifest flag instead (popular keys P|, heads H|): that
// xqdb drops the flag when it rewrites the manifest, and the next writer
// that knows the keys writes them again.
const SchemaVersion = 6

// Key prefixes. One byte each, then a separator for readability in dumps.
const (
	prefixVersion  = 'v' // v|                → schema version (uvarint)
	prefixManifest = 'm' // m|                → manifest (see store.go)
	prefixGame     = 'g' // g|gid(4)          → game record (record.go)
	prefixAttrs    = 'a' // a|chunk(4)        → attributes (and de-duplication hashes, deleted marks) of 4096 games (attrs.go)
	prefixStats    = 'S' // S|game(1)|run(4)|key(8) → stats and game list of one run (stats.go)
	prefixTail     = 'T' // T|game(1)|run(4)|bucket(2) → tail block (tail.go)

	prefixHash = 'h' // h|hash(8)       → gids of the games with these moves (uvarint deltas; hashes.go)

	prefixPopular = 'P' // P|game(1)|key(8) → nothing: the key has stats values (popular.go)

	prefixHead = 'H' // H|game(1)|run(4)|key(8) → the head of a large stats value: aggregates, newest games (head.go); the stats key's layout

	// Schema version 5's, run last (migrate.go).
	prefixStatsV5 = 's' // s|game(1)|key(8)|run(4)
	prefixTailV5  = 't' // t|game(1)|bucket(2)|run(4)
)

func gameKey(gid uint32) []byte {
	k := []byte{prefixGame, '|', 0, 0, 0, 0}
	binary.BigEndian.PutUint32(k[2:], gid)
	return k
}

func attrsKey(chunk uint32) []byte {
	k := []byte{prefixAttrs, '|', 0, 0, 0, 0}
	binary.BigEndian.PutUint32(k[2:], chunk)
	return k
}

// foldHash folds a game hash (games.GameHash) to the 64 bits stored with
// its attributes: collisions among a billion games are still unlikely
// (about 1 in 37).
func foldHash(h [16]byte) uint64 {
	return binary.BigEndian.Uint64(h[:8]) ^ binary.BigEndian.Uint64(h[8:])*0x9e3779b97f4a7c15
}

func hashKey(h uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{prefixHash, '|'}, h)
}

// runPrefix is where the stats values (prefixStats) or the tail blocks
// (prefixTail) of one run of a game start.
func runPrefix(kind, game byte, run uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{kind, '|', game}, run)
}

func statsKey(game byte, run uint32, key uint64) []byte {
	return binary.BigEndian.AppendUint64(runPrefix(prefixStats, game, run), key)
}

func tailKey(game byte, run uint32, bucket uint16) []byte {
	return binary.BigEndian.AppendUint16(runPrefix(prefixTail, game, run), bucket)
}

func popularKey(game byte, key uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{prefixPopular, '|', game}, key)
}

const popularKeyLen = 11

// runKinds are the prefixes of the values written per run.
var runKinds = []byte{prefixStats, prefixTail, prefixHead}

// runOf returns the run of a stats, tail or head key (0 for another key).
func runOf(k []byte) uint32 {
	if len(k) < 7 || !slices.Contains(runKinds, k[0]) {
		return 0
	}
	return binary.BigEndian.Uint32(k[3:7])
}

// Lengths of stats and tail keys.
const (
	statsKeyLen = 15
	tailKeyLen  = 9
)

var (
	versionKey  = []byte{prefixVersion, '|'}
	manifestKey = []byte{prefixManifest, '|'}
)
