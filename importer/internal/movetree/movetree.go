// Package movetree holds the move trees of the binary Xiangqi formats
// (XQF, CCBridge): both store a game's moves as a preorder walk — a node,
// its continuation subtree, then the subtree of its next alternative — and
// both are written out as PGN-style movetext, the main line with each
// move's alternatives as variations right after it. The readers decode
// their own node records; linking and walking the tree is shared here.
package movetree

import (
	"fmt"

	"github.com/xqdb/xqdb/importer/record"
)

// Node is one move of a tree. Index 0 is the start position's node, whose
// comment is the game's opening comment.
type Node struct {
	From, To   byte  // squares in the format's own numbering
	Child, Sib int32 // first continuation; next alternative to this move (-1 none)
	At         int64 // offset of the node's record, for error reports
	Cmt0, Cmt1 int   // its comment's bytes in the reader's buffer
}

// Linker links nodes given in preorder. A stack of nodes whose alternative
// is still to come replaces recursion, so hostile nesting cannot exhaust
// the goroutine stack.
type Linker struct {
	Nodes           []Node
	pending         []int32 // nodes whose alternative follows their subtree
	parent, prevSib int32
}

// Reset starts a tree in nodes[:0], reusing its storage.
func (l *Linker) Reset(nodes []Node) {
	l.Nodes, l.pending, l.parent, l.prevSib = nodes[:0], l.pending[:0], -1, -1
}

// Add appends n, the next node of the walk. next says a continuation
// follows it, alt that an alternative to it follows its subtree (the root
// has none). It reports whether the tree is complete.
func (l *Linker) Add(n Node, next, alt bool) (done bool) {
	idx := int32(len(l.Nodes))
	n.Child, n.Sib = -1, -1
	l.Nodes = append(l.Nodes, n)
	switch {
	case l.prevSib >= 0:
		l.Nodes[l.prevSib].Sib = idx
	case l.parent >= 0:
		l.Nodes[l.parent].Child = idx
	}
	if alt && idx > 0 {
		l.pending = append(l.pending, idx)
	}
	if next {
		l.parent, l.prevSib = idx, -1
		return false
	}
	if len(l.pending) == 0 {
		return true
	}
	// This subtree is done: the next node is the alternative of the most
	// recent node that announced one.
	l.parent, l.prevSib = -1, l.pending[len(l.pending)-1]
	l.pending = l.pending[:len(l.pending)-1]
	return false
}

// Writer receives the movetext elements of a walk.
type Writer interface {
	Move(n *Node, depth int)
	Comment(n *Node, depth int)
	// Mark writes a variation's "(" (record.VariationStart) or ")"
	// (record.VariationEnd); at is the offset of the move it replaces.
	Mark(k record.Kind, depth int, at int64, text string)
}

// Walk writes the tree of nodes to w: the root's comment, then the main
// line with each move's alternatives as variations right after it, PGN
// style. Variations nested deeper than record.MaxDepth are left out, and
// the error (named after format) says so; everything else is written.
func Walk(nodes []Node, w Writer, format string) error {
	if len(nodes) == 0 {
		return nil
	}
	wk := walker{nodes: nodes, w: w, format: format}
	w.Comment(&nodes[0], 0)
	wk.line(nodes[0].Child, 0)
	return wk.err
}

type walker struct {
	nodes  []Node
	w      Writer
	format string
	err    error
}

// line writes the moves from node i on at the given depth. The first
// move's own alternatives are the caller's business.
func (wk *walker) line(i int32, depth int) {
	for first := true; i >= 0; first = false {
		n := &wk.nodes[i]
		wk.w.Move(n, depth)
		wk.w.Comment(n, depth)
		if !first || depth == 0 {
			wk.alternatives(n, depth)
		}
		i = n.Child
	}
}

// alternatives writes the moves that could replace n, each as a variation.
func (wk *walker) alternatives(n *Node, depth int) {
	if n.Sib < 0 {
		return
	}
	if depth+1 > record.MaxDepth {
		if wk.err == nil {
			wk.err = fmt.Errorf("%s: %w (more than %d)", wk.format, record.ErrTooDeep, record.MaxDepth)
		}
		return
	}
	for a := n.Sib; a >= 0; a = wk.nodes[a].Sib {
		wk.w.Mark(record.VariationStart, depth+1, n.At, "(")
		wk.line(a, depth+1)
		wk.w.Mark(record.VariationEnd, depth+1, n.At, ")")
	}
}
