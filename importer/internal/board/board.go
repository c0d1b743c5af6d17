// Package board holds the little Xiangqi board arithmetic that the XQF and
// DhtmlXQ readers share: a 9×10 array of piece letters, its FEN, and the
// side to move inferred from the first move (NOTATIONS §7, §8). It checks
// no rule.
package board

import "strings"

// Board is a Xiangqi board indexed [file][rank]: file 0–8 is ICCS a–i,
// rank 0–9 counts from Red's back rank (NOTATIONS §0). 0 is an empty
// point; pieces are FEN letters, upper case Red.
type Board [9][10]byte

// Pieces is the piece order of XQF piece tables and DhtmlXQ binit:
// 車馬相仕帥仕相馬車炮炮兵×5, Red then Black.
const Pieces = "RNBAKABNRCCPPPPPrnbakabnrccppppp"

// Start is the standard start position, Red to move.
const Start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

// Side returns the FEN side letter for a game whose first move leaves
// (file, rank): "b" when a Black piece stands there, else "w". XQF and
// DhtmlXQ do not store the side to move; xqf2pgn and vschess infer it the
// same way.
func (b *Board) Side(file, rank int) byte {
	if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
		if c := b[file][rank]; c >= 'a' && c <= 'z' {
			return 'b'
		}
	}
	return 'w'
}

// FEN returns the position as a Xiangqi FEN (NOTATIONS §1): ranks from 9
// (Black's back rank) down to 0, files a→i.
func (b *Board) FEN(side byte) string {
	var sb strings.Builder
	for rank := 9; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 9; file++ {
			c := b[file][rank]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteByte(c)
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteByte(' ')
	sb.WriteByte(side)
	sb.WriteString(" - - 0 1")
	return sb.String()
}

// AppendICCS appends the lower-case ICCS move (NOTATIONS §2, UCCI form
// "h2e2") from (f1, r1) to (f2, r2).
func AppendICCS(dst []byte, f1, r1, f2, r2 int) []byte {
	return append(dst, byte('a'+f1), byte('0'+r1), byte('a'+f2), byte('0'+r2))
}
