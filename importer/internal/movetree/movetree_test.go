package movetree

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/xqdb/xqdb/importer/record"
)

// text writes a walk as PGN-like movetext: moves by their From byte,
// comments as {From}.
type text struct{ b strings.Builder }

func (t *text) Move(n *Node, depth int) { fmt.Fprintf(&t.b, "%d ", n.From) }
func (t *text) Comment(n *Node, depth int) {
	if n.Cmt1 > n.Cmt0 {
		fmt.Fprintf(&t.b, "{%d} ", n.From)
	}
}
func (t *text) Mark(k record.Kind, depth int, at int64, s string) { t.b.WriteString(s + " ") }

// step is one node of a preorder walk as the formats store it.
type step struct {
	from      byte
	next, alt bool
	comment   bool
}

// TestLinkAndWalk: nodes given in preorder (a node, its continuation
// subtree, then its next alternative's subtree) come out as the main line
// with each move's alternatives right after it, as XQF and CCBridge
// records are read.
func TestLinkAndWalk(t *testing.T) {
	for _, tt := range []struct {
		name  string
		steps []step
		want  string
	}{
		{"root only", []step{{0, false, false, true}}, "{0}"},
		{"main line", []step{{0, true, false, false}, {1, true, false, false}, {2, true, false, true}, {3, false, false, false}}, "1 2 {2} 3"},
		// 1 (4 5) 2 3: node 1 announces an alternative, 4, after its subtree 2 3.
		{"alternative to the first move", []step{{0, true, false, false}, {1, true, true, false}, {2, true, false, false}, {3, false, false, false}, {4, true, false, false}, {5, false, false, false}},
			"1 ( 4 5 ) 2 3"},
		// 2 and 3 announce alternatives; 3's alternative 7 announces
		// another, 8: each comes right after the move it replaces.
		{"alternatives deeper in the line", []step{{0, true, false, false}, {1, true, false, false}, {2, true, true, false}, {3, false, true, false}, {7, false, true, false}, {8, false, false, false}, {6, false, false, false}},
			"1 2 ( 6 ) 3 ( 7 ) ( 8 )"},
	} {
		var l Linker
		l.Reset(nil)
		done := false
		for i, s := range tt.steps {
			n := Node{From: s.from}
			if s.comment {
				n.Cmt0, n.Cmt1 = 0, 1
			}
			done = l.Add(n, s.next, s.alt)
			if done != (i == len(tt.steps)-1) {
				t.Fatalf("%s: step %d: done %v", tt.name, i, done)
			}
		}
		var w text
		if err := Walk(l.Nodes, &w, "test"); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		if got := strings.TrimSpace(w.b.String()); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestTooDeep: variations nested past record.MaxDepth are left out with
// ErrTooDeep; the main line is written whole.
func TestTooDeep(t *testing.T) {
	// The main move 1 has an alternative X1; X1's second move has an
	// alternative X2, and so on: each X nests one level deeper.
	levels := record.MaxDepth + 3
	nodes := []Node{{Child: 1, Sib: -1}, {From: 1, Child: 2, Sib: 3}, {From: 2, Child: -1, Sib: -1}}
	for d := 1; d <= levels; d++ {
		x := int32(len(nodes))
		sib := int32(-1)
		if d < levels {
			sib = x + 2
		}
		nodes = append(nodes, Node{From: 10, Child: x + 1, Sib: -1}, Node{From: 11, Child: -1, Sib: sib})
	}
	var w text
	err := Walk(nodes, &w, "test")
	if !errors.Is(err, record.ErrTooDeep) || !strings.HasPrefix(err.Error(), "test: ") {
		t.Fatalf("err %v, want ErrTooDeep named test", err)
	}
	out := w.b.String()
	if n := strings.Count(out, "("); n != record.MaxDepth || strings.Count(out, ")") != n {
		t.Errorf("%d variations opened, want %d, all closed: %s", n, record.MaxDepth, out)
	}
	if !strings.HasPrefix(out, "1 ( ") || !strings.HasSuffix(out, ") 2 ") {
		t.Errorf("the main line is not whole: %s", out)
	}
}

// TestReset: a linker reused keeps no link of the tree before.
func TestReset(t *testing.T) {
	var l Linker
	l.Reset(nil)
	l.Add(Node{}, true, false)
	l.Add(Node{From: 1}, true, true)
	l.Reset(l.Nodes)
	l.Add(Node{}, true, false)
	if !l.Add(Node{From: 5}, false, false) || len(l.Nodes) != 2 || l.Nodes[0].Child != 1 || l.Nodes[1].Sib != -1 {
		t.Errorf("after Reset: %+v", l.Nodes)
	}
}
