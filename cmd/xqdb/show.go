package main

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/games"
	"github.com/xqdb/xqdb/importer"
	"github.com/xqdb/xqdb/importer/pgn"
	"github.com/xqdb/xqdb/index"
	"github.com/xqdb/xqdb/query"
	"github.com/xqdb/xqdb/query/api"
)

var showCommand = &cli.Command{
	Name:      "show",
	Usage:     "print a stored game as PGN",
	ArgsUsage: "[--notation N] ID",
	Description: `Prints game ID (as games lists it) as UTF-8 PGN with its tags, the
source it was imported from, and its moves in --notation (default: Chinese
for Xiangqi, SAN for chess).

--json prints one object: the fields of a games --json line (id, game,
white, black, event, date, result, rating, ply, opening, termination,
opening_name), the start position (fen), the tags as imported
([{"name","value"}]), the main line ([{"uci","move"}], move in --notation),
the source ({"file","game"}: the file and the 1-based index of the record
in it) and the PGN that show prints without --json.

Example:
   xqdb show 42 --notation wxf
   xqdb show 42 --json`,
	Flags: []cli.Flag{dbFlag, storeFlag,
		notationFlag,
		annotateFlag,
		jsonFlag},
	Action: runShow,
}

// annotateFlag has show and export add what xqdb found to what was
// imported: a Termination tag naming how the game ends by the rules
// ("checkmate", "perpetual chase", values the PGN standard does not
// define) and a {xqdb: …} comment at each ruling.
var annotateFlag = &cli.BoolFlag{Name: "annotate", Usage: "add xqdb's rulings: a Termination tag and {xqdb: …} comments"}

func runShow(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("show: give one game ID")
	}
	id, err := strconv.ParseUint(c.Args().First(), 10, 32)
	if err != nil {
		return usagef("show: %q is not a game ID", c.Args().First())
	}
	if cl := serverOf(c); cl != nil {
		var g api.StoredGame
		v := url.Values{"notation": {c.String("notation")}}
		if c.Bool("annotate") {
			v.Set("annotate", "true")
		}
		if err := cl.Get("/api/game/"+strconv.FormatUint(id, 10), v, &g); err != nil {
			return remoteError(err)
		}
		_, err := io.WriteString(c.App.Writer, g.PGN)
		return err
	}
	s, err := openDB(c)
	if err != nil {
		return err
	}
	defer s.Close()
	r, err := s.Game(uint32(id))
	if err != nil {
		return err
	}
	n, err := writeNotation(c, r.Game)
	if err != nil {
		return err
	}
	if !c.Bool("json") {
		w := pgn.NewWriter(c.App.Writer)
		writeStored(w, r, n, c.Bool("annotate"))
		return w.Flush()
	}
	return writeJSON(c.App.Writer, showOutput(r, s.Attrs(r.ID), n, c.Bool("annotate")))
}

// showJSON is the JSON of xqdb show: a games line, and the game itself.
type showJSON struct {
	gameLineJSON
	FEN    string         `json:"fen"` // the start position
	Tags   []tagJSON      `json:"tags"`
	Moves  []showMoveJSON `json:"moves"`
	Source showSourceJSON `json:"source"`
	PGN    string         `json:"pgn"`
}

type tagJSON struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// showMoveJSON is a move of the main line: coordinates (ICCS or UCI, as
// tree's uci) and --notation.
type showMoveJSON struct {
	UCI  string `json:"uci"`
	Move string `json:"move"`
}

type showSourceJSON struct {
	File string `json:"file"`
	Game int    `json:"game"` // 1-based index of the record in its file
}

func showOutput(r *index.Record, a index.Attrs, n engine.Notation, annotate bool) showJSON {
	out := showJSON{gameLineJSON: gameLine(query.GameRow{Record: r, Attrs: a, Ply: -1}),
		Tags: []tagJSON{}, Moves: []showMoveJSON{}, Source: showSourceJSON{File: r.Source.File, Game: r.Source.Index}}
	for _, t := range r.Tags {
		out.Tags = append(out.Tags, tagJSON{t.Name, t.Value})
	}
	if pos, err := games.New(r.Game, r.StartFEN); err == nil {
		out.FEN = pos.FEN()
		for _, m := range r.Moves {
			out.Moves = append(out.Moves, showMoveJSON{UCI: pos.FormatMove(m, engine.Coordinate(r.Game)), Move: pos.FormatMove(m, n)})
			pos.Make(m)
		}
	}
	var b bytes.Buffer
	w := pgn.NewWriter(&b)
	writeStored(w, r, n, annotate)
	w.Flush() // into a bytes.Buffer: no error
	out.PGN = b.String()
	return out
}

// writeStoredGames writes games as PGN in their order, each in the
// notation of its game. Formatting (SAN asks for each position's legal
// moves) runs on every core: each takes a stretch of a block of games into
// a buffer of its own, and the buffers are written in turn.
func writeStoredGames(dst io.Writer, rows []query.GameRow, notation [4]engine.Notation, annotate bool) error {
	const block = 4096
	workers := max(1, runtime.GOMAXPROCS(0))
	bufs := make([]bytes.Buffer, workers)
	for start := 0; start < len(rows); start += block {
		part := rows[start:min(start+block, len(rows))]
		per := (len(part) + workers - 1) / workers
		var wg sync.WaitGroup
		for k := range workers {
			lo, hi := min(k*per, len(part)), min((k+1)*per, len(part))
			bufs[k].Reset()
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := pgn.NewWriter(&bufs[k])
				for _, row := range part[lo:hi] {
					writeStored(w, row.Record, notation[row.Record.Game%4], annotate)
				}
				w.Flush() // into a bytes.Buffer: no error
			}()
		}
		wg.Wait()
		for k := range bufs {
			if _, err := dst.Write(bufs[k].Bytes()); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeStored writes a stored game as PGN: what was imported, with dates
// in the standard's form, and with annotate what xqdb found.
func writeStored(w *pgn.Writer, r *index.Record, n engine.Notation, annotate bool) {
	w.WriteTags(storedTags(r, annotate))
	if pos, err := games.New(r.Game, r.StartFEN); err == nil {
		var after func(i int)
		if annotate {
			after = func(i int) {
				for _, ru := range r.Rulings {
					if ru.Ply == i+1 {
						w.Comment("xqdb: " + rulingText(ru))
					}
				}
			}
		}
		writeLine(w, pos, fullMoveNumber(pos), r.Moves, r.Notes, n, after)
	}
	w.EndGame(r.Result.String())
}

// storedTags are the tags show and export write for a stored game: its
// own, and those a reader needs that it lacks (the game, the set-up, the
// result), and where it came from.
func storedTags(r *index.Record, annotate bool) []importer.Tag {
	tags := make([]importer.Tag, 0, len(r.Tags)+4)
	has := map[string]bool{}
	for _, t := range r.Tags {
		v := t.Value
		if name := lower(t.Name); name == "date" || name == "eventdate" {
			v = pgnDate(v)
		}
		tags = append(tags, importer.Tag{Name: t.Name, Value: v})
		has[lower(t.Name)] = true
	}
	add := func(name, value string) {
		if !has[lower(name)] && value != "" {
			tags = append(tags, importer.Tag{Name: name, Value: value})
		}
	}
	if r.Game == engine.Xiangqi {
		add("Game", "Chinese Chess")
	}
	if r.StartFEN != "" {
		if r.Game == engine.Chess {
			add("SetUp", "1")
		}
		add("FEN", r.StartFEN)
	}
	add("Result", r.Result.String())
	if annotate && r.Termination != engine.Ongoing {
		add("Termination", engine.Ruling{Game: r.Game, Status: r.Termination}.StatusName())
	}
	add("XqdbSource", fmt.Sprintf("%s#%d", r.Source.File, r.Source.Index))
	return tags
}

// writeMainLine writes move numbers and calls move for each move of a game,
// with the position before it (which it must not change).
func writeMainLine(w *pgn.Writer, g engine.Game, fen string, moves []engine.Move, move func(i int, pos engine.Position, m engine.Move)) {
	pos, err := games.New(g, fen)
	if err != nil {
		return
	}
	num := fullMoveNumber(pos) // the set-up's; it counts on after each second-side move
	for i, m := range moves {
		first := pos.SideToMove() == engine.First
		if first || i == 0 {
			if first {
				w.Word(strconv.Itoa(num) + ".")
			} else {
				w.Word(strconv.Itoa(num) + "...")
			}
		}
		move(i, pos, m)
		pos.Make(m)
		if !first {
			num++
		}
	}
}

// pgnDate writes a stored date as the PGN standard does (§8.1.1.3):
// "1996.04.17", "1996.??.??", "????.??.??" when nothing is known. A date
// that cannot be read without a guess ("97-11-19", "12月25日": no
// four-digit year) is written as it was, so that nothing is lost.
func pgnDate(v string) string {
	if d := index.ParseDate(v); d != 0 {
		return index.FormatDate(d)
	}
	if strings.ContainsAny(v, "123456789") {
		return v
	}
	return "????.??.??" // "", "0000-00-00", "?", "&nbsp;"
}

// rulingText describes a stored ruling in a game's movetext.
func rulingText(ru engine.Ruling) string {
	s := ru.StatusName() + " " + ru.Result.String()
	if ru.Result == engine.FirstWins || ru.Result == engine.SecondWins {
		s += " (" + ru.Side.Name(ru.Game) + " loses)"
	}
	return s
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

var exportCommand = &cli.Command{
	Name:      "export",
	Usage:     "write the games that reached a position and/or match a query as PGN",
	ArgsUsage: " ",
	Description: `Writes every game that games would list (all of them by default) to -o as
UTF-8 PGN, oldest first, moves in --notation. The games are written as
they were imported: their tags (dates in the standard's form, YYYY.MM.DD),
their moves, the source they came from (XqdbSource); --annotate adds xqdb's
rulings. A summary line goes to stderr: "exported N games to F".

Example:
   xqdb export --moves "h2e2 h9g7" --query 'date:>="2000"' -o central-cannon.pgn`,
	Flags: append(append([]cli.Flag{dbFlag, storeFlag}, positionFlags...),
		notationFlag,
		&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output PGN file (default: standard output)"},
		annotateFlag,
		jsonFlag),
	Action: runExport,
}

// exportSummary is the --json output of export.
type exportSummary struct {
	Games   int     `json:"games"`
	Out     string  `json:"out"` // the -o file, or "standard output"
	Seconds float64 `json:"seconds"`
}

func runExport(c *cli.Context) error {
	start := time.Now()
	req, err := listRequest(c)
	if err != nil {
		return err
	}
	req.Sort = query.ByDate
	// The database is the input: an output inside its folder would damage it.
	if err := checkOutputs([]string{c.String("db")}, nil, c.String("out")); err != nil {
		return err
	}
	s, err := openDB(c)
	if err != nil {
		return err
	}
	defer s.Close()
	list, err := query.Games(s, req)
	if err != nil {
		return err
	}
	var dst io.Writer = c.App.Writer
	f, err := createOutput(c.String("out"))
	if err != nil {
		return err
	}
	defer f.abort()
	if f != nil {
		dst = f
	}
	// --notation writes its own game's games; the other game's games (when
	// the request does not say the game) are written in their default.
	n, err := readNotation(c, "notation")
	if err != nil {
		return err
	}
	var notation [4]engine.Notation // by game
	for _, g := range []engine.Game{engine.Xiangqi, engine.Chess} {
		notation[g%4] = defaultNotation(g)
		if n.Game() == g {
			notation[g%4] = n
		}
	}
	if err := commitAll(writeStoredGames(dst, list.Games, notation, c.Bool("annotate")), f); err != nil {
		return err
	}
	sum := exportSummary{Games: len(list.Games), Out: c.String("out"), Seconds: time.Since(start).Seconds()}
	if f == nil {
		sum.Out = "standard output"
	}
	if c.Bool("json") {
		// Standard output holds the games when there is no -o.
		w := c.App.Writer
		if f == nil {
			w = c.App.ErrWriter
		}
		return writeJSON(w, sum)
	}
	fmt.Fprintf(c.App.ErrWriter, "exported %d games to %s\n", sum.Games, sum.Out)
	return nil
}
