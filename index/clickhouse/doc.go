// Package clickhouse is the ClickHouse backend of index.DB (issue 19):
// the same games, trees, game lists, metadata queries and stats as the
// Badger + Bleve store, for databases that outgrow one machine. It is
// selected with --store clickhouse://HOST:PORT[,HOST:PORT…]/DB[?cluster=C]
// (or XQDB_STORE) and registers itself with index.RegisterBackend.
//
// It speaks the HTTP interface, Native blocks in and RowBinary rows out,
// which the Debian 18.16 server and current releases read alike, and uses
// SQL both understand (MergeTree ORDER BY, Distributed, TinyLog, ALTER … DELETE).
// What is stored is what the Badger store stores: the same compact
// records (index.Prepared.Encoded), one position row per game and
// distinct position (index.Prepared.EachOccurrence) and the terms Bleve
// would index (index.Prepared.EachTerm), which index.SearchTerms queries
// with the same language and answers.
//
//	file        what
//	client.go   HTTP requests, RowBinary rows, SQL quoting
//	native.go   Native blocks: the columns an insert sends
//	sort.go     rows packed as they are added and sorted by ORDER BY before they are sent
//	schema.go   the tables, on one server or as shards behind Distributed
//	db.go       opening, reads: games, attributes, positions, search, stats
//	writer.go   batched, idempotent inserts; cleaning an interrupted import
//	lock.go     the writer's lock: imports take turns (a table created atomically)
//	chtest/     real servers for tests: config written by the test, free ports
package clickhouse
