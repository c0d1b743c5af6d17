package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query"
	"github.com/xqdb/xqdb/query/api"
)

var gamesCommand = &cli.Command{
	Name:      "games",
	Usage:     "list the games that reached a position and/or match a metadata query",
	ArgsUsage: " ",
	Description: `Lists games, newest first by default: those that reached the position of
--fen/--moves (at the ply shown), those whose metadata match --query, or
both. Without either it lists every game (of --game, when given).

A query is written in xqdb's query language, Lucene's query string as
game databases read it: clauses side by side must all match (black:"Lü Qin"
date:>="1990" is Lü Qin's games with Black since 1990); OR separates
alternatives and binds looser (white:carlsen OR black:carlsen); NOT, - and
! exclude; AND and + change nothing; parentheses group, also after a field
(white:(carlsen OR anand)). A value is a word (wildcards * and ?), a
"quoted phrase", a comparison (>=2600, <1990) or a range ([1990 TO 1995],
{a TO b}, * for an open end). A word without a field is looked for in the
players, event, site and opening name. An unknown field or an unbalanced
quote or parenthesis is an error (exit 2) that names the nearest field.

Query fields: game, white (red is an alias), black, player (either side),
event, site, date, year, month, round, result (1-0, 0-1, 1/2-1/2, * for an
unknown result), opening (ECCO or ECO code; eco and ecco are aliases),
opening_name, plies, whiteelo (redelo), blackelo, elo (both players),
termination (how the record ends by the rules: checkmate,
perpetual_chase, threefold, …), ruling (every ruling made over the game),
source and every other tag lower-cased (redteam, …). Dates compare as
dates: date:>="1990", date:<1996-05, date:1990.05.01; numbers as numbers:
whiteelo:>2700, plies:<40. Words match whatever their case, diacritics
(Lu Qin finds Lü Qin, Nguyen finds Nguyễn), script (吕钦 finds 呂欽, as
CCPD writes it) and romanisation (Lu Qin and LV Qin find 呂欽).

Example:
   xqdb games --moves "h2e2 h9g7" --query 'black:"胡榮華"' --limit 5
   xqdb games --query 'white:fischer result:1-0' --sort -rating
   xqdb games --query 'fischer -result:1/2-1/2 date:>=1970'`,
	Flags: append(append([]cli.Flag{dbFlag, storeFlag}, positionFlags...),
		&cli.StringFlag{Name: "sort", Value: "-date", Usage: "date (oldest first), -date (newest first), rating or -rating (the average of the players' known ratings); games without a date or rating come last"},
		&cli.IntFlag{Name: "limit", Value: 20, Usage: "games per page (0: all)"},
		&cli.IntFlag{Name: "offset", Value: 0, Usage: "games to skip"},
		notationFlag,
		batchFlag,
		jsonFlag),
	Action: runGames,
}

// gamesJSON is the JSON of xqdb games: api.GameList, which /api/games
// serves too.
type gamesJSON = api.GameList

// otherGameHint says, when an answer in game g is empty, how many games of
// the other game match query q: "0 xiangqi games; 700 chess games match
// — add --game chess" (issue 14); "" when none do.
func otherGameHint(s index.DB, g engine.Game, q string) (string, error) {
	if strings.TrimSpace(q) == "" {
		return "", nil
	}
	other := engine.Chess
	if g == engine.Chess {
		other = engine.Xiangqi
	}
	list, err := query.Games(s, query.ListRequest{Options: query.Options{Query: q, Filter: "game:" + other.String()}, Limit: 1})
	if err != nil || list.Total == 0 {
		return "", err
	}
	match := "games match"
	if list.Total == 1 {
		match = "game matches"
	}
	return fmt.Sprintf("0 %v games; %d %v %s — add --game %v", g, list.Total, other, match, other), nil
}

type gameLineJSON = api.GameLine

// listRequest reads what games and export select: the position of --fen
// and --moves, --mirror, and --query (narrowed to --game when no position
// says the game).
func listRequest(c *cli.Context) (query.ListRequest, error) {
	g, err := parseGameFlag(c)
	if err != nil {
		return query.ListRequest{}, err
	}
	pos, _, err := askedPosition(c, g)
	if err != nil {
		return query.ListRequest{}, err
	}
	if pos != nil || c.IsSet("game") {
		n, err := readNotation(c, "notation")
		if err != nil {
			return query.ListRequest{}, err
		}
		if err := checkNotation("notation", n, g); err != nil {
			return query.ListRequest{}, err
		}
	}
	opt := query.Options{Mirror: c.Bool("mirror"), Query: c.String("query")}
	if pos == nil && c.IsSet("game") {
		opt.Filter = "game:" + g.String()
	}
	if err := index.ValidateQuery(opt.Query); err != nil {
		return query.ListRequest{}, usageError{err}
	}
	return query.ListRequest{Position: pos, Options: opt}, nil
}

func runGames(c *cli.Context) error {
	req, err := listRequest(c)
	if err != nil {
		return err
	}
	if req.Sort, err = query.ParseSort(c.String("sort")); err != nil {
		return usageError{err}
	}
	req.Limit, req.Offset = c.Int("limit"), c.Int("offset")
	if c.IsSet("batch") {
		return runGamesBatch(c, req)
	}
	var out gamesJSON
	if cl := serverOf(c); cl != nil {
		if out, err = remoteGames(c, cl, req); err != nil {
			return err
		}
	} else {
		s, err := openDB(c)
		if err != nil {
			return err
		}
		defer s.Close()
		list, err := query.Games(s, req)
		if err != nil {
			return err
		}
		out = api.NewGameList(list)
		if list.Total == 0 && (req.Position != nil || c.IsSet("game")) {
			g, _ := parseGameFlag(c)
			if out.Hint, err = otherGameHint(s, g, req.Query); err != nil {
				return err
			}
		}
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, out)
	}
	w := c.App.Writer
	if out.Hint != "" {
		fmt.Fprintln(w, out.Hint)
		return nil
	}
	fmt.Fprintf(w, "%d games\n", out.Total)
	for _, l := range out.Games {
		fmt.Fprintln(w, listingLine(l))
	}
	return nil
}

// gamesBatchLine is one answer of games --batch.
type gamesBatchLine struct {
	FEN string `json:"fen"`
	gamesJSON
	Micros int64  `json:"micros"`
	Error  string `json:"error,omitempty"`
}

// runGamesBatch lists the games of every position of --batch in one
// process, each list timed as tree --batch times trees (issue 18: game
// lists must stay as fast as trees when the database grows). --query,
// --mirror, --sort, --limit and --offset apply to every position.
func runGamesBatch(c *cli.Context, req query.ListRequest) error {
	g, err := parseGameFlag(c)
	if err != nil {
		return err
	}
	s, err := openDB(c)
	if err != nil {
		return err
	}
	defer s.Close()
	req.Filter = "" // each line's position says its game
	return eachBatchPosition(c.String("batch"), g, func(pos engine.Position, fen string, err error) error {
		out := gamesBatchLine{FEN: fen}
		if err == nil {
			req.Position = pos
			start := time.Now()
			var list *query.GameList
			if list, err = query.Games(s, req); err == nil {
				out.Micros = time.Since(start).Microseconds()
				out.gamesJSON = api.NewGameList(list)
			}
		}
		if err != nil {
			out.Error = err.Error()
		}
		return writeJSON(c.App.Writer, out)
	})
}

// listingLine is a game in a listing: id, date, result, average rating,
// the players ("?" for a missing name), then what is known of the event,
// the opening and the ply the position was reached at, with no separator
// left for what is missing.
func listingLine(l gameLineJSON) string {
	rating := ""
	if l.Rating > 0 {
		rating = fmt.Sprint(l.Rating)
	}
	date := l.Date
	if date == "" {
		date = "?"
	}
	line := fmt.Sprintf("%7d  %-10s %-7s %4s  %s – %s", l.ID, date, l.Result, rating, orUnknown(l.White), orUnknown(l.Black))
	var more []string
	if l.Event != "" {
		more = append(more, l.Event)
	}
	if op := strings.TrimSpace(l.Opening + " " + l.OpeningName); op != "" {
		more = append(more, op)
	}
	if l.Ply >= 0 {
		more = append(more, fmt.Sprintf("ply %d", l.Ply))
	}
	if len(more) > 0 {
		line += ", " + strings.Join(more, ", ")
	}
	return line
}

func orUnknown(s string) string {
	if s = strings.TrimSpace(s); s == "" {
		return "?"
	}
	return s
}

// gameLine is how a stored game is listed.
func gameLine(row query.GameRow) gameLineJSON { return api.NewGameLine(row) }
