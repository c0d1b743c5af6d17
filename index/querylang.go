package index

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The metadata query language: Lucene's query string as users of SCID,
// ChessBase and lichess read it. Clauses side by side must all match (as
// with AND); OR separates alternatives and binds looser than AND; NOT,
// "-" and "!" exclude; "+" is accepted and changes nothing; parentheses
// group, also after a field (white:(carlsen OR anand)). A value is a word
// (wildcards * and ?, "\" escapes), a "quoted phrase", a comparison
// (>=2600, <"1990") or a range ([1990 TO 1995], {a TO b}, * for an open
// end). A word without a field asks the players, event, site and opening
// name.
//
// The parser only builds a tree (qnode); compile.go turns it into Bleve
// queries, where fields are checked and values fitted to the index.

// QueryError is a query that cannot be read or asks for a field the index
// does not have. Hint, when not empty, says what the user may have meant.
type QueryError struct {
	Query string
	Pos   int // byte offset in Query where the problem is, or -1
	Msg   string
	Hint  string
}

func (e *QueryError) Error() string {
	s := "query " + quote(e.Query) + ": " + e.Msg
	if e.Pos >= 0 {
		s += fmt.Sprintf(" (at character %d)", utf8.RuneCountInString(e.Query[:e.Pos])+1)
	}
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

func quote(s string) string { return "'" + s + "'" }

// IsQueryError reports whether err is (or wraps) a QueryError.
func IsQueryError(err error) bool {
	var qe *QueryError
	return errors.As(err, &qe)
}

// qkind is what a qnode is.
type qkind uint8

const (
	qAnd     qkind = iota // all of kids
	qOr                   // any of kids
	qNot                  // not kids[0]
	qAll                  // every game ("*" alone)
	qWord                 // field:word (maybe with wildcards)
	qPhrase               // field:"phrase"
	qCompare              // field:>=value
	qRange                // field:[lo TO hi]
)

// qnode is a parsed query.
type qnode struct {
	kind  qkind
	kids  []*qnode
	field string // "" for a word without a field
	pos   int    // where the clause starts in the query
	value string // word or phrase; for qCompare the bound
	op    string // for qCompare: ">=", ">", "<=", "<"
	// quoted says the value was written in quotes (a comparison's or a
	// range's bound may be).
	quoted bool
	// wild says the word has unescaped * or ?.
	wild bool
	// Ranges: lo and hi ("" for an open end) and whether each is included.
	lo, hi         string
	loIncl, hiIncl bool
}

// qparser reads one query string.
type qparser struct {
	src string
	i   int
}

// parseQueryTree reads a query string into a tree.
func parseQueryTree(src string) (*qnode, error) {
	p := &qparser{src: src}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.src) {
		if p.src[p.i] == ')' {
			return nil, p.errAt(p.i, "unbalanced parenthesis: ')' without '('", "")
		}
		return nil, p.errAt(p.i, "unexpected "+quote(p.src[p.i:p.i+1]), "")
	}
	if n == nil {
		return &qnode{kind: qAll}, nil
	}
	return n, nil
}

func (p *qparser) errAt(pos int, msg, hint string) error {
	return &QueryError{Query: p.src, Pos: pos, Msg: msg, Hint: hint}
}

func (p *qparser) space() {
	for p.i < len(p.src) && isSpace(p.src[p.i]) {
		p.i++
	}
}

// keyword reports whether the operator word kw (AND, OR, NOT) stands at
// the cursor as a word of its own, and skips it.
func (p *qparser) keyword(kw string) bool {
	if !strings.HasPrefix(p.src[p.i:], kw) {
		return false
	}
	end := p.i + len(kw)
	if end < len(p.src) && !isSpace(p.src[end]) && p.src[end] != '(' && p.src[end] != '"' {
		return false
	}
	p.i = end
	return true
}

// or reads alternatives separated by OR (or ||).
func (p *qparser) or() (*qnode, error) {
	var alts []*qnode
	start := p.i
	for {
		p.space()
		at := p.i
		n, err := p.and()
		if err != nil {
			return nil, err
		}
		p.space()
		isOr := p.keyword("OR") || p.lit("||")
		if n == nil {
			if isOr || len(alts) > 0 {
				return nil, p.errAt(at, "OR needs a clause on each side", "")
			}
			return nil, nil
		}
		alts = append(alts, n)
		if !isOr {
			break
		}
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &qnode{kind: qOr, kids: alts, pos: start}, nil
}

func (p *qparser) lit(s string) bool {
	if strings.HasPrefix(p.src[p.i:], s) {
		p.i += len(s)
		return true
	}
	return false
}

// and reads clauses side by side, or joined by AND (or &&), up to an OR,
// a closing parenthesis or the end.
func (p *qparser) and() (*qnode, error) {
	var all []*qnode
	start := p.i
	for {
		p.space()
		if p.i >= len(p.src) || p.src[p.i] == ')' {
			break
		}
		save := p.i
		if p.keyword("OR") || p.lit("||") {
			p.i = save
			break
		}
		andAt := p.i
		explicit := p.keyword("AND") || p.lit("&&")
		if explicit {
			p.space()
			if len(all) == 0 {
				return nil, p.errAt(andAt, "AND needs a clause on each side", "")
			}
		}
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		if n == nil {
			if explicit {
				return nil, p.errAt(andAt, "AND needs a clause on each side", "")
			}
			break
		}
		all = append(all, n)
	}
	switch len(all) {
	case 0:
		return nil, nil
	case 1:
		return all[0], nil
	}
	return &qnode{kind: qAnd, kids: all, pos: start}, nil
}

// unary reads NOT, -, ! or + before a clause.
func (p *qparser) unary() (*qnode, error) {
	p.space()
	at := p.i
	neg := false
	switch {
	case p.keyword("NOT"):
		neg = true
	case p.i < len(p.src) && (p.src[p.i] == '-' || p.src[p.i] == '!'):
		p.i++
		neg = true
	case p.i < len(p.src) && p.src[p.i] == '+':
		p.i++
	default:
		return p.primary()
	}
	n, err := p.unary()
	if err != nil {
		return nil, err
	}
	if n == nil {
		return nil, p.errAt(at, quote(strings.TrimSpace(p.src[at:p.i]))+" needs a clause after it", "")
	}
	if neg {
		return &qnode{kind: qNot, kids: []*qnode{n}, pos: at}, nil
	}
	return n, nil
}

// primary reads a parenthesised query or a clause.
func (p *qparser) primary() (*qnode, error) {
	p.space()
	if p.i >= len(p.src) {
		return nil, nil
	}
	at := p.i
	switch c := p.src[p.i]; c {
	case ')':
		return nil, nil
	case '(':
		return p.group("")
	}
	field := p.fieldName()
	if field != "" {
		return p.value(field, at)
	}
	return p.value("", at)
}

// group reads "( query )"; within a field's group, clauses without a field
// take that field.
func (p *qparser) group(field string) (*qnode, error) {
	open := p.i
	p.i++ // (
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i >= len(p.src) || p.src[p.i] != ')' {
		return nil, p.errAt(open, "unbalanced parenthesis: '(' without ')'", "")
	}
	p.i++
	if n == nil {
		return nil, p.errAt(open, "empty parentheses", "")
	}
	if field != "" {
		setField(n, field)
	}
	return n, nil
}

// setField gives the clauses of n without a field the field f.
func setField(n *qnode, f string) {
	if n.kind == qAnd || n.kind == qOr || n.kind == qNot {
		for _, k := range n.kids {
			setField(k, f)
		}
		return
	}
	if n.field == "" {
		n.field = f
	}
}

// fieldName reads "name:" at the cursor, or returns "" and leaves the
// cursor where it was.
func (p *qparser) fieldName() string {
	j := p.i
	for j < len(p.src) {
		c := p.src[j]
		if c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			j++
			continue
		}
		break
	}
	if j == p.i || j >= len(p.src) || p.src[j] != ':' {
		return ""
	}
	name := strings.ToLower(p.src[p.i:j])
	p.i = j + 1
	return name
}

// value reads what follows a field (or a bare clause): a phrase, a
// comparison, a range, a group or a word.
func (p *qparser) value(field string, at int) (*qnode, error) {
	if p.i >= len(p.src) || isSpace(p.src[p.i]) {
		return nil, p.errAt(at, "no value after "+quote(field+":"), "")
	}
	switch c := p.src[p.i]; {
	case c == '(' && field != "":
		return p.group(field)
	case c == '"':
		s, err := p.quoted()
		if err != nil {
			return nil, err
		}
		return &qnode{kind: qPhrase, field: field, value: s, pos: at, quoted: true}, nil
	case c == '[' || c == '{':
		return p.rangeValue(field, at)
	case c == '>' || c == '<':
		op := p.src[p.i : p.i+1]
		p.i++
		if p.i < len(p.src) && p.src[p.i] == '=' {
			op += "="
			p.i++
		}
		if field == "" {
			return nil, p.errAt(at, "a comparison needs a field, as in date:"+op+"1990", "")
		}
		v, quoted, err := p.bound()
		if err != nil {
			return nil, err
		}
		if v == "" {
			return nil, p.errAt(at, "no value after "+quote(field+":"+op), "")
		}
		return &qnode{kind: qCompare, field: field, op: op, value: v, quoted: quoted, pos: at}, nil
	}
	w, wild := p.word()
	if w == "" {
		return nil, p.errAt(at, "no value after "+quote(field+":"), "")
	}
	if field == "" && w == "*" {
		return &qnode{kind: qAll, pos: at}, nil
	}
	return &qnode{kind: qWord, field: field, value: w, wild: wild, pos: at}, nil
}

// quoted reads a "…" string with \ escapes.
func (p *qparser) quoted() (string, error) {
	open := p.i
	p.i++
	var b strings.Builder
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch c {
		case '\\':
			if p.i+1 < len(p.src) {
				b.WriteByte(p.src[p.i+1])
				p.i += 2
				continue
			}
		case '"':
			p.i++
			return b.String(), nil
		}
		b.WriteByte(c)
		p.i++
	}
	return "", p.errAt(open, "unbalanced quote: '\"' without its closing '\"'", "")
}

// bound reads a comparison's or range's value: quoted or a word.
func (p *qparser) bound() (string, bool, error) {
	if p.i < len(p.src) && p.src[p.i] == '"' {
		s, err := p.quoted()
		return s, true, err
	}
	w, _ := p.word()
	return w, false, nil
}

// word reads a bare value up to white space, a parenthesis or the end of
// a range; wild says it has an unescaped * or ?.
func (p *qparser) word() (string, bool) {
	var b strings.Builder
	wild := false
	for p.i < len(p.src) {
		c := p.src[p.i]
		if c == '\\' && p.i+1 < len(p.src) {
			_, size := utf8.DecodeRuneInString(p.src[p.i+1:])
			b.WriteString(p.src[p.i+1 : p.i+1+size])
			p.i += 1 + size
			continue
		}
		if isSpace(c) || c == '(' || c == ')' || c == ']' || c == '}' || c == '"' {
			break
		}
		if c == '*' || c == '?' {
			wild = true
		}
		r, size := utf8.DecodeRuneInString(p.src[p.i:])
		if unicode.IsSpace(r) { // ideographic space and the like
			break
		}
		b.WriteString(p.src[p.i : p.i+size])
		p.i += size
	}
	return b.String(), wild
}

// rangeValue reads [lo TO hi] or {lo TO hi} (either bracket on either
// side; * for an open end).
func (p *qparser) rangeValue(field string, at int) (*qnode, error) {
	if field == "" {
		return nil, p.errAt(at, "a range needs a field, as in date:[1990 TO 1995]", "")
	}
	open := p.i
	loIncl := p.src[p.i] == '['
	p.i++
	p.space()
	lo, loQuoted, err := p.bound()
	if err != nil {
		return nil, err
	}
	p.space()
	if !p.keyword("TO") {
		return nil, p.errAt(open, "a range is [low TO high]", "")
	}
	p.space()
	hi, hiQuoted, err := p.bound()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i >= len(p.src) || p.src[p.i] != ']' && p.src[p.i] != '}' {
		return nil, p.errAt(open, "unbalanced bracket: a range ends with ']' or '}'", "")
	}
	hiIncl := p.src[p.i] == ']'
	p.i++
	if lo == "" || hi == "" {
		return nil, p.errAt(open, "a range needs both ends (* for an open one)", "")
	}
	if lo == "*" && !loQuoted {
		lo = ""
	}
	if hi == "*" && !hiQuoted {
		hi = ""
	}
	return &qnode{kind: qRange, field: field, lo: lo, hi: hi, loIncl: loIncl, hiIncl: hiIncl, pos: at}, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
