package index

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2/search/query"
)

// Fields users may ask that are not tag names (DESIGN "Metadata"): aliases
// resolve symmetrically (red is white, redelo is whiteelo and the other
// way round), player asks either side, elo both players' known ratings,
// year and month are ranges of date.
var (
	fieldAliases = map[string]string{
		"red": "white", "eco": "opening", "ecco": "opening", "players": "player",
		"elo": "elo", "rating": "elo", "ply": "plies", "plycount": "plies",
		"redelo": "whiteelo", "variation": "opening_name",
	}
	// builtinFields are always known, whatever the games' tags.
	builtinFields = []string{"game", "white", "black", "player", "event", "site", "date", "year", "month",
		"round", "result", "opening", "opening_name", "plies", "whiteelo", "blackelo", "elo",
		"termination", "ruling", "source"}
)

// resultValues maps what users write after result: to the stored result.
var resultValues = map[string]string{
	"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "1/2": "1/2-1/2", "½-½": "1/2-1/2", "½": "1/2-1/2",
	"=": "1/2-1/2", "draw": "1/2-1/2", "white": "1-0", "red": "1-0", "black": "0-1",
	"*": "*", "unknown": "*", "ongoing": "*",
}

// fieldSet is the set of fields an index holds (tags become fields of
// their lower-cased name).
type fieldSet map[string]bool

// compileQuery turns a query string into a Bleve query. known is the
// index's fields; nil accepts every field (a syntax check only).
func compileQuery(src string, known fieldSet) (query.Query, error) {
	tree, err := parseQueryTree(src)
	if err != nil {
		return nil, err
	}
	c := &qcompiler{src: src, known: known}
	return c.node(tree)
}

type qcompiler struct {
	src   string
	known fieldSet
}

func (c *qcompiler) errAt(pos int, msg, hint string) error {
	return &QueryError{Query: c.src, Pos: pos, Msg: msg, Hint: hint}
}

func (c *qcompiler) node(n *qnode) (query.Query, error) {
	switch n.kind {
	case qAll:
		return query.NewMatchAllQuery(), nil
	case qNot:
		q, err := c.node(n.kids[0])
		if err != nil {
			return nil, err
		}
		b := query.NewBooleanQuery([]query.Query{query.NewMatchAllQuery()}, nil, []query.Query{q})
		return b, nil
	case qOr:
		alts := make([]query.Query, 0, len(n.kids))
		for _, k := range n.kids {
			q, err := c.node(k)
			if err != nil {
				return nil, err
			}
			alts = append(alts, q)
		}
		return query.NewDisjunctionQuery(alts), nil
	case qAnd:
		var must, not []query.Query
		for _, k := range n.kids {
			if k.kind == qNot {
				q, err := c.node(k.kids[0])
				if err != nil {
					return nil, err
				}
				not = append(not, q)
				continue
			}
			q, err := c.node(k)
			if err != nil {
				return nil, err
			}
			must = append(must, q)
		}
		if len(not) == 0 {
			return query.NewConjunctionQuery(must), nil
		}
		if len(must) == 0 {
			must = []query.Query{query.NewMatchAllQuery()}
		}
		return query.NewBooleanQuery(must, nil, not), nil
	}
	return c.clause(n)
}

// field resolves a clause's field: its canonical name, or an error naming
// the nearest known one.
func (c *qcompiler) field(n *qnode) (string, error) {
	f := n.field
	if a, ok := fieldAliases[f]; ok {
		f = a
	}
	if f == "" || slices.Contains(builtinFields, f) || c.known == nil || c.known[f] {
		return f, nil
	}
	hint := ""
	if near := nearestField(f, c.known); near != "" {
		hint = "did you mean " + near + "?"
	}
	return "", c.errAt(n.pos, "no field "+n.field, hint)
}

// clause compiles one field:value.
func (c *qcompiler) clause(n *qnode) (query.Query, error) {
	f, err := c.field(n)
	if err != nil {
		return nil, err
	}
	switch f {
	case "player":
		return c.any(n, "white", "black")
	case "whiteelo": // RedElo tags are indexed under their own name
		return c.any(n, "whiteelo", "redelo")
	case "elo":
		return c.elo(n)
	}
	return c.leaf(n, f)
}

// any asks n on each of fields, any of which may match.
func (c *qcompiler) any(n *qnode, fields ...string) (query.Query, error) {
	alts := make([]query.Query, len(fields))
	for i, f := range fields {
		q, err := c.leaf(n, f)
		if err != nil {
			return nil, err
		}
		alts[i] = q
	}
	return query.NewDisjunctionQuery(alts), nil
}

// leaf compiles n on the one index field f ("" for anyFields).
func (c *qcompiler) leaf(n *qnode, f string) (query.Query, error) {
	switch f {
	case "date", "year", "month":
		return c.date(n, f)
	case "result":
		return c.result(n)
	}
	if _, padded := paddedFields[f]; padded && !n.wild {
		return c.number(n, f)
	}
	n = codeCase(n, f)
	switch n.kind {
	case qWord:
		if n.wild {
			w := query.NewWildcardQuery(n.value)
			w.SetField(f)
			return adapt(w), nil
		}
		if slices.Contains(keywordFields, f) {
			t := query.NewTermQuery(n.value)
			t.SetField(f)
			return t, nil
		}
		m := query.NewMatchQuery(n.value)
		m.SetField(f)
		return adapt(m), nil
	case qPhrase:
		if slices.Contains(keywordFields, f) {
			t := query.NewTermQuery(n.value)
			t.SetField(f)
			return t, nil
		}
		m := query.NewMatchPhraseQuery(n.value)
		m.SetField(f)
		return adapt(m), nil
	case qCompare, qRange:
		if f == "" {
			return nil, c.errAt(n.pos, "a comparison needs a field", "")
		}
		lo, hi, loIncl, hiIncl := bounds(n)
		if analysed(f) {
			lo, hi = Fold(lo), Fold(hi)
		}
		r := query.NewTermRangeInclusiveQuery(lo, hi, &loIncl, &hiIncl)
		r.SetField(f)
		return r, nil
	}
	return nil, c.errAt(n.pos, "cannot read this clause", "")
}

// codeCase returns n with its values in the case a code field stores:
// opening codes in capitals (ECO C42, ECCO B05: the classifier writes
// them so), the game, termination and ruling names in small letters, so
// that opening:c4* finds C42 and game:Chess finds chess games. Other
// fields keep the case they were given (keyword fields that hold free
// text, round and source, are matched as written).
func codeCase(n *qnode, f string) *qnode {
	var fold func(string) string
	switch f {
	case "opening":
		fold = strings.ToUpper
	case "game", "termination", "ruling":
		fold = strings.ToLower
	default:
		return n
	}
	c := *n
	c.value, c.lo, c.hi = fold(c.value), fold(c.lo), fold(c.hi)
	return &c
}

// bounds reads a comparison or range as inclusive-or-not string bounds
// ("" for an open end); a word is the one value it names.
func bounds(n *qnode) (lo, hi string, loIncl, hiIncl bool) {
	switch n.kind {
	case qRange:
		return n.lo, n.hi, n.loIncl, n.hiIncl
	case qCompare:
		switch n.op {
		case ">=":
			return n.value, "", true, true
		case ">":
			return n.value, "", false, true
		case "<=":
			return "", n.value, true, true
		case "<":
			return "", n.value, true, false
		}
	}
	return n.value, n.value, true, true
}

// number compiles a comparison or range on a padded number field.
func (c *qcompiler) number(n *qnode, f string) (query.Query, error) {
	lo, hi, loIncl, hiIncl := bounds(n)
	width := paddedFields[f]
	var tlo, thi string
	if lo != "" {
		v, err := strconv.ParseFloat(lo, 64)
		if err != nil {
			return nil, c.errAt(n.pos, quote(lo)+" is not a number", "")
		}
		tlo = padFloat(v, width, &loIncl, true)
	}
	if hi != "" {
		v, err := strconv.ParseFloat(hi, 64)
		if err != nil {
			return nil, c.errAt(n.pos, quote(hi)+" is not a number", "")
		}
		thi = padFloat(v, width, &hiIncl, false)
	}
	t := true
	r := query.NewTermRangeInclusiveQuery(tlo, thi, &t, &t)
	r.SetField(f)
	return r, nil
}

// elo asks both players' ratings, where known, as SCID's rating search
// does: every known rating of the game meets the condition, and at least
// one is known.
func (c *qcompiler) elo(n *qnode) (query.Query, error) {
	white, err := c.any(n, "whiteelo", "redelo")
	if err != nil {
		return nil, err
	}
	black, err := c.leaf(n, "blackelo")
	if err != nil {
		return nil, err
	}
	known := func(f string) query.Query {
		t := true
		r := query.NewTermRangeInclusiveQuery("", "", &t, &t)
		r.SetField(f)
		return r
	}
	whiteKnown := query.NewDisjunctionQuery([]query.Query{known("whiteelo"), known("redelo")})
	return query.NewDisjunctionQuery([]query.Query{
		query.NewConjunctionQuery([]query.Query{white, black}),
		query.NewBooleanQuery([]query.Query{white}, nil, []query.Query{known("blackelo")}),
		query.NewBooleanQuery([]query.Query{black}, nil, []query.Query{whiteKnown}),
	}), nil
}

// result compiles result:v; result:* is an unknown result, not any.
func (c *qcompiler) result(n *qnode) (query.Query, error) {
	if n.kind != qWord && n.kind != qPhrase {
		return nil, c.errAt(n.pos, "result takes a value: 1-0, 0-1, 1/2-1/2 or * (unknown)", "")
	}
	v, ok := resultValues[strings.ToLower(n.value)]
	if !ok {
		return nil, c.errAt(n.pos, "no result "+quote(n.value), "results are 1-0, 0-1, 1/2-1/2 (or draw) and * (unknown)")
	}
	t := query.NewTermQuery(v)
	t.SetField("result")
	return t, nil
}

// date compiles a clause on date, year or month into a range of yyyymmdd
// keys (unknown parts 0): a partial date is the range of its days.
func (c *qcompiler) date(n *qnode, f string) (query.Query, error) {
	span := func(v string) (lo, hi uint64, err error) {
		if v == "" {
			return 0, 0, nil
		}
		lo, hi, ok := parseDateSpan(v)
		if !ok {
			return 0, 0, c.errAt(n.pos, quote(v)+" is not a date", "dates are 1990, 1990-05 or 1990-05-17 (also with . or /)")
		}
		if f == "year" && (lo%10000 != 0 || hi-lo != 9999) || f == "month" && (lo%100 != 0 || hi-lo != 99) {
			return 0, 0, c.errAt(n.pos, quote(v)+" is not a "+f, "")
		}
		return lo, hi, nil
	}
	if n.kind == qWord && n.wild {
		return nil, c.errAt(n.pos, "dates take no wildcards", "use a range: date:[1990 TO 1995]")
	}
	lo, hi, loIncl, hiIncl := bounds(n)
	a, aHi, err := span(lo)
	if err != nil {
		return nil, err
	}
	bLo, b, err := span(hi)
	if err != nil {
		return nil, err
	}
	// From the first day of the low bound (or after its last), up to the
	// last day of the high bound (or before its first).
	from, to := uint64(0), uint64(99999999)
	if lo != "" {
		from = a
		if !loIncl {
			from = aHi + 1
		}
	}
	if hi != "" {
		to = b
		if !hiIncl {
			if bLo == 0 {
				return query.NewMatchNoneQuery(), nil
			}
			to = bLo - 1
		}
	}
	if from > to {
		return query.NewMatchNoneQuery(), nil
	}
	return dateTermRange(from, to), nil
}

// parseDateSpan reads 1990, 1990-05, 1990-05-17 (separators - . /),
// 199005 and 19900517, and returns the first and last yyyymmdd keys it
// spans.
func parseDateSpan(v string) (lo, hi uint64, ok bool) {
	v = strings.TrimSpace(v)
	var parts []string
	if strings.ContainsAny(v, "-./") {
		parts = strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '.' || r == '/' })
	} else {
		switch len(v) {
		case 4:
			parts = []string{v}
		case 6:
			parts = []string{v[:4], v[4:]}
		case 8:
			parts = []string{v[:4], v[4:6], v[6:]}
		default:
			return 0, 0, false
		}
	}
	if len(parts) == 0 || len(parts) > 3 || len(parts[0]) != 4 {
		return 0, 0, false
	}
	var num [3]uint64
	for i, p := range parts {
		x, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return 0, 0, false
		}
		num[i] = x
	}
	y, m, d := num[0], num[1], num[2]
	if len(parts) > 1 && (m < 1 || m > 12) || len(parts) > 2 && (d < 1 || d > 31) {
		return 0, 0, false
	}
	switch len(parts) {
	case 1:
		return y * 10000, y*10000 + 9999, true
	case 2:
		return y*10000 + m*100, y*10000 + m*100 + 99, true
	}
	k := y*10000 + m*100 + d
	return k, k, true
}

// nearestField is the known field closest to f by edit distance, if any is
// close enough to be a likely typing mistake.
func nearestField(f string, known fieldSet) string {
	cands := append([]string(nil), builtinFields...)
	for a := range fieldAliases {
		cands = append(cands, a)
	}
	for k := range known {
		cands = append(cands, k)
	}
	sort.Strings(cands)
	best, bestD := "", len(f)/2+2
	for _, c := range cands {
		if d := editDistance(f, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is Levenshtein's distance between two short ASCII names.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
