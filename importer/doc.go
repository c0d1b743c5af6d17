// Package importer reads game-record archives, Xiangqi and chess, into raw
// records: tags, start position, move tokens exactly as written, comments
// and variations, and where each came from. It knows nothing of the rules;
// package replay checks the moves later.
//
// The reader contract is modelled on encoding/csv: Next returns one
// *Record at a time and io.EOF at the end; a *ParseError concerns one
// record and reading goes on with the next; I/O errors are sticky. With
// ReuseRecord set, Next returns the same record each time and allocates
// nothing per move.
//
// NewReader and Open sniff the format (gzip by its magic bytes, then tar
// and zip archives, XQF by "XQ", CCBridge by "CCBridgeLibrary"/"CCBridge
// Record", DhtmlXQ by "[DhtmlXQ"/"[DHJHtmlXQ", PGN
// otherwise) and Walk reads whole folders. The members of an archive are
// read as files, named "archive!member". A file that gives no game at all
// says so with an UnreadableError.
//
//	file / package     what
//	doc.go             this overview
//	alias.go           the shared types and errors, re-exported from record
//	reader.go          Reader, NewReader, Open: sniffing formats and gzip
//	archive.go         tar and zip members read as files
//	unreadable.go      UnreadableError and its reasons
//	walk.go            Walk and Files: folders, extensions, unsupported formats
//	record/            Record, Token, ParseError, game detection (leaf package)
//	textenc/           encoding detection (UTF-8, GBK, Big5, cp1252, cp437)
//	pgn/               PGN reader, chess and XQ PGN
//	xqf/               XQF (XQStudio) reader, versions 10–18
//	dhtmlxq/           DhtmlXQ (dpxq.com) reader
//	cbl/               CCBridge (象棋桥) .cbl library and .cbr record reader
//	internal/board/    Xiangqi board to FEN, for XQF, DhtmlXQ and CCBridge
package importer
