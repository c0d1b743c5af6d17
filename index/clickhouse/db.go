package clickhouse

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/index"
)

func init() {
	index.RegisterBackend("clickhouse", func(u string, o index.Options) (index.DB, error) {
		d, err := Open(u, o)
		if err != nil {
			return nil, err
		}
		return d, nil
	})
}

// DB is a game database in ClickHouse: one server, or the shards of a
// cluster. It implements index.DB.
type DB struct {
	url     string
	name    string // the database
	cluster string // the remote_servers cluster of the shards ("" for one server)
	nodes   []*node
	opts    index.Options
	next    atomic.Uint32 // next game id; games below it are committed

	// attrs caches the attributes of the games queries read: those of a
	// position's games or of a search's results, read with them, or all
	// of them once a query needs all (allAttrs). A tree reads none.
	attrsMu  sync.Mutex
	attrs    map[uint32]index.Attrs
	allAttrs bool
}

// committed is the next game id: rows of games at or past it are an
// unfinished import's, which reads leave out.
func (d *DB) committed() uint32 { return d.next.Load() }

// ParseURL reads clickhouse://HOST:PORT[,HOST:PORT…]/DB[?cluster=NAME]:
// the HTTP ports of the shards, in the order of the cluster's
// remote_servers, and the database.
func ParseURL(u string) (hosts []string, db, cluster string, err error) {
	rest, ok := strings.CutPrefix(u, "clickhouse://")
	if !ok {
		return nil, "", "", fmt.Errorf("clickhouse: %q is not a clickhouse:// URL", u)
	}
	rest, rawQuery, _ := strings.Cut(rest, "?")
	hostPart, db, _ := strings.Cut(rest, "/")
	if db == "" {
		db = "xqdb"
	}
	if !isIdent(db) {
		return nil, "", "", fmt.Errorf("clickhouse: database name %q: letters, digits and _ only", db)
	}
	for _, h := range strings.Split(hostPart, ",") {
		if h == "" {
			return nil, "", "", fmt.Errorf("clickhouse: %q names no server", u)
		}
		if !strings.Contains(h, ":") {
			h += ":8123"
		}
		hosts = append(hosts, h)
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, "", "", fmt.Errorf("clickhouse: %q: %w", u, err)
	}
	cluster = q.Get("cluster")
	if len(hosts) > 1 && cluster == "" {
		return nil, "", "", fmt.Errorf("clickhouse: %q: several servers need ?cluster=NAME (their remote_servers cluster)", u)
	}
	if cluster != "" && !isIdent(cluster) {
		return nil, "", "", fmt.Errorf("clickhouse: cluster name %q: letters, digits and _ only", cluster)
	}
	return hosts, db, cluster, nil
}

// Open opens (and unless opts.ReadOnly creates) the database at u.
func Open(u string, opts index.Options) (*DB, error) {
	hosts, _, _, err := ParseURL(u)
	if err != nil {
		return nil, err
	}
	nodes := make([]*node, len(hosts))
	for i, h := range hosts {
		nodes[i] = newNode(h, "")
	}
	return open(u, opts, nodes)
}

// open opens the database at u on nodes (the servers of u).
func open(u string, opts index.Options, nodes []*node) (*DB, error) {
	_, name, cluster, err := ParseURL(u)
	if err != nil {
		return nil, err
	}
	d := &DB{url: u, name: name, cluster: cluster, opts: opts, nodes: nodes}
	if opts.ReadOnly || opts.Existing {
		rr, err := d.nodes[0].rows("SELECT count() FROM system.tables WHERE database = " + quote(name) + " AND name = 'manifest'")
		if err != nil {
			return nil, err
		}
		if rr.u64() == 0 {
			return nil, fmt.Errorf("%w: %s", index.ErrNoStore, u)
		}
	} else {
		for i, n := range d.nodes {
			for _, s := range d.ddl(i == 0) {
				if err := n.exec(s); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := d.loadManifest(); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *DB) loadManifest() error {
	rr, err := d.nodes[0].rows("SELECT count(), min(schema), max(schema), max(next_gid) FROM " + d.name + ".manifest")
	if err != nil {
		return err
	}
	n, lo, hi, next := rr.u64(), rr.u32(), rr.u32(), rr.u32()
	if rr.err != nil {
		return rr.err
	}
	if n > 0 && (lo != SchemaVersion || hi != SchemaVersion) {
		return fmt.Errorf("%w: %s has version %d, this xqdb reads %d (import the games again into a new database)", index.ErrSchemaMismatch, d.url, hi, SchemaVersion)
	}
	d.next.Store(max(next, 1))
	return nil
}

// Dir returns the database's URL.
func (d *DB) Dir() string { return d.url }

// Games counts the stored games (ids are dense from 1).
func (d *DB) Games() int { return int(d.committed() - 1) }

// LastGid returns the highest game id given.
func (d *DB) LastGid() uint32 { return d.committed() - 1 }

// Close releases the connections.
func (d *DB) Close() error {
	for _, n := range d.nodes {
		if n.hc != nil {
			n.hc.CloseIdleConnections()
		}
	}
	return nil
}

// shard is the node holding rows sharded by v (Distributed's key % shards).
func (d *DB) shard(v uint64) *node { return d.nodes[v%uint64(len(d.nodes))] }

// Game reads a stored game.
func (d *DB) Game(gid uint32) (*index.Record, error) {
	if gid == 0 || gid >= d.committed() {
		return nil, fmt.Errorf("%w: %d", index.ErrNoGame, gid)
	}
	rr, err := d.shard(uint64(gid)).rows(fmt.Sprintf("SELECT record FROM %s WHERE gid = %d LIMIT 1", d.local("games"), gid))
	if err != nil {
		return nil, err
	}
	if !rr.more() {
		return nil, fmt.Errorf("%w: %d", index.ErrNoGame, gid)
	}
	b := rr.bytes()
	if rr.err != nil {
		return nil, rr.err
	}
	return index.DecodeRecord(gid, b)
}

// Records reads many stored games in one query per 20,000, in the order
// of gids (query.Games reads a page through it).
func (d *DB) Records(gids []uint32) ([]*index.Record, error) {
	bs, err := d.RawRecords(gids)
	if err != nil {
		return nil, err
	}
	out := make([]*index.Record, len(gids))
	for i, b := range bs {
		if out[i], err = index.DecodeRecord(gids[i], b); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RawRecords reads the stored bytes of many games, in the order of gids
// (index.CopyGames decodes them itself).
func (d *DB) RawRecords(gids []uint32) ([][]byte, error) {
	byID := make(map[uint32][]byte, len(gids))
	for start := 0; start < len(gids); start += 20_000 {
		part := gids[start:min(start+20_000, len(gids))]
		rr, err := d.nodes[0].rows(fmt.Sprintf("SELECT gid, record FROM %s WHERE gid IN (%s) AND gid < %d", d.all("games"), idList(part), d.committed()))
		if err != nil {
			return nil, err
		}
		for rr.more() {
			gid, b := rr.u32(), rr.bytes()
			if rr.err != nil {
				return nil, rr.err
			}
			byID[gid] = b
		}
	}
	out := make([][]byte, len(gids))
	for i, g := range gids {
		if out[i] = byID[g]; out[i] == nil {
			return nil, fmt.Errorf("%w: %d", index.ErrNoGame, g)
		}
	}
	return out, nil
}

// attrsColumns are the games columns Attrs holds, in readAttrs' order.
const attrsColumns = "gid, game, result, date, rating, plies, hash, players"

// readAttrs reads the attributes of the committed games that match cond
// into the cache.
func (d *DB) readAttrs(cond string) error {
	rr, err := d.nodes[0].rows(fmt.Sprintf("SELECT %s FROM %s WHERE gid < %d AND %s", attrsColumns, d.all("games"), d.committed(), cond))
	if err != nil {
		return err
	}
	d.attrsMu.Lock()
	defer d.attrsMu.Unlock()
	if d.attrs == nil {
		d.attrs = map[uint32]index.Attrs{}
	}
	for rr.more() {
		gid := rr.u32()
		a := index.Attrs{Game: engine.Game(rr.u8()), Result: engine.Result(rr.u8()), Date: rr.u32(), Rating: rr.u16(), Plies: rr.u16(), Hash: rr.u64(), Players: rr.u32()}
		if rr.err != nil {
			return rr.err
		}
		d.attrs[gid] = a
	}
	return nil
}

// loadAllAttrs reads every game's attributes, for what needs them all
// (listing every game, de-duplicating an import).
func (d *DB) loadAllAttrs() error {
	d.attrsMu.Lock()
	all := d.allAttrs
	d.attrsMu.Unlock()
	if all {
		return nil
	}
	if err := d.readAttrs("1"); err != nil {
		return err
	}
	d.attrsMu.Lock()
	d.allAttrs = true
	d.attrsMu.Unlock()
	return nil
}

// preloadAttrs reads the attributes of gids that are not cached: in
// chunks of an IN list, or all of them when they are a good part of the
// games anyway.
func (d *DB) preloadAttrs(gids []uint32) error {
	d.attrsMu.Lock()
	var missing []uint32
	if !d.allAttrs {
		for _, g := range gids {
			if _, ok := d.attrs[g]; !ok {
				missing = append(missing, g)
			}
		}
	}
	d.attrsMu.Unlock()
	if len(missing) == 0 {
		return nil
	}
	if len(missing) > 20_000 && len(missing)*4 > d.Games() {
		return d.loadAllAttrs()
	}
	slices.Sort(missing)
	missing = slices.Compact(missing)
	for lo := 0; lo < len(missing); lo += 20_000 {
		if err := d.readAttrs("gid IN (" + idList(missing[lo:min(lo+20_000, len(missing))]) + ")"); err != nil {
			return err
		}
	}
	return nil
}

func idList(gids []uint32) string {
	b := make([]byte, 0, len(gids)*8)
	for i, g := range gids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(g), 10)
	}
	return string(b)
}

// Attrs returns a game's attributes: from the cache, where the query that
// found the game put them, else read alone.
func (d *DB) Attrs(gid uint32) index.Attrs {
	if gid == 0 || gid >= d.committed() {
		return index.Attrs{}
	}
	d.attrsMu.Lock()
	a, ok := d.attrs[gid]
	all := d.allAttrs
	d.attrsMu.Unlock()
	if ok || all {
		return a
	}
	if d.readAttrs(fmt.Sprintf("gid = %d", gid)) != nil {
		return index.Attrs{}
	}
	d.attrsMu.Lock()
	defer d.attrsMu.Unlock()
	return d.attrs[gid]
}

// EachGame calls fn for every stored game in id order (it reads every
// game's attributes).
func (d *DB) EachGame(fn func(gid uint32, a index.Attrs)) error {
	if err := d.loadAllAttrs(); err != nil {
		return err
	}
	next := d.committed()
	for gid := uint32(1); gid < next; gid++ {
		d.attrsMu.Lock()
		a := d.attrs[gid]
		d.attrsMu.Unlock()
		fn(gid, a)
	}
	return nil
}

// forgetAttrs empties the cache (after an import: the games changed).
func (d *DB) forgetAttrs() {
	d.attrsMu.Lock()
	d.attrs, d.allAttrs = nil, false
	d.attrsMu.Unlock()
}

// Position answers a tree in one round trip to the shard that holds the
// key: the GROUP BY over the key's rows and, in the same answer, the
// record of the first game that reached it, which is replayed to check
// that the key is the asked position (64-bit keys can collide; DESIGN
// "Keys and storage"). The primary key (key, game, gid) and the small
// granules of the positions table (schema.go) make it read a few thousand
// rows, not the table.
func (d *DB) Position(game engine.Game, pos engine.Position, withGames bool) (*index.PositionStats, error) {
	key := pos.Key()
	n := d.shard(key)
	next := d.committed()
	where := fmt.Sprintf("PREWHERE key = %d WHERE game = %d AND gid < %d", key, game, next)
	tbl := d.local("positions")
	// Both halves have the same column types; the kind column (0: a move,
	// 1: the record) tells them apart, whatever order UNION ALL gives.
	sql := "SELECT 0, code, result, count(), sum(rating), sum(rating > 0), max(date), min(gid), '' FROM " + tbl + " " + where + " GROUP BY code, result" +
		" UNION ALL SELECT 1, toUInt16(0), toUInt8(0), toUInt64(0), toUInt64(0), toUInt64(0), toUInt32(0), gid, record FROM " + d.all("games") +
		" WHERE gid = (SELECT min(gid) FROM " + tbl + " " + where + ") LIMIT 1"
	rr, err := n.rowsWith(sql, pointSettings)
	if err != nil {
		return nil, err
	}
	res := &index.PositionStats{}
	var first *index.Record
	for rr.more() {
		if rr.u8() == 1 {
			rr.take(2 + 1 + 8 + 8 + 8 + 4)
			gid, b := rr.u32(), rr.bytes()
			if rr.err != nil {
				return nil, rr.err
			}
			if first, err = index.DecodeRecord(gid, b); err != nil {
				return nil, err
			}
			continue
		}
		m := index.MoveStats{Code: rr.u16()}
		result := engine.Result(rr.u8())
		cnt := uint32(rr.u64())
		m.Games, m.RatingSum, m.Rated, m.LastDate = cnt, rr.u64(), uint32(rr.u64()), rr.u32()
		switch result {
		case engine.FirstWins:
			m.FirstWins = cnt
		case engine.SecondWins:
			m.SecondWins = cnt
		case engine.Draw:
			m.Draws = cnt
		}
		rr.u32()
		rr.bytes()
		if rr.err != nil {
			return nil, rr.err
		}
		addMove(res, m)
	}
	if len(res.Moves) == 0 {
		return res, nil
	}
	if first == nil {
		return nil, fmt.Errorf("clickhouse: %s: the first game at position %016x is missing", d.url, key)
	}
	if _, ok := index.FindPosition(first, pos); !ok {
		return &index.PositionStats{}, nil
	}
	if withGames {
		rr, err := n.rows("SELECT gid, ply, code FROM " + tbl + " " + where + " ORDER BY gid")
		if err != nil {
			return nil, err
		}
		gids := make([]uint32, 0, len(res.Moves))
		for rr.more() {
			h := index.GameHit{Gid: rr.u32(), Ply: int(rr.u16()), Code: rr.u16()}
			if rr.err != nil {
				return nil, rr.err
			}
			res.Games = append(res.Games, h)
			gids = append(gids, h.Gid)
		}
		// The caller sorts and filters the hits by their attributes.
		if err := d.preloadAttrs(gids); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func addMove(res *index.PositionStats, m index.MoveStats) {
	for i := range res.Moves {
		if res.Moves[i].Code == m.Code {
			res.Moves[i].Add(m)
			return
		}
	}
	res.Moves = append(res.Moves, m)
}

// Search runs query strings (index/querylang.go) over the terms table:
// index.SearchTerms combines the leaves as Bleve does.
func (d *DB) Search(within []uint32, queries ...string) ([]uint32, error) {
	ids, err := index.SearchTerms(termSource{d}, within, queries...)
	if err != nil {
		return nil, err
	}
	// The caller sorts (or counts) the games found by their attributes.
	return ids, d.preloadAttrs(ids)
}

// Summary counts games, plies and position rows, and the bytes of every
// table on every shard.
func (d *DB) Summary() (*index.Summary, error) {
	out := &index.Summary{Games: d.Games(), PerGame: map[string]int{}, Bytes: map[string]int64{}, Entries: map[string]any{}}
	rr, err := d.nodes[0].rows(fmt.Sprintf("SELECT game, count(), sum(plies) FROM %s WHERE gid < %d GROUP BY game", d.all("games"), d.committed()))
	if err != nil {
		return nil, err
	}
	for rr.more() {
		g, n, p := engine.Game(rr.u8()), rr.u64(), rr.u64()
		out.PerGame[g.String()] += int(n)
		out.Plies += int64(p)
	}
	rr, err = d.nodes[0].rows(fmt.Sprintf("SELECT count() FROM %s WHERE gid < %d", d.all("positions"), d.committed()))
	if err != nil {
		return nil, err
	}
	out.Positions = int64(rr.u64())
	type usage struct {
		Entries int64 `json:"entries"`
		Bytes   int64 `json:"bytes"`
	}
	for _, n := range d.nodes {
		rr, err := n.rows("SELECT table, sum(rows), sum(bytes) FROM system.parts WHERE active AND database = " + quote(d.name) + " GROUP BY table")
		if err != nil {
			return nil, err
		}
		for rr.more() {
			t, rows, b := strings.TrimSuffix(rr.str(), "_local"), int64(rr.u64()), int64(rr.u64())
			out.Bytes[t] += b
			u, _ := out.Entries[t].(usage)
			u.Entries += rows
			u.Bytes += b
			out.Entries[t] = u
		}
		if rr.err != nil {
			return nil, rr.err
		}
	}
	return out, nil
}

// termSource answers index.SearchTerms' leaves from the terms table.
type termSource struct{ d *DB }

func (t termSource) ids(sql string) ([]uint32, error) {
	rr, err := t.d.nodes[0].rows(sql)
	if err != nil {
		return nil, err
	}
	var out []uint32
	for rr.more() {
		out = append(out, rr.u32())
	}
	if rr.err != nil {
		return nil, rr.err
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func (t termSource) Fields() ([]string, error) {
	rr, err := t.d.nodes[0].rows("SELECT DISTINCT field FROM " + t.d.local("dict"))
	if err != nil {
		return nil, err
	}
	var out []string
	for rr.more() {
		out = append(out, rr.str())
	}
	return out, rr.err
}

func (t termSource) Universe() ([]uint32, error) {
	next := t.d.committed()
	out := make([]uint32, 0, next)
	for g := uint32(1); g < next; g++ {
		out = append(out, g)
	}
	return out, nil
}

// games returns the games with a term of id in the set ids (a list, or a
// subquery of dict, which every shard answers from its own).
func (t termSource) games(ids string) ([]uint32, error) {
	return t.ids(fmt.Sprintf("SELECT DISTINCT gid FROM %s WHERE gid < %d AND tid IN (%s)", t.d.all("terms"), t.d.committed(), ids))
}

func tidList(field string, terms []string) string {
	b := make([]byte, 0, 21*len(terms))
	for i, term := range terms {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, termID(field, term), 10)
	}
	return string(b)
}

func (t termSource) dict(field string) string {
	return "SELECT tid FROM " + t.d.local("dict") + " WHERE field = " + quote(field)
}

func (t termSource) Terms(field string, terms []string) ([]uint32, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	return t.games(tidList(field, terms))
}

func (t termSource) Range(field, lo, hi string, loIncl, hiIncl bool) ([]uint32, error) {
	sql := t.dict(field)
	if lo != "" {
		op := " > "
		if loIncl {
			op = " >= "
		}
		sql += " AND term" + op + quote(lo)
	}
	if hi != "" {
		op := " < "
		if hiIncl {
			op = " <= "
		}
		sql += " AND term" + op + quote(hi)
	}
	return t.games(sql)
}

func (t termSource) Regexp(field, expr string) ([]uint32, error) {
	return t.games(t.dict(field) + " AND match(term, " + quote("^(?:"+expr+")$") + ")")
}

func (t termSource) Positions(field string, terms []string) (map[uint32]map[string][]uint32, error) {
	out := map[uint32]map[string][]uint32{}
	if len(terms) == 0 {
		return out, nil
	}
	byID := make(map[uint64]string, len(terms))
	for _, term := range terms {
		byID[termID(field, term)] = term
	}
	rr, err := t.d.nodes[0].rows(fmt.Sprintf("SELECT gid, tid, pos FROM %s WHERE gid < %d AND tid IN (%s)",
		t.d.all("terms"), t.d.committed(), tidList(field, terms)))
	if err != nil {
		return nil, err
	}
	for rr.more() {
		gid, tid, pos := rr.u32(), rr.u64(), rr.u32()
		if rr.err != nil {
			return nil, rr.err
		}
		m := out[gid]
		if m == nil {
			m = map[string][]uint32{}
			out[gid] = m
		}
		term := byID[tid]
		m[term] = append(m[term], pos)
	}
	for gid, m := range out {
		if len(m) < len(terms) {
			delete(out, gid)
		}
	}
	return out, nil
}

var _ index.DB = (*DB)(nil)
