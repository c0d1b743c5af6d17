package api

import (
	"fmt"
	"strings"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/engine/xiangqi"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query"
	"github.com/xqdb/xqdb/query/book"
	"github.com/xqdb/xqdb/query/opening"
	"github.com/xqdb/xqdb/replay"
)

// The JSON shapes of this file are those of the CLI's --json: cmd/xqdb
// prints these very types (tree, games, position, stats, book probe,
// import), so a script reads the server and the CLI alike.

// Tree is the JSON of xqdb tree and /api/tree.
type Tree struct {
	FEN string `json:"fen"`
	Key string `json:"key"`
	// Opening and OpeningName name the position's opening (query/opening):
	// left out when nothing names it.
	Opening     string     `json:"opening,omitempty"`
	OpeningName string     `json:"opening_name,omitempty"`
	Games       int        `json:"games"` // white + draws + black + unknown
	White       int        `json:"white"`
	Draws       int        `json:"draws"`
	Black       int        `json:"black"`
	Unknown     int        `json:"unknown"` // games without a known result
	EndedHere   int        `json:"ended_here"`
	Moves       []TreeMove `json:"moves"`
	// Hint, when no game of the position's game was found, says how many
	// games of the other game match the query (the CLI's tree).
	Hint string `json:"hint,omitempty"`
}

// TreeMove is one move of a Tree.
type TreeMove struct {
	UCI       string `json:"uci"`
	Move      string `json:"move"`
	Games     int    `json:"games"` // white + draws + black + unknown
	White     int    `json:"white"`
	Draws     int    `json:"draws"`
	Black     int    `json:"black"`
	Unknown   int    `json:"unknown"`
	AvgRating int    `json:"avg_rating"` // 0 when no game had ratings
	LastDate  string `json:"last_date"`  // "" when no date is known
}

// NewTree renders a tree of pos, its moves in notation n (at most limit
// of them when limit > 0).
func NewTree(pos engine.Position, t *query.Tree, n engine.Notation, limit int) Tree {
	g := pos.Game()
	out := Tree{FEN: pos.FEN(), Key: fmt.Sprintf("%016x", t.Key), Games: t.Games, White: t.FirstWins, Draws: t.Draws,
		Black: t.SecondWins, Unknown: t.Unknown, EndedHere: t.EndedHere, Moves: []TreeMove{}}
	for i, m := range t.Moves {
		if limit > 0 && i >= limit {
			break
		}
		out.Moves = append(out.Moves, TreeMove{UCI: pos.FormatMove(m.Move, engine.Coordinate(g)), Move: pos.FormatMove(m.Move, n),
			Games: m.Games, White: m.FirstWins, Draws: m.Draws, Black: m.SecondWins, Unknown: m.Unknown, AvgRating: m.AvgRating, LastDate: index.FormatDate(m.LastDate)})
	}
	return out
}

// PathOpening names the opening of the position reached by the moves of
// text from fen (any notation): ECO by position for chess, ECCO by move
// order for Xiangqi, which is known only from the start.
func PathOpening(g engine.Game, fen, text string) (opening.Opening, bool) {
	p, err := games.New(g, fen)
	if err != nil {
		return opening.Opening{}, false
	}
	keys := []uint64{p.Key()}
	var moves []engine.Move
	for _, tok := range strings.Fields(text) {
		m, err := p.ParseMove(tok, engine.Auto)
		if err != nil {
			return opening.Opening{}, false
		}
		p.Make(m)
		moves = append(moves, m)
		keys = append(keys, p.Key())
	}
	if g == engine.Xiangqi && (fen != "" || len(moves) == 0) {
		return opening.Opening{}, false
	}
	return opening.Classify(g, "", moves, keys)
}

// GameList is the JSON of xqdb games and /api/games.
type GameList struct {
	Total int        `json:"total"`
	Games []GameLine `json:"games"`
	// Hint, when nothing was found in the game asked, says how many games
	// of the other game match the query (the CLI's games).
	Hint string `json:"hint,omitempty"`
}

// GameLine is one listed game.
type GameLine struct {
	ID     uint32 `json:"id"`
	Game   string `json:"game"`
	White  string `json:"white"`
	Black  string `json:"black"`
	Event  string `json:"event"`
	Date   string `json:"date"`
	Result string `json:"result"`
	// Rating is the average of the players' known ratings (0: none).
	Rating  int    `json:"rating"`
	Ply     int    `json:"ply"`
	Opening string `json:"opening"`
	// Termination is how the record ends by the rules ("checkmate",
	// "perpetual_chase", …; "ongoing" when no rule decides it).
	Termination string `json:"termination"`
	// Opening is the game's ECO or ECCO code and OpeningName its name, as
	// query/opening classifies its moves (what the metadata index holds).
	OpeningName string `json:"opening_name"`
}

// NewGameList renders a page of games.
func NewGameList(list *query.GameList) GameList {
	out := GameList{Total: list.Total, Games: []GameLine{}}
	for _, row := range list.Games {
		out.Games = append(out.Games, NewGameLine(row))
	}
	return out
}

// NewGameLine is how a stored game is listed.
func NewGameLine(row query.GameRow) GameLine {
	r := row.Record
	white := r.Tag("White")
	if r.Game == engine.Xiangqi && white == "" {
		white = r.Tag("Red")
	}
	op, _ := opening.ClassifyMoves(r.Game, r.StartFEN, r.Moves)
	return GameLine{OpeningName: op.FullName(), ID: r.ID, Game: r.Game.String(), White: white, Black: r.Tag("Black"), Event: r.Tag("Event"),
		Date: index.FormatDate(row.Attrs.Date), Result: r.Result.String(), Rating: int(row.Attrs.Rating), Ply: row.Ply, Opening: op.Code,
		Termination: engine.Ruling{Game: r.Game, Status: r.Termination}.StatusName()}
}

// Position is the JSON of xqdb position and /api/position.
type Position struct {
	FEN        string              `json:"fen"`
	Key        string              `json:"key"`
	Side       string              `json:"side"`
	InCheck    bool                `json:"in_check"`
	Status     string              `json:"status"`
	Result     string              `json:"result"`
	EndPly     int                 `json:"end_ply"`
	LegalMoves []map[string]string `json:"legal_moves"`
	// Line is the moves played to get here, each in every notation of
	// the game, so that a client which sent them in any notation (or
	// pasted from a PGN) learns what they were.
	Line []map[string]string `json:"line"`
}

// MoveNotations lists, per game, the JSON field and notation of each
// rendering of a legal move in Position.LegalMoves.
var MoveNotations = map[engine.Game][]struct {
	Field    string
	Notation engine.Notation
}{
	engine.Xiangqi: {{"iccs", engine.ICCS}, {"wxf", engine.WXF}, {"chinese", engine.Chinese}, {"vietnamese", engine.Vietnamese}},
	engine.Chess:   {{"san", engine.SAN}, {"uci", engine.UCI}},
}

// MoveError is a move of a list that does not read in its position.
type MoveError struct {
	Index int // 1-based
	Token string
	Err   error
}

func (e *MoveError) Error() string { return fmt.Sprintf("move %d %q: %v", e.Index, e.Token, e.Err) }
func (e *MoveError) Unwrap() error { return e.Err }

// PlayPosition plays moves (tokens in notation n) on p under a referee
// and describes where they lead: status and result are those of the first
// decided end met (mate, stalemate or a ruling), with end_ply its ply,
// else of the final position (end_ply 0). It returns the ruling too.
func PlayPosition(p engine.Position, moves []string, n engine.Notation, rules xiangqi.Rules) (Position, engine.Ruling, error) {
	g := p.Game()
	ref := replay.NewReferee(p, rules)
	end := ref.Last()
	line := []map[string]string{}
	for i, tok := range moves {
		m, err := p.ParseMove(tok, n)
		if err != nil {
			return Position{}, end, &MoveError{Index: i + 1, Token: tok, Err: err}
		}
		line = append(line, MoveNames(p, m))
		if r := ref.Play(m); r.Decided() && !end.Decided() {
			end = r
		}
	}
	if !end.Decided() {
		end = engine.Ruling{Game: g} // ongoing, end_ply 0
	}
	res := Describe(p, end)
	res.Line = line
	return res, end, nil
}

// MoveNames is move m of p in every notation of p's game, keyed by the
// fields of MoveNotations.
func MoveNames(p engine.Position, m engine.Move) map[string]string {
	row := make(map[string]string, len(MoveNotations[p.Game()]))
	for _, f := range MoveNotations[p.Game()] {
		row[f.Field] = p.FormatMove(m, f.Notation)
	}
	return row
}

// Describe is the Position of p, ended by end (an undecided end: ongoing),
// with its legal moves in every notation of the game.
func Describe(p engine.Position, end engine.Ruling) Position {
	g := p.Game()
	res := Position{
		FEN:        p.FEN(),
		Key:        fmt.Sprintf("%016x", p.Key()),
		Side:       p.SideToMove().Name(g),
		InCheck:    p.InCheck(),
		Status:     end.StatusName(),
		Result:     end.Result.String(),
		EndPly:     end.Ply,
		LegalMoves: []map[string]string{},
		Line:       []map[string]string{},
	}
	for _, m := range p.AppendLegalMoves(nil) {
		res.LegalMoves = append(res.LegalMoves, MoveNames(p, m))
	}
	return res
}

// Stats is the JSON of xqdb stats and /api/stats.
type Stats struct {
	Games   int            `json:"games"`
	PerGame map[string]int `json:"per_game"`
	Plies   int64          `json:"plies"`
	// Positions counts (game, position) pairs in the index: each game once
	// per distinct position it reached. Popular counts the positions with
	// their own statistics (reached by many games).
	Positions   int64          `json:"positions"`
	Popular     int64          `json:"popular_positions"`
	BadgerBytes int64          `json:"badger_bytes"`
	BleveBytes  int64          `json:"bleve_bytes"`
	Bytes       int64          `json:"bytes"`
	Entries     map[string]any `json:"entries"`
	// Dir is the database folder (not in --json: the CLI names it itself).
	Dir string `json:"-"`
}

// StatsOf counts what s holds.
func StatsOf(s index.DB) (Stats, error) {
	sum, err := s.Summary()
	if err != nil {
		return Stats{}, err
	}
	out := Stats{Games: sum.Games, PerGame: sum.PerGame, Plies: sum.Plies, Positions: sum.Positions, Popular: sum.Popular,
		BadgerBytes: sum.Bytes["badger"], BleveBytes: sum.Bytes["bleve"], Entries: sum.Entries, Dir: s.Dir()}
	for _, b := range sum.Bytes {
		out.Bytes += b
	}
	return out, nil
}

// BookProbe is the JSON of xqdb book probe and /api/book.
type BookProbe struct {
	Format string     `json:"format"`
	FEN    string     `json:"fen"`
	Moves  []BookMove `json:"moves"`
}

// BookMove is one book move; uci is ICCS for Xiangqi, and the counts are
// left out when the format does not keep them.
type BookMove struct {
	UCI    string  `json:"uci"`
	Move   string  `json:"move"`
	Weight int     `json:"weight"`
	Share  float64 `json:"share"`
	Wins   *int    `json:"wins,omitempty"`
	Draws  *int    `json:"draws,omitempty"`
	Losses *int    `json:"losses,omitempty"`
}

// NewBookProbe renders the book moves of pos in notation n.
func NewBookProbe(f book.Format, pos engine.Position, moves []book.Move, n engine.Notation) BookProbe {
	g := pos.Game()
	out := BookProbe{Format: string(f), FEN: pos.FEN(), Moves: []BookMove{}}
	total := 0
	for _, m := range moves {
		total += m.Weight
	}
	for _, m := range moves {
		j := BookMove{UCI: pos.FormatMove(m.Move, engine.Coordinate(g)), Move: pos.FormatMove(m.Move, n), Weight: m.Weight}
		if total > 0 {
			j.Share = float64(m.Weight) / float64(total)
		}
		if m.HasCounts {
			w, d, l := m.Wins, m.Draws, m.Losses
			j.Wins, j.Draws, j.Losses = &w, &d, &l
		}
		out.Moves = append(out.Moves, j)
	}
	return out
}

// ImportSummary is the JSON of xqdb import, and of a finished
// /api/import job.
type ImportSummary struct {
	// Unreadable counts files and archive members that gave no game.
	Unreadable int `json:"unreadable_files"`
	// NotGames counts records that hold no game by their format's own
	// account (CCBridge section titles; kind "not_a_game").
	NotGames int `json:"not_games"`
	Games    int `json:"games"`
	Added    int `json:"added"`
	// AlreadySaved counts records an earlier import of the same file
	// stored (an interrupted one, or the same file imported again).
	AlreadySaved int     `json:"already_saved"`
	Duplicates   int     `json:"duplicates"`
	Rejected     int     `json:"rejected"`
	Positions    int     `json:"positions"`
	Seconds      float64 `json:"seconds"`
	Mismatches   int     `json:"result_mismatches"`
	// HeaderOnly counts the added games without moves (kept for their
	// metadata; clean reports them as "empty").
	HeaderOnly int `json:"header_only"`
	// VariationErrors counts the variations cut at an illegal move (their
	// games are stored, the variation up to that move).
	VariationErrors int `json:"variation_errors"`
}
