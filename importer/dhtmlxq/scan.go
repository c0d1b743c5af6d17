package dhtmlxq

import (
	"bytes"
	"strconv"
	"strings"
)

// block is one [DhtmlXQ]…[/DhtmlXQ] record in the file.
type block struct {
	start, end int  // byte range in the file, closing tag included
	closed     bool // the closing tag was found
	dhj        bool // DHJHtmlXQ numeric-tag dialect
}

// Openers and closers of a record (NOTATIONS §8; vschess also reads the
// DHJHtmlXQ dialect of dhjhtmlxq.com).
var (
	openers = [][]byte{[]byte("[DhtmlXQ]"), []byte("[DhtmlXQiFrame]"), []byte("[DHJHtmlXQ]")}
	closers = [][]byte{[]byte("[/DhtmlXQ]"), []byte("[/DhtmlXQiFrame]"), []byte("[/DHJHtmlXQ]")}
)

// findBlocks returns the records in data. A file with tags but no opener
// (a bare tag list) is one record.
func findBlocks(data []byte) []block {
	var out []block
	var next openerIndex
	p := 0
	for {
		start, which := next.from(data, p)
		if start < 0 {
			break
		}
		body := start + len(openers[which])
		b := block{start: start, dhj: which == 2}
		// Look for the closer only before the next opener: each byte is
		// searched once however many blocks are left open.
		k, _ := next.from(data, body)
		limit := len(data)
		if k >= 0 {
			limit, k = k, k-body
		}
		j, _ := indexAny(data[body:limit], closers)
		switch {
		case j >= 0:
			b.end = body + j + len(closers[which])
			if e := bytes.IndexByte(data[body+j:], ']'); e >= 0 {
				b.end = body + j + e + 1
			}
			b.closed = true
		case k >= 0:
			b.end = body + k
		default:
			b.end = len(data)
		}
		out = append(out, b)
		p = b.end
	}
	if len(out) == 0 {
		if i := bytes.Index(data, []byte("[DhtmlXQ_")); i >= 0 {
			out = append(out, block{start: i, end: len(data), closed: true})
		} else if i := bytes.Index(data, []byte("[DHJHtmlXQ_")); i >= 0 {
			out = append(out, block{start: i, end: len(data), closed: true, dhj: true})
		}
	}
	return out
}

// openerIndex finds the next opener of each kind once: searching the
// rest of the file for all three at every block would take time in
// proportion to the blocks times the file's size.
type openerIndex struct {
	at    [3]int // next position of each opener, -1 none left
	known [3]bool
}

// from returns the first opener at or after p and which it is (-1, -1
// when none is left).
func (o *openerIndex) from(data []byte, p int) (int, int) {
	best, which := -1, -1
	for w, s := range openers {
		if !o.known[w] || o.at[w] >= 0 && o.at[w] < p {
			o.known[w] = true
			o.at[w] = -1
			if i := bytes.Index(data[p:], s); i >= 0 {
				o.at[w] = p + i
			}
		}
		if i := o.at[w]; i >= 0 && (best < 0 || i < best) {
			best, which = i, w
		}
	}
	return best, which
}

func indexAny(b []byte, seps [][]byte) (int, int) {
	best, which := -1, -1
	for w, s := range seps {
		if i := bytes.Index(b, s); i >= 0 && (best < 0 || i < best) {
			best, which = i, w
		}
	}
	return best, which
}

// field is one [DhtmlXQ_name]value[/DhtmlXQ_name] pair; positions are file
// offsets of the value.
type field struct {
	name       string
	val0, val1 int
}

// fields lists the tag pairs of a block. A value runs to its own closing
// tag, or to the next closing tag of any name as vschess reads it.
func fields(data []byte, b block) []field {
	prefix, closePrefix := []byte("[DhtmlXQ_"), []byte("[/DhtmlXQ_")
	if b.dhj {
		prefix, closePrefix = []byte("[DHJHtmlXQ_"), []byte("[/DHJHtmlXQ_")
	}
	var out []field
	p := b.start
	for p < b.end {
		i := bytes.Index(data[p:b.end], prefix)
		if i < 0 {
			break
		}
		n0 := p + i + len(prefix)
		e := bytes.IndexByte(data[n0:b.end], ']')
		if e < 0 {
			break
		}
		name := string(data[n0 : n0+e])
		v0 := n0 + e + 1
		// A value never holds another opening tag: search for its closing
		// tag only up to the next one (linear on hostile input).
		limit := b.end
		if o := bytes.Index(data[v0:b.end], prefix); o >= 0 {
			limit = v0 + o
		}
		closeTag := append(append(append([]byte(nil), closePrefix...), name...), ']')
		v1, next := limit, limit
		if c := bytes.Index(data[v0:limit], closeTag); c >= 0 {
			v1, next = v0+c, v0+c+len(closeTag)
		} else if c := bytes.Index(data[v0:limit], closePrefix); c >= 0 {
			v1, next = v0+c, v0+c+len(closePrefix)
		}
		out = append(out, field{name: name, val0: v0, val1: v1})
		p = next
	}
	return out
}

// dhjNames maps the DHJHtmlXQ dialect's numeric tags to DhtmlXQ names
// (vschess main.js, table DHJHtmlXQ).
var dhjNames = map[string]string{
	"10": "title", "11": "event", "13": "date", "14": "place", "15": "round", "16": "table",
	"17": "red", "18": "redname", "19": "redlevel", "20": "redrating",
	"21": "black", "22": "blackname", "23": "blacklevel", "24": "blackrating",
	"28": "result", "29": "redtime", "30": "blacktime", "31": "board", "32": "startplayer",
	"33": "startstep", "34": "movelist_up", "36": "open", "37": "variation",
	"40": "remark", "41": "author", "42": "record",
}

// pgnNames maps DhtmlXQ metadata to PGN tag names (NOTATIONS §8, vschess
// "pgn" table: place→Site, open→Opening, ecco→ECCO).
var pgnNames = map[string]string{
	"title": "Title", "event": "Event", "date": "Date", "place": "Site", "round": "Round",
	"table": "Table", "red": "Red", "redteam": "RedTeam", "redrating": "RedElo",
	"redtime": "RedTime", "black": "Black", "blackteam": "BlackTeam",
	"blackrating": "BlackElo", "blacktime": "BlackTime", "result": "Result",
	"open": "Opening", "ecco": "ECCO", "variation": "Variation", "remark": "Annotator",
	"author": "Author", "redname": "RedName", "blackname": "BlackName",
	"redlevel": "RedLevel", "blacklevel": "BlackLevel", "record": "Recorder",
	"judge": "Judge", "group": "Group", "timerule": "TimeControl",
}

// tagName returns the PGN name of a metadata field: the mapped name, or
// the field name capitalised.
func tagName(name string) string {
	if n, ok := pgnNames[strings.ToLower(name)]; ok {
		return n
	}
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// resultOf maps DhtmlXQ results to PGN: 红胜/黑胜/和棋/未知 on dpxq.com,
// W/L/D on the English wxf.ca pages (NOTATIONS §8).
func resultOf(v string) string {
	v = strings.TrimSpace(v)
	switch v {
	case "1-0", "0-1", "1/2-1/2", "*":
		return v
	case "W", "w":
		return "1-0"
	case "L", "l":
		return "0-1"
	case "D", "d":
		return "1/2-1/2"
	}
	red := strings.ContainsAny(v, "红紅")
	black := strings.Contains(v, "黑")
	win := strings.ContainsAny(v, "胜勝")
	switch {
	case win && red && !black, strings.Contains(v, "先胜") || strings.Contains(v, "先勝"):
		return "1-0"
	case win && black && !red, strings.Contains(v, "后胜") || strings.Contains(v, "後勝"):
		return "0-1"
	case strings.ContainsAny(v, "和"):
		return "1/2-1/2"
	}
	return "*"
}

// commentKey parses comment field names: "comment12" (main line, after
// ply 12), "comment3_12" (branch 3, after ply 12), and the DHJHtmlXQ
// spellings "comment_12", "game_comment_12".
func commentKey(name string) (branch, ply int, ok bool) {
	name = strings.TrimPrefix(name, "game_")
	rest, found := strings.CutPrefix(name, "comment")
	if !found {
		return 0, 0, false
	}
	rest = strings.TrimPrefix(rest, "_")
	if a, b, two := strings.Cut(rest, "_"); two {
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(b)
		return x, y, err1 == nil && err2 == nil && x >= 0 && y >= 0
	}
	y, err := strconv.Atoi(rest)
	return 0, y, err == nil && y >= 0
}

// branchKey parses "move_A_B_C": branch C replaces ply B of branch A.
func branchKey(name string) (a, b, c int, ok bool) {
	rest, found := strings.CutPrefix(name, "move_")
	if !found {
		return 0, 0, 0, false
	}
	parts := strings.Split(rest, "_")
	if len(parts) != 3 {
		return 0, 0, 0, false
	}
	var v [3]int
	for i, s := range parts {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, 0, 0, false
		}
		v[i] = n
	}
	return v[0], v[1], v[2], v[2] != 0
}
