package chess

// init sets the package up in dependency order: attack tables, key tables,
// then positions that need both. (Package-level variable initialisers run
// before any init function, so nothing that parses a FEN may be one.)
func init() {
	initAttacks()
	initZobrist()
	b, err := parseBoard(StartFEN)
	if err != nil {
		panic("chess: start position: " + err.Error())
	}
	startBoard = b
}
