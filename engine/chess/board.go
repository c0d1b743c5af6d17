package chess

import (
	"math/bits"

	"github.com/xqdb/xqdb/engine"
)

// Castling rights, one bit each, in Polyglot's order (key index 768+bit).
const (
	castleWK uint8 = 1 << iota // White O-O
	castleWQ                   // White O-O-O
	castleBK                   // Black O-O
	castleBQ                   // Black O-O-O
)

// castleKeep[s] is ANDed into the rights when a move leaves or lands on s:
// RULES C2, no castling once the king or that rook has moved (or the rook
// was captured at home).
var castleKeep = func() (k [64]uint8) {
	for i := range k {
		k[i] = 15
	}
	k[E1] &^= castleWK | castleWQ
	k[H1] &^= castleWK
	k[A1] &^= castleWQ
	k[E8] &^= castleBK | castleBQ
	k[H8] &^= castleBK
	k[A8] &^= castleBQ
	return k
}()

// board is the state of one position: bitboards per piece and per colour,
// a mailbox for piece lookup, and the fields of a FEN.
type board struct {
	bb   [16]uint64 // by Piece (index 0 and 7, 8, 15 unused)
	occ  [2]uint64  // by colour
	sq   [64]Piece
	key  uint64
	full uint32 // fullmove number
	half uint16 // halfmove clock (plies since the last capture or pawn move)
	side engine.Color
	// castle is the set of castling rights (castleWK…).
	castle uint8
	// ep is the square behind a pawn that just double-stepped, kept only
	// when a pawn of the side to move stands beside that pawn (see doc.go).
	ep Square
}

// undo is what make saves so unmake can restore the irreversible parts.
type undo struct {
	key      uint64
	half     uint16
	captured Piece
	castle   uint8
	ep       Square
}

func (b *board) put(p Piece, s Square) {
	b.sq[s] = p
	b.bb[p] |= bit(s)
	b.occ[p.Color()] |= bit(s)
}

func (b *board) kingSquare(c engine.Color) Square {
	return Square(bits.TrailingZeros64(b.bb[NewPiece(c, King)]))
}

// doMove plays the legal move m and returns what undoMove needs.
func (b *board) doMove(m engine.Move) undo {
	from, to := moveFrom(m), moveTo(m)
	u := undo{key: b.key, half: b.half, castle: b.castle, ep: b.ep}
	us := b.side
	them := us ^ 1
	pc := b.sq[from]
	fromTo := bit(from) | bit(to)
	key := b.key ^ zCastle[b.castle] ^ zTurn
	if b.ep != NoSquare {
		key ^= zEP[b.ep&7]
		b.ep = NoSquare
	}
	b.half++
	if cap := b.sq[to]; cap != NoPiece {
		u.captured = cap
		b.bb[cap] ^= bit(to)
		b.occ[them] ^= bit(to)
		key ^= zPiece[cap][to]
		b.half = 0
	}
	b.sq[from] = NoPiece
	b.sq[to] = pc
	b.bb[pc] ^= fromTo
	b.occ[us] ^= fromTo
	key ^= zPiece[pc][from] ^ zPiece[pc][to]

	switch pc.Type() {
	case Pawn:
		b.half = 0
		switch {
		case to^from == 16:
			// Double step. RULES C3: e.p. only on the very next move; keep
			// the square only if an enemy pawn stands beside (see doc.go).
			ep := (from + to) / 2
			if pawnAttacks[us][ep]&b.bb[NewPiece(them, Pawn)] != 0 {
				b.ep = ep
				key ^= zEP[ep&7]
			}
		case to == u.ep:
			// En passant: the captured pawn stands behind the e.p. square.
			capSq := to ^ 8
			cap := NewPiece(them, Pawn)
			u.captured = cap
			b.sq[capSq] = NoPiece
			b.bb[cap] ^= bit(capSq)
			b.occ[them] ^= bit(capSq)
			key ^= zPiece[cap][capSq]
		default:
			if promo := movePromo(m); promo != NoPieceType {
				np := NewPiece(us, promo)
				b.bb[pc] ^= bit(to)
				b.bb[np] ^= bit(to)
				b.sq[to] = np
				key ^= zPiece[pc][to] ^ zPiece[np][to]
			}
		}
	case King:
		if rFrom, rTo, ok := castleRook(from, to); ok {
			rook := NewPiece(us, Rook)
			b.sq[rFrom] = NoPiece
			b.sq[rTo] = rook
			rft := bit(rFrom) | bit(rTo)
			b.bb[rook] ^= rft
			b.occ[us] ^= rft
			key ^= zPiece[rook][rFrom] ^ zPiece[rook][rTo]
		}
	}
	b.castle &= castleKeep[from] & castleKeep[to]
	key ^= zCastle[b.castle]
	if us == Black {
		b.full++
	}
	b.side = them
	b.key = key
	return u
}

// castleRook returns the squares the rook leaves and takes when a king
// goes from → to, and whether that move castles (RULES C2: a king's double
// step; the rook jumps to the king's other side).
func castleRook(from, to Square) (rFrom, rTo Square, ok bool) {
	switch int(to) - int(from) {
	case 2:
		return from + 3, from + 1, true
	case -2:
		return from - 4, from - 1, true
	}
	return 0, 0, false
}

// undoMove takes back m, which must be the last move done with doMove.
// doNull passes the turn: the e.p. square lapses (RULES C3: only on the
// very next move), the clocks run, no piece moves.
func (b *board) doNull() undo {
	u := undo{key: b.key, half: b.half, castle: b.castle, ep: b.ep}
	b.key ^= zTurn
	if b.ep != NoSquare {
		b.key ^= zEP[b.ep&7]
		b.ep = NoSquare
	}
	b.half++
	if b.side == Black {
		b.full++
	}
	b.side ^= 1
	return u
}

// undoNull takes back doNull.
func (b *board) undoNull(u undo) {
	b.side ^= 1
	if b.side == Black {
		b.full--
	}
	b.key, b.half, b.castle, b.ep = u.key, u.half, u.castle, u.ep
}

func (b *board) undoMove(m engine.Move, u undo) {
	from, to := moveFrom(m), moveTo(m)
	them := b.side
	us := them ^ 1
	b.side = us
	if us == Black {
		b.full--
	}
	pc := b.sq[to]
	if movePromo(m) != NoPieceType {
		b.bb[pc] ^= bit(to)
		pc = NewPiece(us, Pawn)
		b.bb[pc] ^= bit(to)
	}
	fromTo := bit(from) | bit(to)
	b.sq[to] = NoPiece
	b.sq[from] = pc
	b.bb[pc] ^= fromTo
	b.occ[us] ^= fromTo
	if cap := u.captured; cap != NoPiece {
		capSq := to
		if pc.Type() == Pawn && to == u.ep {
			capSq = to ^ 8
		}
		b.sq[capSq] = cap
		b.bb[cap] ^= bit(capSq)
		b.occ[them] ^= bit(capSq)
	} else if pc.Type() == King {
		if rFrom, rTo, ok := castleRook(from, to); ok {
			rook := NewPiece(us, Rook)
			b.sq[rTo] = NoPiece
			b.sq[rFrom] = rook
			rft := bit(rFrom) | bit(rTo)
			b.bb[rook] ^= rft
			b.occ[us] ^= rft
		}
	}
	b.key, b.half, b.castle, b.ep = u.key, u.half, u.castle, u.ep
}
