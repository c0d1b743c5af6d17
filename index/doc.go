// Package index stores games and their positions: Badger holds the game
// records (badger/), the position index and per-position move statistics
// (a Badger a run, runs/RUN) and the manifest, attributes and hashes
// (globals/); Bleve holds one metadata document per game. It knows
// nothing of notation or the CLI.
//
// Position index, in two tiers (DESIGN "Keys and storage"; keys.go has
// the byte layouts):
//
//   - Popular positions (reached by at least PromoteAt games, counted
//     across runs) have, per import run, a stats value E|run|S|game|key:
//     per-next-move aggregates (games, wins, draws, losses, rating sum,
//     last date) and the run's game list (gid deltas and the slot of the
//     move played), so a tree query on the start position reads a few
//     values, not 100,000 games.
//   - Every other occurrence goes to the tail: per game, run and 14-bit
//     key bucket, a block E|run|T|game|bucket of (gid, fingerprint) pairs,
//     Rice-coded gid gaps and fingerprints only as wide as the block needs
//     once the runs of the store the import leaves are merged (tail.go).
//     A lookup reads the bucket's blocks and replays the few candidate
//     games, which both verifies the real position (64-bit keys can
//     collide) and recovers the ply, the next move and the result.
//
// Games are records E|run|g|gid under the run that added them (record.go)
// and attributes in chunks a|chunk of
// 4096 games (date, result, rating, plies and the de-duplication hash),
// which readers and writers hold in memory.
//
// Imports are batched into runs. A run writes everything keyed so that
// redoing it rewrites the same bytes, then commits by updating the manifest
// (next game id, live runs). After a crash the next import redoes the
// uncommitted run: nothing is lost or doubled. A run's values live in a
// Badger of their own, written once (runstore.go), and its records sort
// after every earlier run's (so Badger's compactions of an import's
// tables rewrite no older runs or records); the end of an import merges
// runs by size tiers (merge.go) reading the merged runs only, into a new
// folder, and removes theirs; promotion counts earlier runs' games
// in a fixed-size sketch (counts.go): an import costs what it adds, not
// what the store holds (issue 18).
//
//	file         what
//	keys.go      key prefixes and byte layouts (the on-disk format)
//	record.go    compact game records and the canonical move index
//	attrs.go     per-game attributes (date, result, rating, hash) in chunks
//	tail.go      Rice-coded tail blocks
//	stats.go     popular-position stats entries and game lists
//	head.go      heads of large stats values: aggregates, newest games
//	meta.go      Bleve mapping and documents
//	store.go     Open/Close, schema version, manifest
//	runstore.go  the runs' Badgers, and the view and batch that route keys
//	             to the store's, the globals' or a run's Badger
//	writer.go    the import writer: dedupe, runs, flush, commit
//	merge.go     merging runs by size tiers
//	counts.go    the opening positions' counts that promotion asks (a sketch)
//	popular.go   the keys of the popular positions (p|), which a writer lists
//	migrate.go   rewriting a store of the previous schema version
//	metaindex.go feeding Bleve in the background
//	reader.go    lookups: positions, games, attributes
//	search.go    metadata queries (Bleve query strings, adapted to the fields)
//	usage.go     bytes on disk per key kind (xqdb stats)
//	safety.go    opening safely: foreign folders, recovery after a kill, a missing metadata index
//	space.go     free-space checks before writing (a full disk must not SIGBUS Badger)
//	check.go     comparing records, positions and metadata (xqdb check)
//	reindex.go   rebuilding the position or metadata index from the records
//	backend.go   the store interface (DB, GameWriter) the commands use, and
//	             OpenDB with backends registered by URL scheme
//	portable.go  what another backend needs of prepared games and records
//	termquery.go query strings over a TermSource: the same answers as
//	             Bleve from another backend's stored terms
package index
