package xqf

import (
	"encoding/binary"
	"fmt"

	"github.com/xqdb/xqdb/importer/record"
)

// maxNodes bounds the moves of a file: each node takes 40 bytes, so the
// nodes stay near the record limit.
const maxNodes = record.DefaultMaxRecordSize / 80

// node is one move of the variation tree. Index 0 is the dummy root whose
// comment is the game's opening comment.
type node struct {
	src, dst   byte  // squares X*10+Y
	child, sib int32 // first continuation; next alternative to this move (-1 none)
	at         int64 // file offset of the node's 4-byte record
	cmt0, cmt1 int   // comment bytes in the decrypted move area
}

// readTree decodes the move area (already decrypted) into nodes. The
// records are a preorder walk: a node, its continuation subtree (when it
// "has next"), then the subtree of its next alternative (when it "has a
// variation"); NOTATIONS §7 and walker8088's recursive reader. A stack of
// nodes whose alternative is still to come replaces recursion, so hostile
// nesting cannot exhaust the goroutine stack.
//
// On a defect it returns the nodes read so far with the error.
func readTree(area []byte, version byte, k *keys, nodes []node) ([]node, error) {
	var pending []int32 // nodes whose alternative follows their subtree
	parent, prevSib := int32(-1), int32(-1)
	p := 0
	for {
		if p+4 > len(area) {
			if len(nodes) == 0 {
				return nodes, fmt.Errorf("xqf: %w: no root move record", record.ErrTruncated)
			}
			return nodes, fmt.Errorf("xqf: %w: move record %d missing at offset %d",
				record.ErrTruncated, len(nodes), headerSize+p)
		}
		rec := area[p : p+4]
		n := node{child: -1, sib: -1, at: int64(headerSize + p)}
		var hasNext, hasVar bool
		var cmtLen int64
		p += 4
		if version < firstVersion {
			// XQF 1.0: the flag nibbles, and a comment length always.
			hasNext, hasVar = rec[2]&0xF0 != 0, rec[2]&0x0F != 0
			n.src, n.dst = rec[0]-0x18, rec[1]-0x20
			if p+4 > len(area) {
				return nodes, fmt.Errorf("xqf: %w: comment length missing at offset %d", record.ErrTruncated, headerSize+p)
			}
			cmtLen = int64(binary.LittleEndian.Uint32(area[p:]))
			p += 4
		} else {
			tag := rec[2] & 0xE0
			hasNext, hasVar = tag&0x80 != 0, tag&0x40 != 0
			n.src, n.dst = rec[0]-0x18-k.src, rec[1]-0x20-k.dst
			if tag&0x20 != 0 {
				if p+4 > len(area) {
					return nodes, fmt.Errorf("xqf: %w: comment length missing at offset %d", record.ErrTruncated, headerSize+p)
				}
				cmtLen = int64(binary.LittleEndian.Uint32(area[p:])) - int64(k.comment)
				p += 4
			}
		}
		if cmtLen < 0 || cmtLen > int64(len(area)-p) {
			return nodes, fmt.Errorf("xqf: %w: comment of %d bytes at offset %d, %d left",
				record.ErrTruncated, cmtLen, headerSize+p-4, len(area)-p)
		}
		n.cmt0, n.cmt1 = p, p+int(cmtLen)
		p += int(cmtLen)
		idx := int32(len(nodes))
		if idx > 0 && (n.src > 89 || n.dst > 89) {
			return nodes, fmt.Errorf("xqf: %w: move %d from %d to %d at offset %d",
				record.ErrBadSquare, idx, n.src, n.dst, n.at)
		}
		if len(nodes) >= maxNodes {
			return nodes, fmt.Errorf("xqf: %w (more than %d moves)", record.ErrRecordTooLarge, maxNodes)
		}
		nodes = append(nodes, n)
		switch {
		case prevSib >= 0:
			nodes[prevSib].sib = idx
		case parent >= 0:
			nodes[parent].child = idx
		}
		if hasVar && idx > 0 {
			pending = append(pending, idx)
		}
		if hasNext {
			parent, prevSib = idx, -1
			continue
		}
		if len(pending) == 0 {
			return nodes, nil
		}
		// This subtree is done: the next record is the alternative of
		// the most recent node that announced one.
		alt := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		parent, prevSib = -1, alt
	}
}
