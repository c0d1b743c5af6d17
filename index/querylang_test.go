package index

import (
	"strings"
	"testing"
)

// TestQueryErrorSaysWhere: a query error names the query, the character
// where reading stopped, and a hint.
func TestQueryErrorSaysWhere(t *testing.T) {
	_, err := compileQuery(`white:carlsen whte:anand`, fieldSet{"white": true})
	want := `query 'white:carlsen whte:anand': no field whte (at character 15); did you mean white?`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant  %s", err, want)
	}
}

// TestQueryTree pins how the parser groups what users type: OR binds
// looser than AND, NOT binds to one clause, a field's group passes its
// field on.
func TestQueryTree(t *testing.T) {
	for _, tt := range []struct{ q, want string }{
		{`a b OR c`, `OR(AND(a b) c)`},
		{`a AND b OR c AND d`, `OR(AND(a b) AND(c d))`},
		{`a (b OR c)`, `AND(a OR(b c))`},
		{`-a b`, `AND(NOT(a) b)`},
		{`NOT a OR b`, `OR(NOT(a) b)`},
		{`white:(a OR "b c") d`, `AND(OR(white:a white:"b c") d)`},
		{`date:[1990 TO *}`, `date:[1990 TO *}`},
		{`elo:>=2600`, `elo:>=2600`},
		{`result:1/2-1/2`, `result:1/2-1/2`},
		{`black:"Lü \"Qin\""`, `black:"Lü "Qin""`},
		{`*`, `*`},
		{``, `*`},
		{`ORx ANDy`, `AND(ORx ANDy)`}, // not operators: words that begin so
	} {
		tree, err := parseQueryTree(tt.q)
		if err != nil {
			t.Errorf("%q: %v", tt.q, err)
			continue
		}
		if got := treeString(tree); got != tt.want {
			t.Errorf("%q: %s, want %s", tt.q, got, tt.want)
		}
	}
}

func treeString(n *qnode) string {
	kids := func(name string) string {
		var s []string
		for _, k := range n.kids {
			s = append(s, treeString(k))
		}
		return name + "(" + strings.Join(s, " ") + ")"
	}
	f := ""
	if n.field != "" {
		f = n.field + ":"
	}
	switch n.kind {
	case qAnd:
		return kids("AND")
	case qOr:
		return kids("OR")
	case qNot:
		return kids("NOT")
	case qAll:
		return "*"
	case qPhrase:
		return f + `"` + n.value + `"`
	case qCompare:
		return f + n.op + n.value
	case qRange:
		lo, hi := n.lo, n.hi
		if lo == "" {
			lo = "*"
		}
		if hi == "" {
			hi = "*"
		}
		open, end := "{", "}"
		if n.loIncl {
			open = "["
		}
		if n.hiIncl {
			end = "]"
		}
		return f + open + lo + " TO " + hi + end
	}
	return f + n.value
}

// FuzzQueryString: no query string makes the parser or the compiler
// panic; an error is always a *QueryError.
func FuzzQueryString(f *testing.F) {
	for _, s := range []string{`black:"Lü Qin" date:>="1990"`, `(a OR b) AND NOT c`, `date:[1990 TO *}`,
		`elo:>=2600 -result:*`, `white:(a OR "b`, `\"(`, `field:[a TO`, `a:b:c`, `!!-+x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if _, err := compileQuery(q, fieldSet{"white": true}); err != nil && !IsQueryError(err) {
			t.Fatalf("%q: error %T %v", q, err, err)
		}
	})
}
