package cbl

import (
	"encoding/binary"
	"fmt"

	"github.com/xqdb/xqdb/importer/record"
)

// Node flags of the move stream (see the package comment).
const (
	flagEnd     = 0x01 // no continuation: the line ends here
	flagAlt     = 0x02 // an alternative to this move follows its subtree
	flagComment = 0x04 // a u32 byte length and a UTF-16LE comment follow
)

// maxNodes bounds the moves of a record: each node takes 40 bytes, so
// the nodes stay near the record limit.
const maxNodes = record.DefaultMaxRecordSize / 80

// node is one move of the tree. Index 0 is the start position's node,
// whose comment is the game's opening comment.
type node struct {
	from, to   byte  // squares row×9+file, row 0 Black's back rank
	child, sib int32 // first continuation; next alternative to this move (-1 none)
	at         int   // offset of the node's 4 bytes in the record
	cmt0, cmt1 int   // its comment's bytes in the record
}

// readTree decodes the move stream of a record into nodes: a node, its
// continuation subtree (unless it ends the line), then the subtree of its
// next alternative (when it announces one), as XQF lays out its tree. A
// stack of nodes whose alternative is still to come replaces recursion, so
// hostile nesting cannot exhaust the goroutine stack.
//
// On a defect it returns the nodes read so far with the error.
func readTree(data []byte, nodes []node) ([]node, error) {
	var pending []int32 // nodes whose alternative follows their subtree
	parent, prevSib := int32(-1), int32(-1)
	p := offMoves
	for {
		if p+4 > len(data) {
			return nodes, fmt.Errorf("cbl: %w: move record %d missing at offset %#x", record.ErrTruncated, len(nodes), p)
		}
		flags := data[p]
		n := node{from: data[p+2], to: data[p+3], child: -1, sib: -1, at: p}
		p += 4
		if flags&flagComment != 0 {
			if p+4 > len(data) {
				return nodes, fmt.Errorf("cbl: %w: comment length missing at offset %#x", record.ErrTruncated, p)
			}
			size := int64(binary.LittleEndian.Uint32(data[p:]))
			p += 4
			if size > int64(len(data)-p) {
				return nodes, fmt.Errorf("cbl: %w: comment of %d bytes at offset %#x, %d left",
					record.ErrTruncated, size, p-4, len(data)-p)
			}
			n.cmt0, n.cmt1 = p, p+int(size)
			p += int(size)
		}
		idx := int32(len(nodes))
		if idx > 0 && (n.from >= 90 || n.to >= 90) {
			return nodes, fmt.Errorf("cbl: %w: move %d from %d to %d at offset %#x",
				record.ErrBadSquare, idx, n.from, n.to, n.at)
		}
		if len(nodes) >= maxNodes {
			return nodes, fmt.Errorf("cbl: %w (more than %d moves)", record.ErrRecordTooLarge, maxNodes)
		}
		nodes = append(nodes, n)
		switch {
		case prevSib >= 0:
			nodes[prevSib].sib = idx
		case parent >= 0:
			nodes[parent].child = idx
		}
		if flags&flagAlt != 0 && idx > 0 {
			pending = append(pending, idx)
		}
		if flags&flagEnd == 0 {
			parent, prevSib = idx, -1
			continue
		}
		if len(pending) == 0 {
			return nodes, nil
		}
		// This subtree is done: the next node is the alternative of the
		// most recent node that announced one.
		alt := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		parent, prevSib = -1, alt
	}
}
