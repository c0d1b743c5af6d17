// Package api is xqdb's HTTP API and the explorer page it serves (xqdb
// serve, issue 17), over package query. Its JSON shapes are the CLI's
// --json: cmd/xqdb prints the same types.
//
//	file        what
//	json.go     the JSON shapes shared with the CLI, and their builders
//	server.go   routing, limits, errors, the read endpoints
//	import.go   POST /api/import: one import at a time on the server's store
//	client.go   the CLI's side: finding a running server, calling it
//	web.go      the embedded page (web/: HTML, JS, CSS; no build step)
//
// The server owns the store: Badger locks its folder, so the CLI's
// commands on the same folder go through the server while it runs
// (client.go), and an import it runs commits run by run while reads
// answer from the last committed run (index.Store.Read).
package api
