package opening

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/xqdb/xqdb/engine"
	"github.com/xqdb/xqdb/engine/xiangqi"
)

var (
	//go:embed ecco_tree.txt
	eccoTreeText string
	//go:embed ecco_names.tsv
	eccoNamesText string
)

// maxPlies is how much of a Xiangqi game ECCO looks at: xqbase's
// classifier reads the first 20 plies (eleeye cchess/ADDECCO.CPP).
const maxPlies = 20

// A test is one question the tree asks of a normalized game.
type test struct {
	kind uint8 // testPly, testRed, testBlack
	n    uint8 // the ply (1-based), or how many of the side's first moves
	move engine.Move
}

const (
	testPly   = iota // the move at ply n is move
	testRed          // Red played move within its first n moves
	testBlack        // Black played move within its first n moves
)

var testLetters = [...]byte{testPly: 'p', testRed: 'r', testBlack: 'b'}

// less orders tests for ties: ply tests first (they keep the move order,
// which ECCO depends on: preferring the order-free tests measured worse),
// then Red's, then Black's, then by ply or window and move.
func (t test) less(u test) bool {
	if t.kind != u.kind {
		return t.kind < u.kind
	}
	if t.n != u.n {
		return t.n < u.n
	}
	return t.move < u.move
}

// pass reports whether the game ms (normalized, at most maxPlies) passes t.
func (t test) pass(ms []engine.Move) bool {
	if t.kind == testPly {
		return int(t.n) <= len(ms) && ms[t.n-1] == t.move
	}
	for i := int(t.kind - testRed); i < len(ms) && i < 2*int(t.n); i += 2 {
		if ms[i] == t.move {
			return true
		}
	}
	return false
}

func (t test) String() string {
	return fmt.Sprintf("%c%d %s", testLetters[t.kind], t.n, xiangqi.ICCS(t.move))
}

// node is a node of the tree: a test with the nodes of the games that
// pass it (yes) and fail it (no), or a leaf (yes < 0) giving a code.
type node struct {
	t       test
	yes, no int32
	code    int16 // index into Tree.codes
}

// Tree is the ECCO classifier: a decision tree over a game's first 20
// plies, and the names of the codes.
type Tree struct {
	nodes []node
	codes []string
	names map[string]Opening
}

var (
	eccoOnce sync.Once
	eccoTree *Tree
)

// XiangqiTable returns the ECCO tree shipped with xqdb, loaded on first
// use.
func XiangqiTable() *Tree {
	eccoOnce.Do(func() {
		t, err := ReadTree(strings.NewReader(eccoTreeText))
		if err == nil {
			err = t.readNames(strings.NewReader(eccoNamesText))
		}
		if err != nil { // the embedded table is tested: this is a build fault
			panic(fmt.Sprintf("opening: embedded ECCO tree: %v", err))
		}
		eccoTree = t
	})
	return eccoTree
}

// normalize copies the first maxPlies moves of ms into buf, mirrored left
// to right when Red's first move starts on files a–d (WXF files 6–9 from
// Red's side), as xqbase does, so that C8.5 is classified as C2.5.
func normalize(buf *[maxPlies]engine.Move, ms []engine.Move) (n int, mirrored bool) {
	n = copy(buf[:], ms)
	if n > 0 && xiangqi.FileOf(xiangqi.MoveFrom(buf[0])) < 4 {
		mirrored = true
		for i := range buf[:n] {
			buf[i] = xiangqi.MirrorMove(buf[i])
		}
	}
	return n, mirrored
}

// Classify gives the ECCO code of a game from the standard start with the
// moves ms (only the first 20 count). It does not allocate.
func (t *Tree) Classify(ms []engine.Move) Opening {
	if len(ms) == 0 {
		return t.NonStandard()
	}
	var buf [maxPlies]engine.Move
	n, _ := normalize(&buf, ms)
	return t.opening(t.codes[t.leaf(buf[:n])])
}

// NonStandard is the code of a game from another start than the standard
// one, and of a game without moves: A00.
func (t *Tree) NonStandard() Opening { return t.opening("A00") }

func (t *Tree) leaf(ms []engine.Move) int16 {
	i := int32(0)
	for t.nodes[i].yes >= 0 {
		nd := &t.nodes[i]
		if nd.t.pass(ms) {
			i = nd.yes
		} else {
			i = nd.no
		}
	}
	return t.nodes[i].code
}

func (t *Tree) opening(code string) Opening {
	if o, ok := t.names[code]; ok {
		return o
	}
	return Opening{Code: code}
}

// Nodes returns how many nodes the tree has.
func (t *Tree) Nodes() int { return len(t.nodes) }

// WriteTo writes the tree in the text form ReadTree reads: one node a
// line in preorder (a node, the subtree of the games passing its test,
// then the subtree of the others). A test is "p<N> <move>" (the move at ply
// N), "r<N> <move>" or "b<N> <move>" (Red or Black played the move within
// its first N moves); moves in ICCS, of the game mirrored as Classify
// mirrors it. A leaf is "= <code>".
func (t *Tree) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	var walk func(i int32)
	walk = func(i int32) {
		nd := &t.nodes[i]
		if nd.yes < 0 {
			fmt.Fprintf(bw, "= %s\n", t.codes[nd.code])
			return
		}
		fmt.Fprintf(bw, "%s\n", nd.t)
		walk(nd.yes)
		walk(nd.no)
	}
	if len(t.nodes) > 0 {
		walk(0)
	}
	return 0, bw.Flush()
}

// maxDepth bounds the tests on a path of a tree read (a learned tree's
// deepest path has a few dozen), so a bad file cannot exhaust the stack.
const maxDepth = 1000

// ReadTree reads a tree written by WriteTo; lines starting with # are
// comments.
func ReadTree(r io.Reader) (*Tree, error) {
	t := &Tree{}
	codes := map[string]int16{}
	sc := bufio.NewScanner(r)
	line := 0
	var read func(depth int) (int32, error)
	read = func(depth int) (int32, error) {
		if depth > maxDepth {
			return 0, fmt.Errorf("opening: ECCO tree line %d: deeper than %d tests", line, maxDepth)
		}
		for {
			if !sc.Scan() {
				if err := sc.Err(); err != nil {
					return 0, fmt.Errorf("opening: read ECCO tree: %w", err)
				}
				return 0, fmt.Errorf("opening: ECCO tree ends before its last leaf (line %d)", line)
			}
			line++
			if s := sc.Text(); s != "" && s[0] != '#' {
				break
			}
		}
		s := sc.Text()
		me := int32(len(t.nodes))
		if code, ok := strings.CutPrefix(s, "= "); ok {
			if !validECCO(code) {
				return 0, fmt.Errorf("opening: ECCO tree line %d: bad code %q", line, code)
			}
			c, ok := codes[code]
			if !ok {
				c = int16(len(t.codes))
				codes[code] = c
				t.codes = append(t.codes, code)
			}
			t.nodes = append(t.nodes, node{yes: -1, code: c})
			return me, nil
		}
		tt, err := parseTest(s)
		if err != nil {
			return 0, fmt.Errorf("opening: ECCO tree line %d: %w", line, err)
		}
		if len(t.nodes) >= 1<<20 {
			return 0, fmt.Errorf("opening: ECCO tree line %d: too many nodes", line)
		}
		t.nodes = append(t.nodes, node{t: tt})
		yes, err := read(depth + 1)
		if err != nil {
			return 0, err
		}
		no, err := read(depth + 1)
		if err != nil {
			return 0, err
		}
		t.nodes[me].yes, t.nodes[me].no = yes, no
		return me, nil
	}
	if _, err := read(0); err != nil {
		return nil, err
	}
	for sc.Scan() {
		line++
		if s := sc.Text(); s != "" && s[0] != '#' {
			return nil, fmt.Errorf("opening: ECCO tree line %d: text after the last leaf", line)
		}
	}
	return t, sc.Err()
}

func parseTest(s string) (test, error) {
	head, mv, ok := strings.Cut(s, " ")
	if !ok || len(head) < 2 {
		return test{}, fmt.Errorf("bad test %q", s)
	}
	var t test
	switch head[0] {
	case 'p':
		t.kind = testPly
	case 'r':
		t.kind = testRed
	case 'b':
		t.kind = testBlack
	default:
		return test{}, fmt.Errorf("bad test %q", s)
	}
	n, err := strconv.Atoi(head[1:])
	limit := maxPlies
	if t.kind != testPly {
		limit = maxPlies / 2
	}
	if err != nil || n < 1 || n > limit {
		return test{}, fmt.Errorf("bad test %q", s)
	}
	t.n = uint8(n)
	if t.move, ok = xiangqi.ParseICCSMove(mv); !ok {
		return test{}, fmt.Errorf("bad move in test %q", s)
	}
	return t, nil
}

// readNames reads ecco_names.tsv: code, opening, variation.
func (t *Tree) readNames(r io.Reader) error {
	t.names = map[string]Opening{}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		f := strings.Split(sc.Text(), "\t")
		if line == 1 && f[0] == "code" {
			continue
		}
		if len(f) != 3 || !validECCO(f[0]) {
			return fmt.Errorf("opening: ECCO names line %d: want code, opening and variation", line)
		}
		t.names[f[0]] = Opening{Code: f[0], Name: f[1], Variation: f[2]}
	}
	return sc.Err()
}
