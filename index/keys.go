package index

import (
	"encoding/binary"
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
//	7  everything a run writes sorts together and after every earlier
//	   run: E|run|kind|... for its stats values, tail blocks and heads
//	   (E|run|S|game|key, E|run|T|game|bucket, E|run|H|game|key) and for
//	   the records of the games it added (E|run|g|gid; before, g|gid and
//	   S|game|run|key...), so that an import's Badger tables span its own
//	   keys and the global kinds after them, not every older record
//	   (issue 18: Badger's compaction of a level into the next rewrote
//	   most of the store); Migrate rewrites a version 5 or 6 store
//	8  a run's tail blocks may be coarser than tailBucketBits (manifest
//	   TailBits; tail.go, tailBitsFor), with wider fingerprints (up to 32
//	   bits): a version 7 store is a version 8 one whose runs are all
//	   full, which an xqdb of version 7 must not write to (Migrate sets
//	   the version)
//	9  each run's stats values, tail blocks and heads (E|run|S…, E|run|T…,
//	   E|run|H…, the same keys) live in a Badger of their own,
//	   runs/<run>, written once by StreamWriter and removed whole
//	   (runstore.go); the global kinds (a|, h|, p|, m|, v|; the popular
//	   keys were P|) live in a Badger of their own, globals/; the store's
//	   Badger keeps the game records only, each import's after the last
//	   (issue 18: its compactions rewrote ten imports' runs at once, and
//	   every import's table reached the global keys; Migrate moves a
//	   version 8 store's runs and global keys out)
//	10 the metadata index's documents left out the fields the attributes
//	   answer (attrFields: game, result, date, plies; attrsearch.go)
//	11 the metadata index holds one document for each distinct value of
//	   a field and the games of each value in postings, n|… in the
//	   globals (values.go), not a document for each game: Migrate of a
//	   version 9 or 10 store removes its metadata index and sets
//	   MetaUpTo back to the first game, and the metadata is indexed again
//	   from the records (xqdb migrate does it at once: ReindexMetadata)
//
// A new kind of key that an older xqdb of the same version can ignore
// comes with a manifest flag instead (popular keys p|, heads H|): that
// xqdb drops the flag when it rewrites the manifest, and the next writer
// that knows the keys writes them again.
const SchemaVersion = 11

// metaOnly are the older versions whose stores differ from this one's only
// in their metadata index, which Migrate has indexed again.
var metaOnly = []uint64{9, 10}

// Key prefixes. One byte each, then a separator for readability in dumps.
//
// The run space E| holds the game records, run by run, in the store's
// Badger (a run's position values, E|run|S…, in the run's own: runsDir):
// an import's records are one contiguous range after everything stored
// before it, so that its tables meet no other import's. The global kinds
// live in the globals Badger, where the attribute chunks a| sort first:
// an import's table there reaches from the last chunk over the random
// move hashes h| and popular keys p| to the manifest, not over the
// earlier chunks.
const (
	prefixRun      = 'E' // E|run(4)|kind(1)|...  → one run's values; kinds below
	prefixVersion  = 'v' // v|                → schema version (uvarint)
	prefixManifest = 'm' // m|                → manifest (see store.go)
	prefixAttrs    = 'a' // a|chunk(4)        → attributes (and de-duplication hashes, deleted marks) of 4096 games (attrs.go)

	prefixHash = 'h' // h|hash(8)       → gids of the games with these moves (uvarint deltas; hashes.go)

	prefixPostings = 'n' // n|len|field|len|value|first(4) → gids of the games with that metadata value in the batch from first (uvarint deltas; values.go)

	prefixPopular = 'p' // p|game(1)|key(8) → nothing: the key has stats values (popular.go)

	// Kinds of the run space, after E|run(4).
	prefixGame  = 'g' // E|run|g|gid(4)           → game record (record.go) of a game the run added
	prefixStats = 'S' // E|run|S|game(1)|key(8)   → stats and game list of one run (stats.go)
	prefixTail  = 'T' // E|run|T|game(1)|bucket(2) → tail block (tail.go)
	prefixHead  = 'H' // E|run|H|game(1)|key(8)   → the head of a large stats value: aggregates, newest games (head.go); the stats key's layout

	// Schema version 6's (migrate.go): S|game|run(4)|key(8),
	// T|game|run(4)|bucket(2), H|game|run(4)|key(8), g|gid(4).
	// Schema version 5's: s|game(1)|key(8)|run(4), t|game(1)|bucket(2)|run(4).
	prefixStatsV5 = 's'
	prefixTailV5  = 't'
	// Schema version 8's popular keys, P|game|key, in the store's Badger.
	prefixPopularV8 = 'P'
)

// recordKey is the key of game gid's record, which run wrote
// (manifest.recordRun).
func recordKey(run, gid uint32) []byte { return appendRecordKey(nil, run, gid) }

// appendRecordKey appends recordKey(run, gid) to dst.
func appendRecordKey(dst []byte, run, gid uint32) []byte {
	dst = binary.BigEndian.AppendUint32(append(dst, prefixRun, '|'), run)
	return binary.BigEndian.AppendUint32(append(dst, prefixGame), gid)
}

// kindPrefix is where the values of one kind (prefixStats, prefixTail,
// prefixHead, prefixGame) of run start.
func kindPrefix(kind byte, run uint32) []byte {
	k := []byte{prefixRun, '|', 0, 0, 0, 0, kind}
	binary.BigEndian.PutUint32(k[2:], run)
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
	return appendHashKey(nil, h)
}

// appendHashKey appends hashKey(h) to dst.
func appendHashKey(dst []byte, h uint64) []byte {
	return binary.BigEndian.AppendUint64(append(dst, prefixHash, '|'), h)
}

// hashKeyLen is the length of a hashKey.
const hashKeyLen = 2 + 8

// runPrefix is where the stats values (prefixStats), tail blocks
// (prefixTail) or heads (prefixHead) of one run of a game start.
func runPrefix(kind, game byte, run uint32) []byte {
	return append(kindPrefix(kind, run), game)
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

// runKinds are the kinds of the values written per run of a game, which a
// merge replaces (a run's records stay under it).
var runKinds = []byte{prefixStats, prefixTail, prefixHead}

// runOf returns the run of a key of the run space (0 for another key).
func runOf(k []byte) uint32 {
	if len(k) < 7 || k[0] != prefixRun {
		return 0
	}
	return binary.BigEndian.Uint32(k[2:6])
}

// keyKind returns the kind of a key of the run space (prefixStats, …).
func keyKind(k []byte) byte {
	if len(k) < 7 || k[0] != prefixRun {
		return 0
	}
	return k[6]
}

// keyGame returns the game of a stats, tail or head key.
func keyGame(k []byte) byte { return k[7] }

// keyPosition returns the position key of a stats or head key.
func keyPosition(k []byte) uint64 { return binary.BigEndian.Uint64(k[8:]) }

// withKind returns a copy of a key of the run space with another kind: a
// head's stats key, for one.
func withKind(k []byte, kind byte) []byte {
	c := append([]byte(nil), k...)
	c[6] = kind
	return c
}

// Lengths of stats, tail and record keys.
const (
	statsKeyLen  = 16
	tailKeyLen   = 10
	recordKeyLen = 11
)

var (
	versionKey  = []byte{prefixVersion, '|'}
	manifestKey = []byte{prefixManifest, '|'}
	// postingsKind prefixes every metadata postings key (values.go).
	postingsKind = []byte{prefixPostings, '|'}
)
