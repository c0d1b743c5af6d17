package xiangqi

import "github.com/xqdb/xqdb/engine"

// Steps in the mailbox (uint8 arithmetic wraps, so negative steps are
// written as their two's complement through int8 conversions below).
var (
	orthSteps = [4]int8{north, south, east, west}
	diagSteps = [4]int8{north + east, north + west, south + east, south + west}
	// horse: for each orthogonal leg step, the two targets beyond it
	// (RULES X6: one step orthogonally, then one diagonally outward).
	horseLeg     = [4]int8{north, south, east, west}
	horseTargets = [4][2]int8{
		{2*north + east, 2*north + west},
		{2*south + east, 2*south + west},
		{2*east + north, 2*east + south},
		{2*west + north, 2*west + south},
	}
)

func step(sq uint8, d int8) uint8 { return sq + uint8(d) }

// MaxMoves bounds the pseudo-legal moves of any Xiangqi position (4 sliders
// of 17 + 2 horses of 8 + 5 soldiers of 3 + general, advisors, elephants
// = 119), so a [MaxMoves]engine.Move buffer never reallocates.
const MaxMoves = 128

// appendPseudo appends every move that obeys the piece's movement rule
// (RULES X2–X9) without regard to the mover's general (X10, X11).
func (p *Position) appendPseudo(dst []engine.Move) []engine.Move {
	base := idBase(p.side)
	for id := base; id < base+16; id++ {
		if from := p.sq[id]; from != 0 {
			dst = p.appendPieceMoves(dst, kindOf[id], from)
		}
	}
	return dst
}

// appendPieceMoves appends the pseudo-legal moves of the side to move's
// piece of kind k on from.
func (p *Position) appendPieceMoves(dst []engine.Move, k Kind, from uint8) []engine.Move {
	us := p.side
	own := colorBit(us)
	enemy := colorBit(us.Other())
	b := &p.board
	switch k {
	case General: // X2: one step orthogonally inside the palace.
		for _, d := range orthSteps {
			to := step(from, d)
			if inPalace[to] && b[to]&own == 0 {
				dst = append(dst, NewMove(from, to))
			}
		}
	case Advisor: // X3: one step diagonally inside the palace.
		for _, d := range diagSteps {
			to := step(from, d)
			if inPalace[to] && b[to]&own == 0 {
				dst = append(dst, NewMove(from, to))
			}
		}
	case Elephant: // X4: two points diagonally, eye empty, never across the river.
		for _, d := range diagSteps {
			eye := step(from, d)
			if b[eye] != empty {
				continue
			}
			to := step(eye, d)
			if half[to] == uint8(us) && b[to]&own == 0 {
				dst = append(dst, NewMove(from, to))
			}
		}
	case Horse: // X6: blocked by a piece on its leg.
		for i, d := range horseLeg {
			if b[step(from, d)] != empty {
				continue
			}
			for _, t := range horseTargets[i] {
				to := step(from, t)
				if c := b[to]; c == empty || c&enemy != 0 {
					dst = append(dst, NewMove(from, to))
				}
			}
		}
	case Chariot: // X5: any distance orthogonally, no jumping.
		for _, d := range orthSteps {
			to := step(from, d)
			for b[to] == empty {
				dst = append(dst, NewMove(from, to))
				to = step(to, d)
			}
			if b[to]&enemy != 0 {
				dst = append(dst, NewMove(from, to))
			}
		}
	case Cannon: // X7: moves like a chariot, captures over exactly one screen.
		for _, d := range orthSteps {
			to := step(from, d)
			for b[to] == empty {
				dst = append(dst, NewMove(from, to))
				to = step(to, d)
			}
			if b[to] == wall {
				continue
			}
			to = step(to, d) // jump the screen
			for b[to] == empty {
				to = step(to, d)
			}
			if b[to]&enemy != 0 {
				dst = append(dst, NewMove(from, to))
			}
		}
	case Soldier: // X8: forward; sideways too once across the river.
		fwd := int8(north)
		if us == engine.Second {
			fwd = south
		}
		if c := b[step(from, fwd)]; c == empty || c&enemy != 0 {
			dst = append(dst, NewMove(from, step(from, fwd)))
		}
		if half[from] != uint8(us) {
			if c := b[from+1]; c == empty || c&enemy != 0 {
				dst = append(dst, NewMove(from, from+1))
			}
			if c := b[from-1]; c == empty || c&enemy != 0 {
				dst = append(dst, NewMove(from, from-1))
			}
		}
	}
	return dst
}
