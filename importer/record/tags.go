package record

// TagBuilder collects tag pairs and turns them into Tags whose names and
// values all share one string: one allocation per record whatever the
// number of tags. The zero TagBuilder is ready; Reset reuses its buffers.
type TagBuilder struct {
	buf  []byte
	ends []int // end of each name, then of its value, in buf
}

// Reset empties the builder, keeping its buffers.
func (b *TagBuilder) Reset() {
	b.buf = b.buf[:0]
	b.ends = b.ends[:0]
}

// Add appends a pair.
func (b *TagBuilder) Add(name string, value []byte) {
	b.buf = append(b.buf, name...)
	b.ends = append(b.ends, len(b.buf))
	b.buf = append(b.buf, value...)
	b.ends = append(b.ends, len(b.buf))
}

// AddFunc appends a pair whose value appendValue writes into the
// builder's buffer (decoding or unescaping in place, with no copy).
func (b *TagBuilder) AddFunc(name []byte, appendValue func(dst []byte) []byte) {
	b.buf = append(b.buf, name...)
	b.ends = append(b.ends, len(b.buf))
	b.buf = appendValue(b.buf)
	b.ends = append(b.ends, len(b.buf))
}

// AppendTo appends the collected pairs to dst.
func (b *TagBuilder) AppendTo(dst []Tag) []Tag {
	if len(b.ends) == 0 {
		return dst
	}
	s := string(b.buf)
	prev := 0
	for i := 0; i+1 < len(b.ends); i += 2 {
		n, v := b.ends[i], b.ends[i+1]
		dst = append(dst, Tag{Name: s[prev:n], Value: s[n:v]})
		prev = v
	}
	return dst
}
