package clickhouse

import (
	"bytes"
	"encoding/binary"
	"net"
	"strings"
)

// column is one column of a table: its name and ClickHouse type.
type column struct{ name, typ string }

// parseColumns reads "name Type, name Type" (the tables' definitions).
func parseColumns(def string) []column {
	var out []column
	for _, f := range strings.Split(def, ",") {
		name, typ, _ := strings.Cut(strings.TrimSpace(f), " ")
		out = append(out, column{name, typ})
	}
	return out
}

// block is rows being gathered for one INSERT in ClickHouse's Native
// format: a column after the other, each value as RowBinary writes it
// (fixed-width little-endian numbers; strings as a varint length and the
// bytes). The server copies such columns as they are, where it would
// parse RowBinary or text row by row: half its CPU time for an insert of
// position rows (measured, README).
type block struct {
	table string // the INSERT's target
	cols  []column
	data  [][]byte // per column
	rows  int
	// order is the table's ORDER BY, as column indices.
	order []int
	// A table that a sender sorts by its ORDER BY before the insert
	// (sort.go) has a layout: its rows are gathered packed in items, not
	// in data.
	layout *layout
	items  []sortItem
}

func newBlock(table string, cols []column) *block {
	return &block{table: table, cols: cols, data: make([][]byte, len(cols))}
}

func (b *block) reset() {
	for i := range b.data {
		b.data[i] = b.data[i][:0]
	}
	b.items = b.items[:0]
	b.rows = 0
}

// size is the bytes of the block's columns.
func (b *block) size() (n int) {
	for _, d := range b.data {
		n += len(d)
	}
	return n
}

// insert is the INSERT statement that reads the block.
func (b *block) insert() string {
	names := make([]string, len(b.cols))
	for i, c := range b.cols {
		names[i] = c.name
	}
	return "INSERT INTO " + b.table + " (" + strings.Join(names, ", ") + ") FORMAT Native"
}

// body is the block in Native format, its columns not copied: the number
// of columns and rows, then each column's name, type and values (the
// layout the Debian 18.16 server and current releases read over HTTP,
// which sends no block info).
func (b *block) body() net.Buffers {
	var hdr []byte
	hdr = binary.AppendUvarint(hdr, uint64(len(b.cols)))
	hdr = binary.AppendUvarint(hdr, uint64(b.rows))
	out := make(net.Buffers, 0, 2*len(b.cols))
	for i, c := range b.cols {
		hdr = appendString(hdr, c.name)
		hdr = appendString(hdr, c.typ)
		out = append(out, hdr, b.data[i])
		hdr = nil
	}
	return out
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendBytes(dst, s []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// bodyBytes is body as one slice (tests).
func (b *block) bodyBytes() []byte {
	var buf bytes.Buffer
	bufs := b.body()
	_, _ = bufs.WriteTo(&buf)
	return buf.Bytes()
}

// termID is the id of a term of a metadata field in the terms table: the
// FNV-1a hash of the field, a zero byte and the term. The terms table
// keeps these 8 bytes a row where it kept both strings (18 M rows for
// 196 k games), and dict maps them back; two terms of one id (about one
// chance in 10^8 among a million distinct terms) would answer each
// other's queries.
func termID(field, term string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(field); i++ {
		h = (h ^ uint64(field[i])) * prime
	}
	h *= prime // the zero byte
	for i := 0; i < len(term); i++ {
		h = (h ^ uint64(term[i])) * prime
	}
	return h
}
