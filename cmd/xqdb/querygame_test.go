package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const twoGamesEach = `[Event "x"]
[White "Fischer, Robert J."]
[Black "Spassky, Boris"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0

[Event "y"]
[White "Spassky, Boris"]
[Black "Fischer, Robert J."]
[Result "0-1"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 0-1

[Game "Chinese Chess"]
[Red "Hu Ronghua"]
[Black "Lu Qin"]
[Result "1-0"]

1. h2e2 h9g7 2. h0g2 i9h9 1-0

[Game "Chinese Chess"]
[Red "Lu Qin"]
[Black "Hu Ronghua"]
[Result "0-1"]

1. h2e2 h9g7 2. h0g2 g6g5 0-1
`

// TestGameFromQuery: without --game, a query's fields say the game of the
// position asked (eco: chess; ecco:, red: Xiangqi); when an answer in one
// game is empty, it says how many games of the other game match and how
// to ask for them (issue 14).
func TestGameFromQuery(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	importJSON(t, "--db", db, writeFile(t, "both.pgn", twoGamesEach))
	const toChess = "0 xiangqi games; 2 chess games match — add --game chess"
	const toXiangqi = "0 chess games; 2 xiangqi games match — add --game xiangqi"
	const oneToXiangqi = "0 chess games; 1 xiangqi game matches — add --game xiangqi"
	for _, tt := range []struct {
		args      []string
		games     int
		hint      string
		firstMove string // the tree's first move (ICCS or UCI): the game read
	}{
		{[]string{"tree", "--query", "eco:C*"}, 2, "", "e2e4"},
		{[]string{"tree", "--query", "red:hu"}, 1, "", "h2e2"},
		{[]string{"tree", "--query", `ecco:B05 black:"lu qin"`}, 1, "", "h2e2"},
		{[]string{"tree", "--query", "player:fischer"}, 0, toChess, ""},
		{[]string{"tree", "--game", "chess", "--query", `player:"lu qin"`}, 0, toXiangqi, ""},
		{[]string{"games", "--game", "xiangqi", "--query", "player:fischer"}, 0, toChess, ""},
		{[]string{"games", "--moves", "h2e2", "--query", "player:fischer"}, 0, toChess, ""},
		{[]string{"games", "--moves", "e4 e5", "--query", "red:hu"}, 0, oneToXiangqi, ""},
		{[]string{"games", "--query", "player:fischer"}, 2, "", ""},
	} {
		args := append(tt.args, "--db", db, "--json")
		code, out, stderr := runCLI(t, args...)
		var got struct {
			Games json.RawMessage
			Total int
			Hint  string
			Moves []treeMoveJSON
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
			t.Errorf("xqdb %s: exit %d, %v: %s", strings.Join(args, " "), code, err, stderr)
			continue
		}
		n := got.Total
		if tt.args[0] == "tree" {
			_ = json.Unmarshal(got.Games, &n)
		}
		if n != tt.games || got.Hint != tt.hint || (tt.firstMove != "" && (len(got.Moves) == 0 || got.Moves[0].UCI != tt.firstMove)) {
			t.Errorf("xqdb %s: %d games, hint %q, moves %+v; want %d, %q, %s", strings.Join(args, " "), n, got.Hint, got.Moves, tt.games, tt.hint, tt.firstMove)
		}
		if tt.hint != "" {
			if _, text, _ := runCLI(t, append(tt.args, "--db", db)...); !strings.Contains(text, tt.hint) {
				t.Errorf("xqdb %s: the listing does not say %q:\n%s", strings.Join(tt.args, " "), tt.hint, text)
			}
		}
	}
}
