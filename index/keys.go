package index

import "encoding/binary"

// SchemaVersion is the on-disk format version. Changing any byte layout in
// this package, or a game's Zobrist table, is a migration: bump it, and
// Open refuses stores of another version.
const SchemaVersion = 5 // 5: attributes gained the players' hash and the deleted mark

// Key prefixes. One byte each, then a separator for readability in dumps.
const (
	prefixVersion  = 'v' // v|                → schema version (uvarint)
	prefixManifest = 'm' // m|                → manifest (see store.go)
	prefixGame     = 'g' // g|gid(4)          → game record (record.go)
	prefixAttrs    = 'a' // a|chunk(4)        → attributes (and de-duplication hashes, deleted marks) of 4096 games (attrs.go)
	prefixStats    = 's' // s|game(1)|key(8)|run(4) → stats and game list of one run (stats.go)
	prefixTail     = 't' // t|game(1)|bucket(2)|run(4) → tail block (tail.go)
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

func statsPrefix(game byte, key uint64) []byte {
	k := []byte{prefixStats, '|', game, 0, 0, 0, 0, 0, 0, 0, 0}
	binary.BigEndian.PutUint64(k[3:], key)
	return k
}

func statsKey(game byte, key uint64, run uint32) []byte {
	return binary.BigEndian.AppendUint32(statsPrefix(game, key), run)
}

func tailPrefix(game byte, bucket uint16) []byte {
	return []byte{prefixTail, '|', game, byte(bucket >> 8), byte(bucket)}
}

func tailKey(game byte, bucket uint16, run uint32) []byte {
	return binary.BigEndian.AppendUint32(tailPrefix(game, bucket), run)
}

var (
	versionKey  = []byte{prefixVersion, '|'}
	manifestKey = []byte{prefixManifest, '|'}
)
