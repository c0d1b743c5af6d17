package xiangqi

import (
	"fmt"
	"strings"

	"github.com/xqdb/xqdb/engine"
)

// This file holds what the relative notations (WXF, Chinese, Vietnamese)
// share. Each parser reads its token into a moveSpec — piece kind, which
// piece (a file number or a tandem position), direction and target — and
// resolve matches that spec against the legal moves of that kind
// (NOTATIONS §10.6). Nothing is guessed: a spec that fits no legal move is
// ErrIllegalMove, one that fits two is ErrAmbiguousMove.

// direction is a move's direction relative to the mover (NOTATIONS §3:
// 進 forward, 退 back, 平 sideways).
type direction uint8

const (
	dirNone direction = iota
	dirAdvance
	dirRetreat
	dirTraverse
)

// selector says how a spec names its piece.
type selector uint8

const (
	// selFile names the piece by its file number: every piece of the kind
	// on that file, except that under WXF rules a plain file number on a
	// file with 3 or 5 soldiers means the middle one (NOTATIONS §4).
	selFile selector = iota
	selFront
	selMiddle
	selRear
	// selOrdinal is 一…五 (Chinese), a–e (xqbase WXF) or a digit before the
	// letter (Vietnamese): the n-th piece of the combined tandem list.
	selOrdinal
	// selFront2 and selRear2 are WXF's ++ and --: the outermost of 4 or 5
	// soldiers on one file.
	selFront2
	selRear2
)

// scheme is how tandem positions count (NOTATIONS §3, §4).
type scheme uint8

const (
	// combined is the xqbase rule used by Chinese and Vietnamese notation:
	// every piece of the kind standing on a file that holds several is
	// listed, files from the mover's right to left, then front to back, and
	// the position word indexes that one list.
	combined scheme = iota
	// wxfRule is the WXF rule: markers count within one file, and a file
	// digit in front names the file when two files hold several soldiers.
	wxfRule
)

// moveSpec is a token read structurally, before it meets the position.
type moveSpec struct {
	kind   Kind
	sel    selector
	scheme scheme
	file   int8 // 1–9 from the mover's right: the from-file, or WXF's file prefix; 0 none
	ord    int8 // 1–5 for selOrdinal
	dir    direction
	target int8 // 1–9: a distance (straight movers going forward or back) or a file
}

// relFile returns the file number of sq counted from side c's right-hand
// side, 1–9 (NOTATIONS §0: Red a=9…i=1, Black a=1…i=9).
func relFile(sq uint8, c engine.Color) int8 {
	if c == engine.First {
		return int8(NumFiles - FileOf(sq))
	}
	return int8(FileOf(sq) + 1)
}

// relRank returns how far sq lies from side c's back rank, 0–9; larger is
// further forward.
func relRank(sq uint8, c engine.Color) int8 {
	if c == engine.First {
		return int8(RankOf(sq))
	}
	return int8(NumRanks - 1 - RankOf(sq))
}

// straightMover reports the kinds whose forward and backward moves are
// written as a distance; advisors, elephants and horses always write the
// destination file (NOTATIONS §3 "Target").
func straightMover(k Kind) bool {
	return k == General || k == Chariot || k == Cannon || k == Soldier
}

// describe returns the direction and target of a move from→to by a piece
// of kind k and side c.
func describe(k Kind, c engine.Color, from, to uint8) (direction, int8) {
	rf, rt := relRank(from, c), relRank(to, c)
	d := dirTraverse
	switch {
	case rt > rf:
		d = dirAdvance
	case rt < rf:
		d = dirRetreat
	}
	if d == dirTraverse || !straightMover(k) {
		return d, relFile(to, c)
	}
	if d == dirAdvance {
		return d, rt - rf
	}
	return d, rf - rt
}

// pieceList is the squares of one side's pieces of one kind.
type pieceList struct {
	sq [5]uint8
	n  int
}

// piecesOf lists side c's pieces of kind k.
func (p *Position) piecesOf(k Kind, c engine.Color) pieceList {
	var l pieceList
	first := idBase(c) + slotFirst[k]
	for i := uint8(0); i < slotCount[k]; i++ {
		if sq := p.sq[first+i]; sq != 0 {
			l.sq[l.n] = sq
			l.n++
		}
	}
	return l
}

// sortTandem orders squares files from the mover's right to left, then
// front to back: the xqbase order (NOTATIONS §3), which within one file is
// simply front to back.
func sortTandem(sq []uint8, c engine.Color) {
	for i := 1; i < len(sq); i++ {
		for j := i; j > 0 && tandemLess(sq[j], sq[j-1], c); j-- {
			sq[j], sq[j-1] = sq[j-1], sq[j]
		}
	}
}

func tandemLess(a, b uint8, c engine.Color) bool {
	if fa, fb := relFile(a, c), relFile(b, c); fa != fb {
		return fa < fb
	}
	return relRank(a, c) > relRank(b, c)
}

// tandemInfo is where one piece stands among pieces of its kind.
type tandemInfo struct {
	onFile     int // pieces of the kind on its file (1 when alone)
	fileIdx    int // its index on the file, front first
	multiFiles int // files holding two or more of the kind
	listLen    int // length of the combined xqbase list
	listIdx    int // its index in that list
}

// tandem says where the piece on from stands among its side's pieces of the
// same kind.
func (p *Position) tandem(k Kind, c engine.Color, from uint8) tandemInfo {
	l := p.piecesOf(k, c)
	var perFile [NumFiles + 1]int
	for _, sq := range l.sq[:l.n] {
		perFile[relFile(sq, c)]++
	}
	var t tandemInfo
	f := relFile(from, c)
	t.onFile = perFile[f]
	var list [5]uint8
	n := 0
	for _, sq := range l.sq[:l.n] {
		if perFile[relFile(sq, c)] > 1 {
			list[n] = sq
			n++
		}
	}
	for _, cnt := range perFile {
		if cnt > 1 {
			t.multiFiles++
		}
	}
	sortTandem(list[:n], c)
	t.listLen = n
	for i, sq := range list[:n] {
		if sq == from {
			t.listIdx = i
		}
		if relFile(sq, c) == f && relRank(sq, c) > relRank(from, c) {
			t.fileIdx++
		}
	}
	return t
}

// candidates returns the squares a spec's selector names, or a failure
// saying why none.
func (p *Position) candidates(s moveSpec) (pieceList, failure) {
	c := p.side
	all := p.piecesOf(s.kind, c)
	var out pieceList
	fail := func(why whyCode, n int) (pieceList, failure) {
		return out, failure{err: engine.ErrIllegalMove, why: why, kind: s.kind, color: c, file: s.file, n: int8(n)}
	}
	if all.n == 0 {
		return fail(whyNoPiece, 0)
	}
	var perFile [NumFiles + 1]int
	for _, sq := range all.sq[:all.n] {
		perFile[relFile(sq, c)]++
	}
	if s.sel == selFile {
		var on [5]uint8
		n := 0
		for _, sq := range all.sq[:all.n] {
			if relFile(sq, c) == s.file {
				on[n] = sq
				n++
			}
		}
		switch {
		case n == 0:
			return fail(whyNoPiece, 0)
		case s.scheme == wxfRule && n >= 3 && n%2 == 1:
			// NOTATIONS §4: "P3.4" is the middle of 3 (or 5) soldiers.
			sortTandem(on[:n], c)
			out.sq[0], out.n = on[n/2], 1
		default:
			copy(out.sq[:], on[:n])
			out.n = n
		}
		return out, failure{}
	}
	multi := 0
	for _, cnt := range perFile {
		if cnt > 1 {
			multi++
		}
	}
	if multi == 0 {
		return fail(whyNoTandem, 0)
	}
	if s.scheme == combined {
		var list [5]uint8
		n := 0
		for _, sq := range all.sq[:all.n] {
			if perFile[relFile(sq, c)] > 1 {
				list[n] = sq
				n++
			}
		}
		sortTandem(list[:n], c)
		i := -1
		switch s.sel {
		case selFront:
			i = 0
		case selRear:
			i = n - 1
		case selMiddle:
			if n%2 == 1 {
				i = n / 2
			}
		case selOrdinal:
			if int(s.ord) <= n {
				i = int(s.ord) - 1
			}
		}
		if i < 0 {
			return fail(whyNoSuchPlace, n)
		}
		out.sq[0], out.n = list[i], 1
		return out, failure{}
	}
	// wxfRule: pick within each file that holds several, or within
	// the prefixed file only.
	if s.file != 0 && perFile[s.file] < 2 {
		return fail(whyNoTandemOnFile, perFile[s.file])
	}
	for f := int8(1); f <= NumFiles; f++ {
		k := perFile[f]
		if k < 2 || s.file != 0 && f != s.file {
			continue
		}
		var on [5]uint8
		n := 0
		for _, sq := range all.sq[:all.n] {
			if relFile(sq, c) == f {
				on[n] = sq
				n++
			}
		}
		sortTandem(on[:n], c)
		if i := wxfIndex(s.sel, k); i >= 0 {
			out.sq[out.n] = on[i]
			out.n++
		}
	}
	if out.n == 0 {
		return fail(whyNoSuchPlace, 0)
	}
	return out, failure{}
}

// wxfIndex maps a WXF marker to an index on a file of k pieces, front
// first, or -1 (NOTATIONS §4): 2–3 pieces "+", (middle), "-"; 4 pieces
// "++", "+", "-", "--"; 5 pieces "++", "+", (middle), "-", "--".
func wxfIndex(sel selector, k int) int {
	switch sel {
	case selFront:
		if k <= 3 {
			return 0
		}
		return 1
	case selRear:
		if k <= 3 {
			return k - 1
		}
		return k - 2
	case selMiddle:
		if k%2 == 1 {
			return k / 2
		}
	case selFront2:
		if k >= 4 {
			return 0
		}
	case selRear2:
		if k >= 4 {
			return k - 1
		}
	}
	return -1
}

// resolve finds the one legal move a spec names: for each piece the
// selector names, the destination follows from direction and target by
// the piece's geometry, and the move is kept when it is legal.
func (p *Position) resolve(s moveSpec) (engine.Move, failure) {
	cands, f := p.candidates(s)
	if f.err != nil {
		return 0, f
	}
	var found engine.Move
	matches := 0
	for _, from := range cands.sq[:cands.n] {
		to, ok := destination(s, p.side, from)
		if !ok {
			continue
		}
		if m := NewMove(from, to); p.IsLegal(m) {
			matches++
			found = m
		}
	}
	switch {
	case matches == 1:
		return found, failure{}
	case matches == 0:
		return 0, failure{err: engine.ErrIllegalMove, why: p.whyNoFit(s, cands), kind: s.kind, color: p.side, file: s.file}
	}
	why := whyAmbiguous
	if s.sel != selFile {
		why = whyAmbiguousFiles
	}
	return 0, failure{err: engine.ErrAmbiguousMove, why: why, kind: s.kind, color: p.side, file: s.file, n: int8(cands.n)}
}

// destination returns the square a piece of side c on from reaches by the
// spec's direction and target (NOTATIONS §3 "Target"): straight movers go
// forward or back by a distance or sideways to a file; advisors, elephants
// and horses name the file they land on, and their step shape fixes the
// rank (a horse moving one file goes two ranks, and the reverse). ok is
// false when no such square is on the board.
func destination(s moveSpec, c engine.Color, from uint8) (uint8, bool) {
	file, rank := FileOf(from), RankOf(from)
	toFile := NumFiles - int(s.target) // the target as a file, Red's numbering
	if c == engine.Second {
		toFile = int(s.target) - 1
	}
	fwd := 1
	if c == engine.Second {
		fwd = -1
	}
	df, dr := 0, 0
	if straightMover(s.kind) {
		switch s.dir {
		case dirAdvance:
			dr = fwd * int(s.target)
		case dirRetreat:
			dr = -fwd * int(s.target)
		default:
			df = toFile - file
			if df == 0 {
				return 0, false
			}
		}
	} else {
		if s.dir == dirTraverse {
			return 0, false
		}
		df = toFile - file
		ad := max(df, -df)
		switch {
		case s.kind == Advisor && ad == 1:
			dr = 1
		case s.kind == Elephant && ad == 2:
			dr = 2
		case s.kind == Horse && (ad == 1 || ad == 2):
			dr = 3 - ad
		default:
			return 0, false
		}
		if s.dir == dirRetreat {
			dr = -dr
		}
		dr *= fwd
	}
	f, r := file+df, rank+dr
	if f < 0 || f >= NumFiles || r < 0 || r >= NumRanks {
		return 0, false
	}
	return Square(f, r), true
}

// whyNoFit tells a spec no legal move fits from one that a move fits
// which the rules forbid because it leaves the general exposed (RULES X10,
// X11). Only the error path calls it.
func (p *Position) whyNoFit(s moveSpec, cands pieceList) whyCode {
	var buf [MaxMoves]engine.Move
	for _, m := range p.appendPseudo(buf[:0]) {
		from := MoveFrom(m)
		for _, sq := range cands.sq[:cands.n] {
			if sq != from {
				continue
			}
			if d, t := describe(s.kind, p.side, from, MoveTo(m)); d == s.dir && t == s.target {
				return whyExposes
			}
		}
	}
	return whyNoFit
}

// whyCode is the reason behind a failed parse; failure turns it into words
// only when an error is returned, so the success path never formats.
type whyCode uint8

const (
	whyOK whyCode = iota
	whySyntax
	whyNoPiece
	whyNoTandem
	whyNoTandemOnFile
	whyNoSuchPlace
	whyNoFit
	whyExposes
	whyAmbiguous
	whyAmbiguousFiles
	whyTwoReadings
	whyCoordinates
	whyNotXiangqi
)

// failure is a parse outcome that is not a move. err is the sentinel, nil
// on success.
type failure struct {
	err   error
	why   whyCode
	kind  Kind
	color engine.Color
	file  int8
	n     int8
	move  engine.Move // whyCoordinates: the coordinate move that is not legal
}

// failError builds the error returned to callers, saying why in a few
// words. p is the position the token was read in.
func (p *Position) failError(f failure, tok string, n engine.Notation) error {
	why := f.text(n)
	if f.why == whyCoordinates {
		why = p.whyIllegal(f.move)
	}
	return fmt.Errorf("xiangqi: %q: %s: %w", tok, why, f.err)
}

func (f failure) text(n engine.Notation) string {
	side := f.color.Name(engine.Xiangqi)
	kind := f.kind.String()
	switch f.why {
	case whySyntax:
		if n == engine.Auto {
			return "not a move in any Xiangqi notation"
		}
		return "not a move in " + notationTitle(n) + " notation"
	case whyNoPiece:
		if f.file == 0 {
			return fmt.Sprintf("no %s %s", side, kind)
		}
		return fmt.Sprintf("no %s %s on file %d", side, kind, f.file)
	case whyNoTandem:
		return fmt.Sprintf("no two %s %ss stand on one file", side, kind)
	case whyNoTandemOnFile:
		return fmt.Sprintf("no two %s %ss on file %d", side, kind, f.file)
	case whyNoSuchPlace:
		if f.n > 0 {
			return fmt.Sprintf("the position word does not fit %d tandem %s %ss", f.n, side, kind)
		}
		return fmt.Sprintf("the tandem marker does not fit the %s %ss", side, kind)
	case whyNoFit:
		if f.file == 0 {
			return fmt.Sprintf("no legal %s %s move goes there", side, kind)
		}
		return fmt.Sprintf("no legal move of the %s %s on file %d goes there", side, kind, f.file)
	case whyExposes:
		return fmt.Sprintf("the %s %s would leave its general in check", side, kind)
	case whyAmbiguous:
		return fmt.Sprintf("%d %s %ss on file %d can go there: write %s", f.n, side, kind, f.file, tandemHint(n, int(f.n)))
	case whyAmbiguousFiles:
		return fmt.Sprintf("%s %ss stand in tandem on two files: write the file first", side, kind)
	case whyTwoReadings:
		return "WXF and Vietnamese readings name different legal moves"
	}
	return "bad move"
}

func notationTitle(n engine.Notation) string {
	switch n {
	case engine.ICCS:
		return "ICCS"
	case engine.WXF:
		return "WXF"
	case engine.Chinese, engine.ChineseTraditional:
		return "Chinese"
	case engine.Vietnamese:
		return "Vietnamese"
	}
	return strings.ToUpper(n.String())
}

// tandemHint names the position words a writer should have used.
func tandemHint(n engine.Notation, count int) string {
	switch n {
	case engine.WXF:
		if count >= 4 {
			return "++/+/-/--"
		}
		return "+/-"
	case engine.Vietnamese:
		if count >= 4 {
			return "1B…5B"
		}
		return "t/s"
	case engine.Chinese:
		if count >= 4 {
			return "一…五"
		}
		return "前/后"
	}
	if count >= 4 {
		return "一…五"
	}
	return "前/後"
}
