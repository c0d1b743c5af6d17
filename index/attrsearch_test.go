package index

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/xqdb/xqdb/engine"
)

// memTerms is a TermSource held in memory: every stored game's metadata
// terms as a TermSource backend stores them (RecordTerms), answering
// through SearchTerms. It is the reference the store's answers are held
// to: it indexes every field, attributes too.
type memTerms struct {
	games []uint32
	// pos is, by field, term and game, the term's positions.
	pos map[string]map[string]map[uint32][]uint32
}

func newMemTerms(t *testing.T, s *Store) *memTerms {
	t.Helper()
	m := &memTerms{pos: map[string]map[string]map[uint32][]uint32{}}
	for gid := uint32(1); gid < s.man.NextGid; gid++ {
		a := s.Attrs(gid)
		if a.Deleted {
			continue
		}
		r, err := s.Game(gid)
		if err != nil {
			t.Fatal(err)
		}
		m.games = append(m.games, gid)
		RecordTerms(r, a, func(field, term string, pos uint32) {
			if m.pos[field] == nil {
				m.pos[field] = map[string]map[uint32][]uint32{}
			}
			if m.pos[field][term] == nil {
				m.pos[field][term] = map[uint32][]uint32{}
			}
			m.pos[field][term][gid] = append(m.pos[field][term][gid], pos)
		})
	}
	return m
}

func (m *memTerms) Fields() ([]string, error) {
	var out []string
	for f := range m.pos {
		out = append(out, f)
	}
	return out, nil
}

func (m *memTerms) Universe() ([]uint32, error) { return m.games, nil }

// matching lists the games with a term of field that keep says yes to.
func (m *memTerms) matching(field string, keep func(term string) bool) []uint32 {
	var out []uint32
	for term, games := range m.pos[field] {
		if keep(term) {
			for g := range games {
				out = append(out, g)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (m *memTerms) Terms(field string, terms []string) ([]uint32, error) {
	return m.matching(field, func(t string) bool { return slices.Contains(terms, t) }), nil
}

func (m *memTerms) Range(field, lo, hi string, loIncl, hiIncl bool) ([]uint32, error) {
	return m.matching(field, func(t string) bool {
		return (lo == "" || t > lo || loIncl && t == lo) && (hi == "" || t < hi || hiIncl && t == hi)
	}), nil
}

func (m *memTerms) Regexp(field, expr string) ([]uint32, error) {
	re, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		return nil, err
	}
	return m.matching(field, re.MatchString), nil
}

func (m *memTerms) Positions(field string, terms []string) (map[uint32]map[string][]uint32, error) {
	out := map[uint32]map[string][]uint32{}
	for i, term := range terms {
		for g, pos := range m.pos[field][term] {
			if i == 0 {
				out[g] = map[string][]uint32{}
			}
			if byTerm, ok := out[g]; ok {
				byTerm[term] = pos
			}
		}
		for g, byTerm := range out {
			if _, ok := byTerm[term]; !ok {
				delete(out, g)
			}
		}
	}
	return out, nil
}

// TestAttrFieldsAnswerAsTerms: game, result, date and plies, answered from
// the attributes and no longer in Bleve's documents, give the games a
// backend indexing their terms gives (SearchTerms over every field), in
// every kind of clause and beside Bleve's fields, among every game or
// among some (a position's games), with games deleted.
func TestAttrFieldsAnswerAsTerms(t *testing.T) {
	gs := datedGames(t, 240)
	rng := rand.New(rand.NewPCG(3, 4))
	players := []string{"Lü Qin", "Hu Ronghua", "Xu Yinchuan", "Zhao Guorong"}
	for i, g := range gs {
		g.Tags = append(g.Tags, Tag{"Red", players[rng.IntN(len(players))]}, Tag{"Black", players[rng.IntN(len(players))]})
		if i%7 == 0 {
			g.Tags = append(g.Tags, Tag{"Event", "National Championship"})
		}
	}
	for i := 0; i < 12; i++ { // games of the other kind
		gs = append(gs, playedGame(t, engine.Chess, engine.SAN, engine.Result(rng.IntN(4)), []Tag{{"White", "Carlsen"}, {"Date", "2014.11.23"}}, "e4", "e5", "Nf3"))
	}
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	importGames(t, s, gs[:150])
	importGames(t, s, gs[150:])
	if err := s.Delete([]uint32{3, 4, 50, 151}); err != nil {
		t.Fatal(err)
	}
	fields, err := s.meta.Fields()
	if err != nil {
		t.Fatal(err)
	}
	for f := range attrFields {
		if slices.Contains(fields, f) {
			t.Errorf("Bleve's documents hold %s", f)
		}
	}
	ref := newMemTerms(t, s)
	var some []uint32 // a position's games: every third, and some deleted
	for gid := uint32(1); gid < s.man.NextGid; gid += 3 {
		some = append(some, gid)
	}
	queries := []string{
		`result:1-0`, `result:draw`, `result:*`, `-result:0-1`, `NOT result:1-0`,
		`game:chess`, `game:xiangqi result:0-1`, `game:x*`, `game:[a TO d]`,
		`date:1990`, `date:2005-06`, `year:>=2005`, `date:[1990 TO 2005]`, `-date:1990`, `month:2005-06 OR year:2012`,
		`plies:>10`, `plies:[5 TO 12}`, `plies:<3 OR plies:>30`, `ply:1*`,
		`red:"Lü Qin" result:1-0`, `black:hu* date:<2006`, `(red:zhao OR black:zhao) AND NOT result:1/2-1/2`,
		`national year:1990`, `event:national OR plies:>25`, `-red:xu -date:2012`, `red:xu`,
		`result:1-0 date:1990`, `result:1-0 OR red:"Hu Ronghua"`,
	}
	for _, q := range queries {
		for _, within := range [][]uint32{nil, some} {
			got, err := s.Search(within, q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			slices.Sort(got)
			want, err := SearchTerms(ref, within, q)
			if err != nil {
				t.Fatalf("%s: reference: %v", q, err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s (among %d): %d games %v, want %d %v", q, len(within), len(got), head(got), len(want), head(want))
			}
		}
	}
	// Two queries narrow each other; a clause on Bleve's fields alone
	// keeps Bleve's way.
	got, _ := s.Search(nil, "result:1-0", `red:"Lü Qin"`)
	want, _ := SearchTerms(ref, nil, "result:1-0", `red:"Lü Qin"`)
	if slices.Sort(got); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("two queries: %v, want %v", head(got), head(want))
	}
}

func head(ids []uint32) []uint32 { return ids[:min(len(ids), 8)] }

// TestMigrateIndexesMetadataAgain: a store of schema 9 or 10, whose
// metadata index has a document for each game, is refused until migrate,
// which drops its metadata index; indexed again from the records
// (ReindexMetadata, as xqdb migrate runs it, or the next writer's
// catch-up), it answers as before.
func TestMigrateIndexesMetadataAgain(t *testing.T) {
	gs := datedGames(t, 60)
	for _, old := range metaOnly {
		for _, how := range []string{"reindex", "next import"} {
			dir := t.TempDir()
			s, err := Open(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			importGames(t, s, gs[:40])
			if err := s.gdb.Update(func(txn *badger.Txn) error { return txn.Set(versionKey, []byte{byte(old)}) }); err != nil {
				t.Fatal(err)
			}
			s.Close()
			if _, err := Open(dir, Options{ReadOnly: true}); !errors.Is(err, ErrSchemaMismatch) {
				t.Fatalf("version %d opened: %v", old, err)
			}
			if from, err := Migrate(dir); err != nil || from != old {
				t.Fatalf("migrate: from %d, %v", from, err)
			}
			if s, err = Open(dir, Options{}); err != nil {
				t.Fatal(err)
			}
			if how == "reindex" {
				err = s.ReindexMetadata()
			} else {
				_, _ = importGames(t, s, gs[40:])
			}
			if err != nil {
				t.Fatal(err)
			}
			ref := newMemTerms(t, s)
			for _, q := range []string{`result:1-0`, `date:1990 -result:draw`, `year:2005 OR plies:<5`, `game:xiangqi`, `termination:ongoing`} {
				got, err := s.Search(nil, q)
				if err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				slices.Sort(got)
				if want, _ := SearchTerms(ref, nil, q); !slices.Equal(got, want) || len(want) == 0 {
					t.Errorf("version %d, %s: %s: %v, want %v", old, how, q, head(got), head(want))
				}
			}
			var rep CheckReport
			if err := s.checkMetadata(&rep); err != nil || rep.MissingMetadata > 0 || rep.MetadataDocs != s.Games() {
				t.Errorf("version %d, %s: check: %+v, %v", old, how, rep, err)
			}
			s.Close()
		}
	}
}
