package clickhouse

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// node is one ClickHouse server, spoken to over its HTTP interface (port
// 8123 by default): plain HTTP with RowBinary rows works alike on the
// Debian 18.16 server and on current releases, where the native protocol
// and its Go drivers changed.
type node struct {
	addr string // host:port
	db   string
	hc   *http.Client
	// requests counts the requests sent (tests check how many a tree takes).
	requests atomic.Int64
	// via, when set, answers requests instead of HTTP (tests: ClickHouse's
	// current engine through chDB, which serves no HTTP).
	via func(sql string, body io.Reader) ([]byte, error)
}

func newNode(addr, db string) *node {
	tr := &http.Transport{MaxIdleConnsPerHost: 16, IdleConnTimeout: time.Minute, DisableCompression: true}
	return &node{addr: addr, db: db, hc: &http.Client{Transport: tr}}
}

// pointSettings are the settings of the queries that read one key's rows
// (a tree): one thread (more threads cost more to start than they save on
// a few granules) and the cache of decompressed blocks, so that popular
// positions are not decompressed again on every request.
var pointSettings = url.Values{"max_threads": {"1"}, "use_uncompressed_cache": {"1"}}

// do sends sql (and body, the data of an INSERT, when not nil) and returns
// the answer's bytes.
func (n *node) do(ctx context.Context, sql string, body io.Reader) ([]byte, error) {
	return n.doWith(ctx, sql, body, nil)
}

// insertBlock sends a Native block (native.go) of columns into its table
// (a block of items: sorter.columns of it).
func (n *node) insertBlock(b *block) error {
	if b.rows == 0 {
		return nil
	}
	if b.layout != nil {
		return fmt.Errorf("clickhouse: insert into %s: rows not written out as columns", b.table)
	}
	body := b.body()
	_, err := n.doWith(context.Background(), b.insert(), &body, nil)
	return err
}

// doWith is do with settings (URL parameters of the HTTP interface). A
// SELECT that failed between servers is sent again (betweenServers).
func (n *node) doWith(ctx context.Context, sql string, body io.Reader, settings url.Values) ([]byte, error) {
	out, err := n.once(ctx, sql, body, settings)
	if body != nil || !strings.HasPrefix(sql, "SELECT") {
		return out, err
	}
	for wait := 20 * time.Millisecond; err != nil && betweenServers(err) && wait < time.Second; wait *= 2 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, err
		}
		out, err = n.once(ctx, sql, body, settings)
	}
	return out, err
}

// betweenServers reports whether err is a shard's failure to speak with
// another one during a Distributed read, which a second try answers: on a
// loaded machine 18.16 lost a connection between its servers now and then
// ("Code: 101 … Unexpected packet Data received from client", once in a
// few thousand trees on two shards), and connections time out.
func betweenServers(err error) bool {
	var se *serverError
	if !errors.As(err, &se) {
		return false
	}
	for _, code := range []string{"Code: 101,", "Code: 102,", "Code: 209,", "Code: 210,", "Code: 279,"} {
		if strings.HasPrefix(se.msg, code) {
			return true
		}
	}
	return false
}

// serverError is a server's answer to a request it failed.
type serverError struct{ addr, msg, sql string }

func (e *serverError) Error() string {
	return fmt.Sprintf("clickhouse: %s: %s (in %s)", e.addr, e.msg, e.sql)
}

// once sends one request.
func (n *node) once(ctx context.Context, sql string, body io.Reader, settings url.Values) ([]byte, error) {
	if n.via != nil {
		n.requests.Add(1)
		return n.via(sql, body)
	}
	v := url.Values{}
	for k, vs := range settings {
		v[k] = vs
	}
	if n.db != "" {
		v.Set("database", n.db)
	}
	var req *http.Request
	var err error
	if body != nil {
		v.Set("query", sql)
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, "http://"+n.addr+"/?"+v.Encode(), body)
		if bufs, ok := body.(*net.Buffers); ok && err == nil {
			// A known length: no chunked encoding to parse.
			for _, b := range *bufs {
				req.ContentLength += int64(len(b))
			}
			req.GetBody = nil
		}
	} else {
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, "http://"+n.addr+"/?"+v.Encode(), strings.NewReader(sql))
	}
	if err != nil {
		return nil, err
	}
	n.requests.Add(1)
	resp, err := n.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: %s: %w", n.addr, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: %s: %w", n.addr, err)
	}
	if resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(out))
		if len(msg) > 600 {
			msg = msg[:600] + "…"
		}
		short := sql
		if len(short) > 300 {
			short = short[:300] + "…"
		}
		return nil, &serverError{n.addr, msg, short}
	}
	return out, nil
}

func (n *node) exec(sql string) error {
	_, err := n.do(context.Background(), sql, nil)
	return err
}

// rows runs a SELECT and returns its RowBinary rows.
func (n *node) rows(sql string) (*rowReader, error) {
	b, err := n.do(context.Background(), sql+" FORMAT RowBinary", nil)
	if err != nil {
		return nil, err
	}
	return &rowReader{b: b}, nil
}

// rowsWith is rows with settings.
func (n *node) rowsWith(sql string, settings url.Values) (*rowReader, error) {
	b, err := n.doWith(context.Background(), sql+" FORMAT RowBinary", nil, settings)
	if err != nil {
		return nil, err
	}
	return &rowReader{b: b}, nil
}

// rowReader reads RowBinary values in the order the SELECT names them.
type rowReader struct {
	b   []byte
	err error
}

var errShort = errors.New("clickhouse: short RowBinary answer")

func (r *rowReader) more() bool { return r.err == nil && len(r.b) > 0 }

func (r *rowReader) take(n int) []byte {
	if r.err != nil || len(r.b) < n {
		r.err = errShort
		r.b = nil
		return make([]byte, n)
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *rowReader) u8() uint8   { return r.take(1)[0] }
func (r *rowReader) u16() uint16 { return binary.LittleEndian.Uint16(r.take(2)) }
func (r *rowReader) u32() uint32 { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *rowReader) u64() uint64 { return binary.LittleEndian.Uint64(r.take(8)) }
func (r *rowReader) str() string { return string(r.bytes()) }
func (r *rowReader) bytes() []byte {
	n, k := binary.Uvarint(r.b)
	if k <= 0 || n > math.MaxInt32 {
		r.err = errShort
		return nil
	}
	r.b = r.b[k:]
	return r.take(int(n))
}

// quote writes s as a ClickHouse string literal.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case 0:
			b.WriteString(`\0`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, ",")
}
