package xqf

import (
	"encoding/binary"
	"fmt"

	"github.com/xqdb/xqdb/importer/internal/movetree"
	"github.com/xqdb/xqdb/importer/record"
)

// maxNodes bounds the moves of a file: each node takes 40 bytes, so the
// nodes stay near the record limit.
const maxNodes = record.DefaultMaxRecordSize / 80

// readTree decodes the move area (already decrypted) into l's nodes. The
// records are a preorder walk: a node, its continuation subtree (when it
// "has next"), then the subtree of its next alternative (when it "has a
// variation"); NOTATIONS §7 and walker8088's recursive reader. A node's
// From and To are squares X*10+Y.
//
// On a defect it keeps the nodes read so far and returns the error.
func readTree(area []byte, version byte, k *keys, l *movetree.Linker) error {
	p := 0
	for {
		if p+4 > len(area) {
			if len(l.Nodes) == 0 {
				return fmt.Errorf("xqf: %w: no root move record", record.ErrTruncated)
			}
			return fmt.Errorf("xqf: %w: move record %d missing at offset %d",
				record.ErrTruncated, len(l.Nodes), headerSize+p)
		}
		rec := area[p : p+4]
		n := movetree.Node{At: int64(headerSize + p)}
		var hasNext, hasVar bool
		var cmtLen int64
		p += 4
		if version < firstVersion {
			// XQF 1.0: the flag nibbles, and a comment length always.
			hasNext, hasVar = rec[2]&0xF0 != 0, rec[2]&0x0F != 0
			n.From, n.To = rec[0]-0x18, rec[1]-0x20
			if p+4 > len(area) {
				return fmt.Errorf("xqf: %w: comment length missing at offset %d", record.ErrTruncated, headerSize+p)
			}
			cmtLen = int64(binary.LittleEndian.Uint32(area[p:]))
			p += 4
		} else {
			tag := rec[2] & 0xE0
			hasNext, hasVar = tag&0x80 != 0, tag&0x40 != 0
			n.From, n.To = rec[0]-0x18-k.src, rec[1]-0x20-k.dst
			if tag&0x20 != 0 {
				if p+4 > len(area) {
					return fmt.Errorf("xqf: %w: comment length missing at offset %d", record.ErrTruncated, headerSize+p)
				}
				cmtLen = int64(binary.LittleEndian.Uint32(area[p:])) - int64(k.comment)
				p += 4
			}
		}
		if cmtLen < 0 || cmtLen > int64(len(area)-p) {
			return fmt.Errorf("xqf: %w: comment of %d bytes at offset %d, %d left",
				record.ErrTruncated, cmtLen, headerSize+p-4, len(area)-p)
		}
		n.Cmt0, n.Cmt1 = p, p+int(cmtLen)
		p += int(cmtLen)
		idx := int32(len(l.Nodes))
		if idx > 0 && (n.From > 89 || n.To > 89) {
			return fmt.Errorf("xqf: %w: move %d from %d to %d at offset %d",
				record.ErrBadSquare, idx, n.From, n.To, n.At)
		}
		if len(l.Nodes) >= maxNodes {
			return fmt.Errorf("xqf: %w (more than %d moves)", record.ErrRecordTooLarge, maxNodes)
		}
		if l.Add(n, hasNext, hasVar) {
			return nil
		}
	}
}
