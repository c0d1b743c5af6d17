package cbl

import (
	"encoding/binary"
	"fmt"

	"github.com/xqdb/xqdb/importer/internal/movetree"
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

// readTree decodes the move stream of a record into l's nodes: a node,
// its continuation subtree (unless it ends the line), then the subtree of
// its next alternative (when it announces one), as XQF lays out its tree.
// A node's From and To are squares row×9+file, row 0 Black's back rank.
//
// On a defect it keeps the nodes read so far and returns the error.
func readTree(data []byte, l *movetree.Linker) error {
	p := offMoves
	for {
		if p+4 > len(data) {
			return fmt.Errorf("cbl: %w: move record %d missing at offset %#x", record.ErrTruncated, len(l.Nodes), p)
		}
		flags := data[p]
		n := movetree.Node{From: data[p+2], To: data[p+3], At: int64(p)}
		p += 4
		if flags&flagComment != 0 {
			if p+4 > len(data) {
				return fmt.Errorf("cbl: %w: comment length missing at offset %#x", record.ErrTruncated, p)
			}
			size := int64(binary.LittleEndian.Uint32(data[p:]))
			p += 4
			if size > int64(len(data)-p) {
				return fmt.Errorf("cbl: %w: comment of %d bytes at offset %#x, %d left",
					record.ErrTruncated, size, p-4, len(data)-p)
			}
			n.Cmt0, n.Cmt1 = p, p+int(size)
			p += int(size)
		}
		idx := int32(len(l.Nodes))
		if idx > 0 && (n.From >= 90 || n.To >= 90) {
			return fmt.Errorf("cbl: %w: move %d from %d to %d at offset %#x",
				record.ErrBadSquare, idx, n.From, n.To, n.At)
		}
		if len(l.Nodes) >= maxNodes {
			return fmt.Errorf("cbl: %w (more than %d moves)", record.ErrRecordTooLarge, maxNodes)
		}
		if l.Add(n, flags&flagEnd == 0, flags&flagAlt != 0) {
			return nil
		}
	}
}
