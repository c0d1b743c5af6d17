package chess

import (
	"math/bits"

	"github.com/xqdb/xqdb/engine"
)

// White and Black name the engine's sides for chess.
const (
	White = engine.First
	Black = engine.Second
)

// Square is a board square, a1=0, b1=1 … h1=7, a2=8 … h8=63 (Polyglot's
// numbering: 8*rank + file).
type Square uint8

// NoSquare marks an absent square (no e.p. square).
const NoSquare Square = 64

// The 64 squares by name.
const (
	A1, B1, C1, D1, E1, F1, G1, H1 Square = 8*iota + 0, 8*iota + 1, 8*iota + 2, 8*iota + 3, 8*iota + 4, 8*iota + 5, 8*iota + 6, 8*iota + 7
	A2, B2, C2, D2, E2, F2, G2, H2
	A3, B3, C3, D3, E3, F3, G3, H3
	A4, B4, C4, D4, E4, F4, G4, H4
	A5, B5, C5, D5, E5, F5, G5, H5
	A6, B6, C6, D6, E6, F6, G6, H6
	A7, B7, C7, D7, E7, F7, G7, H7
	A8, B8, C8, D8, E8, F8, G8, H8
)

// NewSquare returns the square of a file and rank, both 0–7.
func NewSquare(file, rank int) Square { return Square(8*rank + file) }

// File returns 0 for the a-file … 7 for the h-file.
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0 for the first rank … 7 for the eighth.
func (s Square) Rank() int { return int(s) >> 3 }

// String returns the square's name, "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{'a' + byte(s.File()), '1' + byte(s.Rank())})
}

// ParseSquare reads a square name such as "e4".
func ParseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, false
	}
	return NewSquare(int(s[0]-'a'), int(s[1]-'1')), true
}

// PieceType is a kind of piece without colour.
type PieceType uint8

// Piece types. The order makes a promotion piece's Polyglot code PieceType-1
// (knight 1 … queen 4).
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Piece is a coloured piece: PieceType | Color<<3. The zero Piece is an
// empty square.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// NewPiece returns the piece of colour c and type t.
func NewPiece(c engine.Color, t PieceType) Piece { return Piece(t) | Piece(c)<<3 }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour (meaningless for NoPiece).
func (p Piece) Color() engine.Color { return engine.Color(p >> 3) }

const pieceLetters = " PNBRQK  pnbrqk"

// Char returns the FEN letter of the piece, upper case for White, or ' '.
func (p Piece) Char() byte {
	if int(p) >= len(pieceLetters) {
		return ' '
	}
	return pieceLetters[p]
}

// pieceFromChar reads a FEN piece letter.
func pieceFromChar(c byte) Piece {
	for i := 1; i < len(pieceLetters); i++ {
		if pieceLetters[i] == c && c != ' ' {
			return Piece(i)
		}
	}
	return NoPiece
}

// Bitboard helpers. A bitboard is a uint64 with bit s set for square s.
const (
	fileA uint64 = 0x0101010101010101
	fileH        = fileA << 7
	rank1 uint64 = 0xFF
	rank2        = rank1 << 8
	rank3        = rank1 << 16
	rank4        = rank1 << 24
	rank5        = rank1 << 32
	rank6        = rank1 << 40
	rank7        = rank1 << 48
	rank8        = rank1 << 56

	lightSquares uint64 = 0x55AA55AA55AA55AA
	darkSquares         = ^lightSquares
)

func bit(s Square) uint64 { return 1 << (s & 63) }

func lsb(b uint64) Square { return Square(bits.TrailingZeros64(b)) }

func popcount(b uint64) int { return bits.OnesCount64(b) }
