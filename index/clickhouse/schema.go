package clickhouse

import (
	"fmt"
	"strings"
)

// SchemaVersion is the version of the table layout below; a database of
// another version is refused, as the Badger store refuses one.
//
//	1  terms held each term's field and text in every row
//	2  terms hold a term's id (termID) and dict its field and text
const SchemaVersion = 2

// The tables (DESIGN "index store interface"), one set per database:
//
//	games      gid → the compact record and the attributes queries sort
//	           and filter on; ORDER BY gid
//	positions  one row per game and distinct position it reached: key,
//	           game, gid, first ply, move code played there, and the
//	           game's result, date and rating, so that a tree is one
//	           GROUP BY over a key's rows; ORDER BY (key, game, gid)
//	terms      the metadata index: every term Bleve would index, as its
//	           id (termID of field and term), with the game and the term's
//	           position, so a search for given terms reads a range of ids;
//	           ORDER BY (tid, gid)
//	dict       the distinct terms: field, term, id, for the searches that
//	           need the text (ranges, wildcards, the fields there are);
//	           ORDER BY (field, term), duplicates merged away
//	manifest   the commit record: rows above the last next_gid are an
//	           interrupted import's, which reads ignore and the next
//	           import deletes
//
// With several shards each node holds the *_local tables and a
// Distributed table of the plain name over them: positions are sharded by
// key (a tree reads the one shard that holds it), games and terms by gid.
// dict is small and whole on every shard, so that a shard resolves a
// term's id itself.
//
// Granules (index_granularity, the rows a read of one key decompresses at
// least) are small where reads are points: a tree reads one key's rows of
// positions, a page of games a few records.
var tables = []struct {
	name, columns, order, shardBy string
	granularity                   int
	engine                        string
}{
	{"games", "gid UInt32, game UInt8, result UInt8, date UInt32, rating UInt16, plies UInt16, hash UInt64, players UInt32, record String", "gid", "gid", 256, "MergeTree"},
	{"positions", "key UInt64, game UInt8, gid UInt32, ply UInt16, code UInt16, result UInt8, date UInt32, rating UInt16", "(key, game, gid)", "key", 1024, "MergeTree"},
	{"terms", "tid UInt64, gid UInt32, pos UInt32", "(tid, gid)", "gid", 8192, "MergeTree"},
	{"dict", "field String, term String, tid UInt64", "(field, term)", "", 8192, "ReplacingMergeTree"},
}

// tableBlock returns an empty block of table (named local on its node),
// which knows the table's ORDER BY (sort.go).
func tableBlock(local, table string) *block {
	for _, t := range tables {
		if t.name == table {
			b := newBlock(local, parseColumns(t.columns))
			b.order = sortOrder(t.order, b.cols)
			b.layout = layoutOf(b.cols, b.order)
			return b
		}
	}
	panic("clickhouse: no table " + table)
}

// presized is tableBlock with room for rows rows, so that filling it moves
// nothing: as many items, for a table whose rows are sorted as items
// (sort.go), else in every column: a fixed-width column takes rows values,
// a String column rows times stringBytes of it.
func presized(local, table string, rows int) *block {
	b := tableBlock(local, table)
	if b.layout != nil {
		b.items = make([]sortItem, 0, rows)
		return b
	}
	for i, c := range b.cols {
		w := fixedWidth(c.typ)
		if w == 0 {
			w = stringBytes[table+"."+c.name]
		}
		b.data[i] = make([]byte, 0, rows*w)
	}
	return b
}

// stringBytes is what a String column's value takes on average, its
// length's varint included: a compact record of all of ../shared/data
// takes 359 bytes on average (2026-12-02); field names and terms are
// mostly a word or a date. A column that needs more grows once and keeps
// its room (the block is used again).
var stringBytes = map[string]int{"games.record": 384, "dict.field": 8, "dict.term": 16}

// ddl returns the statements that create the database on one node. Only
// syntax that 18.16 and current releases both read: MergeTree and
// ReplacingMergeTree with ORDER BY … SETTINGS index_granularity,
// Distributed(cluster, db, table, key), TinyLog.
func (d *DB) ddl(first bool) []string {
	db := d.name
	out := []string{"CREATE DATABASE IF NOT EXISTS " + db}
	for _, t := range tables {
		local := d.local(t.name)
		out = append(out, fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s (%s) ENGINE = %s ORDER BY %s SETTINGS index_granularity = %d",
			local, t.columns, t.engine, t.order, t.granularity))
		if d.cluster != "" && t.shardBy != "" {
			out = append(out, fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s (%s) ENGINE = Distributed(%s, %s, %s_local, %s)",
				db, t.name, t.columns, d.cluster, db, t.name, t.shardBy))
		}
	}
	if first {
		out = append(out, "CREATE TABLE IF NOT EXISTS "+db+".manifest (schema UInt32, next_gid UInt32) ENGINE = TinyLog")
	}
	return out
}

// local names table's rows on one node (dict is whole on every node).
func (d *DB) local(table string) string {
	if d.cluster != "" && table != "dict" {
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
