package chess

import (
	"fmt"

	"github.com/xqdb/xqdb/engine"
)

// SAN output is canonical: piece letter, the least disambiguation that
// works (file, else rank, else both), x for captures, =Q for promotions,
// O-O / O-O-O, and + or # after checking and mating moves.
//
// SAN input is lenient, in the spirit of pgn-extract, and never guesses
// between two legal moves:
//
//   - castling: O-O, 0-0, o-o, O-O-O, 0-0-0 (dashes optional);
//   - promotion: e8=Q, e8Q, e8(Q), e8/Q, any case;
//   - e.p. marks: exd6 e.p., exd6e.p., exd6 ep;
//   - check and mate marks + # ++ and annotations ! ? !! ?? !? ?! are ignored,
//     whether or not the move checks;
//   - disambiguation may be redundant (Ngf3 when only one knight can go) or
//     missing when only one move fits; a capture mark x (or :) may be missing
//     or extra; the captured piece may be named (Bb4xNc3);
//   - long algebraic and UCI: Ng1-f3, Ng1f3, e2-e4, e2e4, e7e8q, e1g1, and
//     castling as king-takes-own-rook (e1h1, Ke1h1, Kxh1) or as the king's
//     step (Kg1, since a king on e1 reaches g1 only by castling);
//   - pawn captures without rank or mark: ed5, exd, ed;
//   - piece letters in lower case (nf3, qxd4), and figurines (♘f3). A
//     lower-case b alone before the destination (bxc3, bc3) is read as a
//     b-pawn move first, and as a bishop move only when no b-pawn move fits.
//
// A token that fits no legal move gives ErrIllegalMove; one that fits more
// than one (including a promotion without its piece) gives ErrAmbiguousMove;
// one that is not a move at all gives ErrBadMove.

// AppendSAN appends the SAN of the legal move m to dst. A move that is not
// legal is appended in UCI form.
func (p *Position) AppendSAN(dst []byte, m engine.Move) []byte {
	b := &p.b
	if !b.isLegal(m) {
		return AppendUCI(dst, m)
	}
	from, to := moveFrom(m), moveTo(m)
	pc := b.sq[from]
	switch {
	case b.isCastle(m):
		if to > from {
			dst = append(dst, "O-O"...)
		} else {
			dst = append(dst, "O-O-O"...)
		}
	case pc.Type() == Pawn:
		if from.File() != to.File() {
			dst = append(dst, 'a'+byte(from.File()), 'x')
		}
		dst = appendSquare(dst, to)
		if pt := movePromo(m); pt != NoPieceType {
			dst = append(dst, '=', "  NBRQ"[pt])
		}
	default:
		dst = append(dst, "  NBRQK"[pc.Type()])
		dst = b.appendDisambiguation(dst, m)
		if b.sq[to] != NoPiece {
			dst = append(dst, 'x')
		}
		dst = appendSquare(dst, to)
	}
	nb := *b
	nb.doMove(m)
	if nb.inCheck() {
		if nb.countLegal() == 0 {
			dst = append(dst, '#')
		} else {
			dst = append(dst, '+')
		}
	}
	return dst
}

// appendDisambiguation appends the file, rank or square of m's from-square
// when another piece of the same kind could also go to m's to-square:
// the file if it tells them apart, else the rank, else both.
func (b *board) appendDisambiguation(dst []byte, m engine.Move) []byte {
	from, to := moveFrom(m), moveTo(m)
	pc := b.sq[from]
	var buf [maxMoves]engine.Move
	others, sameFile, sameRank := false, false, false
	for _, o := range b.genLegal(buf[:0], bit(to)) {
		if of := moveFrom(o); of != from && b.sq[of] == pc {
			others = true
			sameFile = sameFile || of.File() == from.File()
			sameRank = sameRank || of.Rank() == from.Rank()
		}
	}
	switch {
	case !others:
	case !sameFile:
		dst = append(dst, 'a'+byte(from.File()))
	case !sameRank:
		dst = append(dst, '1'+byte(from.Rank()))
	default:
		dst = appendSquare(dst, from)
	}
	return dst
}

func appendSquare(dst []byte, s Square) []byte {
	return append(dst, 'a'+byte(s.File()), '1'+byte(s.Rank()))
}

// sanQuery is what a SAN token says about its move.
type sanQuery struct {
	piece    PieceType // NoPieceType: a pawn, or any piece when from is a full square
	anyPiece bool      // long algebraic / UCI without a piece letter
	bOrPawn  bool      // a lone lower-case b: b-pawn first, then bishop
	fromFile int       // -1 when not given
	fromRank int       // -1 when not given
	target   uint64    // possible destinations (one square, or a file for "ed")
	to       Square    // NoSquare for the file-to-file pawn capture form
	promo    PieceType // promotion piece, or piece letter after the square
	promoSet bool      // promo was written with = / ( ) and must be a promotion
	captured PieceType // piece named after x (Bb4xNc3), or a bare suffix letter
}

// parseSAN reads a SAN (or long algebraic, or UCI) token; see the rules
// above. It does not allocate unless it fails.
func (p *Position) parseSAN(tok string) (engine.Move, error) {
	s := stripMarks(trimSpace(tok))
	if s == "" {
		return engine.NoMove, fmt.Errorf("chess: %q: %w", tok, engine.ErrBadMove)
	}
	b := &p.b
	if side, ok := castlingToken(s); ok {
		home := E1
		if b.side == Black {
			home = E8
		}
		m := NewMove(home, home+2)
		if side == 3 {
			m = NewMove(home, home-2)
		}
		if b.sq[home] != NewPiece(b.side, King) || !b.isLegal(m) {
			return engine.NoMove, fmt.Errorf("chess: %q: %w", tok, engine.ErrIllegalMove)
		}
		return m, nil
	}
	q, ok := parseSANQuery(s)
	if !ok {
		return engine.NoMove, fmt.Errorf("chess: %q: %w", tok, engine.ErrBadMove)
	}
	if q.to != NoSquare && (q.piece == King || q.anyPiece) {
		// King-takes-own-rook castling: e1h1, Ke1h1, Kxh1.
		ksq := b.kingSquare(b.side)
		if (q.fromFile < 0 || q.fromFile == ksq.File()) && (q.fromRank < 0 || q.fromRank == ksq.Rank()) {
			if to := b.castleFromRookCapture(ksq, q.to); to != q.to {
				q.to, q.target = to, bit(to)
			}
		}
	}
	var buf [maxMoves]engine.Move
	moves := b.genLegalFrom(buf[:0], p.info(), b.sanFrom(&q), q.target)
	m, n := b.matchSAN(moves, &q)
	if n == 0 && q.bOrPawn {
		q.piece, q.fromFile = Bishop, -1
		m, n = b.matchSAN(moves, &q)
	}
	switch {
	case n == 0:
		return engine.NoMove, fmt.Errorf("chess: %q: %w", tok, engine.ErrIllegalMove)
	case n > 1:
		return engine.NoMove, fmt.Errorf("chess: %q: %w", tok, engine.ErrAmbiguousMove)
	}
	return m, nil
}

// sanFrom returns the squares a move fitting q may come from: the pieces
// of the kind it names (and the bishops, for a lone b), on its file or
// rank when given.
func (b *board) sanFrom(q *sanQuery) uint64 {
	if q.anyPiece {
		return ^uint64(0)
	}
	ub := Piece(b.side) << 3
	from := b.bb[ub|Piece(q.piece)]
	if q.fromFile >= 0 {
		from &= fileA << q.fromFile
	}
	if q.fromRank >= 0 {
		from &= rank1 << (8 * q.fromRank)
	}
	if q.bOrPawn {
		from |= b.bb[ub|Piece(Bishop)]
	}
	return from
}

// matchSAN returns the last of moves that fits q and how many fit.
func (b *board) matchSAN(moves []engine.Move, q *sanQuery) (engine.Move, int) {
	var found engine.Move
	n := 0
	for _, m := range moves {
		from, to := moveFrom(m), moveTo(m)
		pt := b.sq[from].Type()
		switch {
		case !q.anyPiece && pt != q.piece:
			continue
		case q.fromFile >= 0 && from.File() != q.fromFile:
			continue
		case q.fromRank >= 0 && from.Rank() != q.fromRank:
			continue
		case q.captured != NoPieceType && b.sq[to].Type() != q.captured:
			continue
		}
		if mp := movePromo(m); mp != NoPieceType {
			if q.promo != NoPieceType && q.promo != mp {
				continue
			}
		} else if q.promoSet || q.promo != NoPieceType && b.sq[to].Type() != q.promo {
			// A bare letter after the square of a non-promotion may name
			// the captured piece (Ne5xg4B); anything else is no match.
			continue
		}
		found = m
		n++
	}
	return found, n
}

// stripMarks removes trailing check, mate and annotation marks and e.p.
// notes.
func stripMarks(s string) string {
	for {
		n := len(s)
		for n > 0 && (s[n-1] == '+' || s[n-1] == '#' || s[n-1] == '!' || s[n-1] == '?') {
			n--
		}
		s = trimSpace(s[:n])
		switch {
		case len(s) > 4 && s[len(s)-4:] == "e.p.":
			s = trimSpace(s[:len(s)-4])
		case len(s) > 2 && s[len(s)-2:] == "ep" && (s[len(s)-3] == ' ' || s[len(s)-3] >= '1' && s[len(s)-3] <= '8'):
			s = trimSpace(s[:len(s)-2])
		default:
			return s
		}
	}
}

// castlingToken recognises O-O (2) and O-O-O (3) written with O, o or 0,
// dashes optional.
func castlingToken(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 'O', 'o', '0':
			n++
		case '-':
		default:
			return 0, false
		}
	}
	return n, n == 2 || n == 3
}

// Figurines ♔♕♖♗♘♙ (white) and ♚♛♜♝♞♟ (black) are U+2654…U+265F; in UTF-8
// E2 99 94 … E2 99 9F.
var figurineTypes = [12]PieceType{King, Queen, Rook, Bishop, Knight, Pawn, King, Queen, Rook, Bishop, Knight, Pawn}

func parseSANQuery(s string) (sanQuery, bool) {
	q := sanQuery{fromFile: -1, fromRank: -1, to: NoSquare}
	// Promotion or suffix piece after the square.
	switch n := len(s); {
	case n >= 4 && s[n-1] == ')' && s[n-3] == '(':
		if q.promo = promoLetter(s[n-2]); q.promo == NoPieceType {
			return q, false
		}
		q.promoSet = true
		s = s[:n-3]
	case n >= 3 && promoLetter(s[n-1]) != NoPieceType && (s[n-2] == '=' || s[n-2] == '/'):
		q.promo, q.promoSet = promoLetter(s[n-1]), true
		s = s[:n-2]
	case n >= 3 && promoLetter(s[n-1]) != NoPieceType && s[n-2] >= '1' && s[n-2] <= '8':
		q.promo = promoLetter(s[n-1])
		s = s[:n-1]
	}
	n := len(s)
	var pre string
	switch {
	case n >= 2 && isFile(s[n-2]) && isRank(s[n-1]):
		q.to = NewSquare(int(s[n-2]-'a'), int(s[n-1]-'1'))
		q.target = bit(q.to)
		pre = s[:n-2]
	case (n == 2 || n == 3 && (s[1] == 'x' || s[1] == ':')) && isFile(s[0]) && isFile(s[n-1]) && s[0] != s[n-1]:
		// ed, exd: the pawn on the e-file takes on the d-file.
		q.piece, q.fromFile = Pawn, int(s[0]-'a')
		q.target = fileA << (s[n-1] - 'a')
		return q, s[n-1] == s[0]+1 || s[n-1]+1 == s[0]
	default:
		return q, false
	}
	// Captured piece named after the capture mark: Bb4xNc3.
	if k := len(pre); k >= 2 && (pre[k-2] == 'x' || pre[k-2] == ':') {
		switch pre[k-1] {
		case 'Q', 'R', 'B', 'N', 'P':
			q.captured = pieceFromChar(pre[k-1]).Type()
			pre = pre[:k-1]
		}
	}
	if k := len(pre); k >= 1 && (pre[k-1] == 'x' || pre[k-1] == ':' || pre[k-1] == '-') {
		pre = pre[:k-1]
	}
	// Piece letter.
	switch {
	case pre == "":
	case len(pre) >= 3 && pre[0] == 0xE2 && pre[1] == 0x99 && pre[2] >= 0x94 && pre[2] <= 0x9F:
		q.piece = figurineTypes[pre[2]-0x94]
		pre = pre[3:]
	case pre == "b":
		q.bOrPawn = true
	default:
		switch c := pre[0]; c {
		case 'K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'n', 'p':
			q.piece = pieceFromChar(c).Type()
			pre = pre[1:]
		}
	}
	if len(pre) > 0 && isFile(pre[0]) {
		q.fromFile = int(pre[0] - 'a')
		pre = pre[1:]
	}
	if len(pre) > 0 && isRank(pre[0]) {
		q.fromRank = int(pre[0] - '1')
		pre = pre[1:]
	}
	if pre != "" {
		return q, false
	}
	if q.piece == NoPieceType {
		if q.fromFile >= 0 && q.fromRank >= 0 {
			q.anyPiece = true // e2e4, e1g1: whatever stands there
		} else {
			q.piece = Pawn
		}
	}
	return q, true
}

func isFile(c byte) bool { return c >= 'a' && c <= 'h' }
func isRank(c byte) bool { return c >= '1' && c <= '8' }
