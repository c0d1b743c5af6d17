package replay

import (
	"testing"

	"github.com/xqdb/xqdb/engine"
)

// TestReplayHeaderOnlyGames: with KeepEmpty, a record with tags and no
// moves (FIDE's Women's World Rapid 2024 broadcast: results, ratings,
// FIDE ids) is a game without moves; without it, or without tags, it is
// still "empty" (what clean reports).
func TestReplayHeaderOnlyGames(t *testing.T) {
	const fide = "[Event \"FIDE Women’s World Rapid Championships 2024\"]\n[Round \"1.1\"]\n[White \"Charkhalashvili, Inga\"]\n[Black \"Ju, Wenjun\"]\n[Result \"0-1\"]\n[WhiteElo \"2289\"]\n[Variant \"Standard\"]\n\n"
	tests := []struct {
		name   string
		pgn    string
		keep   bool
		kind   string // "" when kept
		game   engine.Game
		result engine.Result
		fen    string
	}{
		{name: "FIDE header", pgn: fide, keep: true, game: engine.Chess, result: engine.SecondWins},
		{name: "FIDE header, clean", pgn: fide, kind: "empty"},
		{name: "no game named: chess", pgn: "[Event \"x\"]\n[Result \"1/2-1/2\"]\n\n1/2-1/2\n", keep: true, game: engine.Chess, result: engine.Draw},
		{name: "xiangqi", pgn: "[Game \"Chinese Chess\"]\n[Red \"胡荣华\"]\n[Result \"1-0\"]\n\n1-0\n", keep: true, game: engine.Xiangqi, result: engine.FirstWins},
		{name: "set-up", pgn: "[White \"A\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n*\n", keep: true, game: engine.Chess,
			fen: "4k3/8/8/8/8/8/8/4K2R w K - 0 1"},
		{name: "bad set-up", pgn: "[White \"A\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n", keep: true, kind: "bad_fen"},
		{name: "no tags, no moves", pgn: "{a comment} *\n", keep: true, kind: "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := replayText(t, tt.pgn, Replayer{KeepEmpty: tt.keep, Ranks: true})
			if tt.kind != "" {
				if err == nil || Kind(err) != tt.kind {
					t.Fatalf("err = %v, want kind %s", err, tt.kind)
				}
				return
			}
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			if len(g.Moves) != 0 || len(g.Keys) != 1 || g.Game != tt.game || g.Result != tt.result || g.StartFEN != tt.fen {
				t.Fatalf("got %d moves %d keys, game %v result %v fen %q", len(g.Moves), len(g.Keys), g.Game, g.Result, g.StartFEN)
			}
		})
	}
}
