// Package index stores games and their positions: Badger holds the game
// records, the position index and per-position move statistics; Bleve holds
// one metadata document per game. It knows nothing of notation or the CLI.
//
// Position index, in two tiers (DESIGN "Keys and storage"):
//
//   - Popular positions (reached by at least PromoteAt games) have a stats
//     entry s|key with per-next-move aggregates (games, wins, draws,
//     losses, rating sum, last date) and per-run game lists l|key|run
//     (game id deltas + the slot of the move played), so a tree query on
//     the start position reads one value, not 100,000 games.
//   - Every other occurrence goes to the tail: per 16-bit key bucket and
//     per import run, a block t|bucket|run of (16-bit fingerprint, game
//     id) pairs, Rice-coded, about 3.5 bytes per position. A lookup reads
//     the bucket's blocks and replays the few candidate games, which both
//     verifies the real position (64-bit keys can collide) and recovers the
//     ply, the next move and the result.
//
// Imports are batched into runs. A run writes everything keyed so that
// redoing it rewrites the same bytes, then commits by updating the manifest
// (next game id, live runs, per-file progress). After a crash the next
// import redoes the uncommitted run: nothing is lost or doubled.
//
//	file         what
//	keys.go      key prefixes and byte layouts (the on-disk format)
//	record.go    compact game records and the canonical move index
//	attrs.go     per-game attributes (date, result, rating) in chunks
//	tail.go      Rice-coded tail blocks
//	stats.go     popular-position stats entries and game lists
//	meta.go      Bleve mapping and documents
//	store.go     Open/Close, schema version, manifest
//	writer.go    the import writer: dedupe, runs, flush, commit
//	reader.go    lookups: positions, games, attributes
package index
