package xiangqi

import (
	"strings"

	"github.com/xqdb/xqdb/engine"
)

// RULES X16 (seed 002 §6.1): the game is drawn when neither side can win.
//
// A position can only be won by mate or stalemate (X12). The rule is
// decided by the material left, in two tiers, both proven by exhaustive
// enumeration in material_proof_test.go rather than taken on trust:
//
//   - Dead material: no placement of the pieces, with either side to move,
//     leaves the side to move without a legal move, and the same holds after
//     any capture. Then no sequence of moves whatever ends the game. This
//     covers every position without chariots, horses, cannons or soldiers
//     (X16's minimum), a lone cannon that can never find a screen (KC-K,
//     KC-KA, KC-KC …), and soldiers that have reached the enemy's back rank
//     and can never leave it ("old soldiers", written P): such a soldier
//     attacks only that rank, and alone it cannot mate.
//   - Mate-in-one material: a full retrograde analysis shows that every
//     forced win is a mate (or stalemate) in one move by the side to move,
//     and every capture leads to dead material. Then the position is drawn
//     unless the side to move can end the game at once. This is the reading
//     of Pikafish's "MATE_DRAW" (KCB-KA, KC-KAA in the rules-cases table),
//     here proven rather than assumed.
//
// Signatures are written Red-Black, "KCB-KA": C cannon, A advisor,
// B elephant, P old soldier; each table holds one of the two colourings and
// the lookup tries both. The tables hold exactly what the proof finds among
// the signatures of at most four pieces besides the generals, at most two of
// a kind per side and two cannons in all; signatures of advisors and
// elephants alone are dead whatever their number. Anything else is treated
// as live, which is safe: the rule never declares a draw it cannot prove.
const (
	deadSignatures = "" +
		// a lone cannon whose screens never suffice
		"KC-K KC-KA KC-KB KC-KC KCB-K KC-KAB KC-KBB KCB-KB KCBB-K KC-KABB KCB-KBB KCBB-KB " +
		// soldiers on the enemy's back rank
		"KP-K KAP-K KBP-K KP-KA KP-KB KP-KP KPP-K KAAP-K KABP-K KAP-KA KAP-KB KAP-KP " +
		"KAPP-K KBBP-K KBP-KA KBP-KB KBP-KP KBPP-K KP-KAB KP-KBB KPP-KB KPP-KP KAABP-K KAAP-KA " +
		"KAAP-KB KAAPP-K KABBP-K KABP-KA KABP-KB KABP-KP KABPP-K KAP-KAB KAP-KAP KAP-KBB KAPP-KB KAPP-KP " +
		"KBBP-KA KBBP-KB KBBP-KP KBBPP-K KBP-KAB KBP-KAP KBP-KBB KBP-KBP KBPP-KB KBPP-KP KP-KABB KPP-KBB " +
		"KPP-KBP KPP-KPP"
	mateInOneSignatures = "KC-KAA KCB-KA KCB-KC KCP-K KC-KP KP-KAA KPP-KA"
)

// Material signature kinds: the pieces that may remain in dead material.
const (
	sigAdvisor = iota
	sigElephant
	sigCannon
	sigOldSoldier // a soldier on the enemy's back rank, which it can never leave
	sigKinds
)

// matSig counts, per side, the pieces of a position that lack mating force
// on their own; generals are implied.
type matSig struct{ n [2][sigKinds]uint8 }

// materialClass is what X16 makes of a signature.
type materialClass uint8

const (
	liveMaterial      materialClass = iota
	deadMaterial                    // drawn whatever happens
	mateInOneMaterial               // drawn unless the side to move mates at once
)

// key packs a signature into 24 bits (3 per count).
func (s matSig) key() uint32 {
	var k uint32
	for c := 0; c < 2; c++ {
		for i := 0; i < sigKinds; i++ {
			k = k<<3 | uint32(s.n[c][i])
		}
	}
	return k
}

func (s matSig) swapped() matSig { return matSig{n: [2][sigKinds]uint8{s.n[1], s.n[0]}} }

var materialTable = map[uint32]materialClass{}

func init() {
	for class, list := range map[materialClass]string{deadMaterial: deadSignatures, mateInOneMaterial: mateInOneSignatures} {
		for _, str := range strings.Fields(list) {
			s := parseSignature(str)
			materialTable[s.key()] = class
			materialTable[s.swapped().key()] = class
		}
	}
}

// sigLetters and sigOrder: signatures are written cannons, advisors,
// elephants, old soldiers.
const sigLetters = "CABP"

var sigOrder = [4]int{sigCannon, sigAdvisor, sigElephant, sigOldSoldier}

// parseSignature reads "KCB-KA"; the tables are constants, so a bad one
// panics at start-up.
func parseSignature(str string) matSig {
	var s matSig
	sides := strings.Split(str, "-")
	if len(sides) != 2 {
		panic("xiangqi: bad material signature " + str)
	}
	for c, side := range sides {
		if side == "" || side[0] != 'K' {
			panic("xiangqi: bad material signature " + str)
		}
		for _, r := range side[1:] {
			i := strings.IndexRune(sigLetters, r)
			if i < 0 {
				panic("xiangqi: bad material signature " + str)
			}
			s.n[c][sigOrder[i]]++
		}
	}
	return s
}

// String writes the signature as "KCB-KA".
func (s matSig) String() string {
	var b strings.Builder
	for c := 0; c < 2; c++ {
		if c == 1 {
			b.WriteByte('-')
		}
		b.WriteByte('K')
		for i, letter := range sigLetters {
			for range s.n[c][sigOrder[i]] {
				b.WriteRune(letter)
			}
		}
	}
	return b.String()
}

// signature returns the material signature of the position; ok is false
// when some piece has mating force of its own (a chariot, a horse, or a
// soldier not on the enemy's back rank).
func (p *Position) signature() (s matSig, ok bool) {
	for id := uint8(16); id < numIDs; id++ {
		sq := p.sq[id]
		if sq == 0 {
			continue
		}
		c := colorOf(id)
		switch kindOf[id] {
		case Advisor:
			s.n[c][sigAdvisor]++
		case Elephant:
			s.n[c][sigElephant]++
		case Cannon:
			s.n[c][sigCannon]++
		case Soldier:
			if back := 9 * (1 - int(c)); RankOf(sq) != back {
				return s, false
			}
			s.n[c][sigOldSoldier]++
		case Chariot, Horse:
			return s, false
		}
	}
	return s, true
}

// class says what X16 makes of the signature.
func (s matSig) class() materialClass {
	if s.n[0][sigCannon]+s.n[1][sigCannon]+s.n[0][sigOldSoldier]+s.n[1][sigOldSoldier] == 0 {
		// Advisors and elephants never leave their own half, and a general
		// controls no more than its file: nothing can mate (X16's minimum;
		// enumerated up to KAABB-KAABB by TestInsufficientMaterialProof).
		return deadMaterial
	}
	return materialTable[s.key()]
}

// materialClass classifies the material on the board.
func (p *Position) materialClass() materialClass {
	s, ok := p.signature()
	if !ok {
		return liveMaterial
	}
	return s.class()
}

// InsufficientMaterial reports RULES X16: neither side can win any more
// (see the top of material.go for the tiers and their proof). A position
// whose side to move is already mated or stalemated is not a draw.
func (p *Position) InsufficientMaterial() bool {
	switch p.materialClass() {
	case deadMaterial:
		return true
	case mateInOneMaterial:
		return p.hasLegalMove() && !p.canEndAtOnce()
	}
	return false
}

// canEndAtOnce reports whether the side to move has a move after which the
// opponent has no legal move (mate or stalemate, both wins: X12).
func (p *Position) canEndAtOnce() bool {
	var buf [MaxMoves]engine.Move
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		p.Make(m)
		ends := !p.hasLegalMove()
		p.Unmake()
		if ends {
			return true
		}
	}
	return false
}
