package clickhouse

import (
	"fmt"
	"strings"
)

// SchemaVersion is the version of the table layout below; a database of
// another version is refused, as the Badger store refuses one.
const SchemaVersion = 1

// The tables (DESIGN "index store interface"), one set per database:
//
//	games      gid → the compact record and the attributes queries sort
//	           and filter on; ORDER BY gid
//	positions  one row per game and distinct position it reached: key,
//	           game, gid, first ply, move code played there, and the
//	           game's result, date and rating, so that a tree is one
//	           GROUP BY over a key's rows; ORDER BY (key, game, gid)
//	terms      the metadata index: every term Bleve would index, with
//	           its field and position, so player and event name searches
//	           read a range of (field, term); ORDER BY (field, term, gid)
//	manifest   the commit record: rows above the last next_gid are an
//	           interrupted import's, which reads ignore and the next
//	           import deletes
//
// With several shards each node holds the *_local tables and a
// Distributed table of the plain name over them: positions are sharded by
// key (a tree reads the one shard that holds it), games and terms by gid.
//
// Granules (index_granularity, the rows a read of one key decompresses at
// least) are small where reads are points: a tree reads one key's rows of
// positions, a page of games a few records; terms keeps the default, as
// its reads are ranges.
var tables = []struct {
	name, columns, order, shardBy string
	granularity                   int
}{
	{"games", "gid UInt32, game UInt8, result UInt8, date UInt32, rating UInt16, plies UInt16, hash UInt64, players UInt32, record String", "gid", "gid", 256},
	{"positions", "key UInt64, game UInt8, gid UInt32, ply UInt16, code UInt16, result UInt8, date UInt32, rating UInt16", "(key, game, gid)", "key", 1024},
	{"terms", "field String, term String, gid UInt32, pos UInt32", "(field, term, gid)", "gid", 8192},
}

// ddl returns the statements that create the database on one node. Only
// syntax that 18.16 and current releases both read: MergeTree with ORDER
// BY … SETTINGS index_granularity, Distributed(cluster, db, table, key),
// TinyLog.
func (d *DB) ddl(first bool) []string {
	db := d.name
	out := []string{"CREATE DATABASE IF NOT EXISTS " + db}
	for _, t := range tables {
		local := db + "." + t.name
		if d.cluster != "" {
			local += "_local"
		}
		out = append(out, fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s (%s) ENGINE = MergeTree ORDER BY %s SETTINGS index_granularity = %d", local, t.columns, t.order, t.granularity))
		if d.cluster != "" {
			out = append(out, fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s (%s) ENGINE = Distributed(%s, %s, %s_local, %s)",
				db, t.name, t.columns, d.cluster, db, t.name, t.shardBy))
		}
	}
	if first {
		out = append(out, "CREATE TABLE IF NOT EXISTS "+db+".manifest (schema UInt32, next_gid UInt32) ENGINE = TinyLog")
	}
	return out
}

// local names table's rows on one node.
func (d *DB) local(table string) string {
	if d.cluster != "" {
		return d.name + "." + table + "_local"
	}
	return d.name + "." + table
}

// all names table's rows on every shard (the Distributed table).
func (d *DB) all(table string) string { return d.name + "." + table }

func isIdent(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0
}
