package xqf

import (
	"encoding/binary"

	"github.com/xqdb/xqdb/importer/internal/board"
)

// Header layout, NOTATIONS §7 (XQF.TXT, xqffile.h).
const (
	headerSize   = 0x400
	offVersion   = 0x02
	offKeyMask   = 0x03
	offKeyOr     = 0x08 // KeyOrA..D, 4 bytes
	offKeysSum   = 0x0C
	offKeyXY     = 0x0D
	offKeyXYf    = 0x0E
	offKeyXYt    = 0x0F
	offPieces    = 0x10
	offResult    = 0x33
	offType      = 0x40
	firstVersion = 11 // first encrypted version (0x0B), not 0x12
	permVersion  = 12 // first version that also rotates the piece table
)

// textField is a Pascal string in the header: a length byte, then at most
// max bytes of GBK text.
type textField struct {
	off, max int
	tag      string
}

// textFields are the header strings in the order they become tags.
var textFields = []textField{
	{0x50, 63, "Title"},
	{0xD0, 63, "Event"},
	{0x110, 15, "Date"},
	{0x120, 15, "Site"},
	{0x130, 15, "Red"},
	{0x140, 15, "Black"},
	{0x150, 63, "TimeControl"},
	{0x190, 15, "RedTime"},
	{0x1A0, 15, "BlackTime"},
	{0x1D0, 15, "Annotator"},
	{0x1E0, 15, "Author"},
}

// results maps the result byte (0x33) to a PGN result; walker8088 reads 4
// as a draw too (NOTATIONS §7).
var results = [...]string{0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1/2-1/2"}

// types names the type byte (0x40).
var types = [...]string{0: "game", 1: "opening", 2: "middlegame", 3: "endgame"}

// keys are the decryption values derived from the header (NOTATIONS §7,
// from xqf2pgn.cpp; all arithmetic on unsigned bytes).
type keys struct {
	piece, src, dst byte     // KeyXY, KeyXYf, KeyXYt after mixing
	comment         int      // KeyRMKSize, subtracted from comment lengths
	stream          [32]byte // subtracted from the move area, cycling
}

// square mixes a key byte: f(x) = (54x² + 221)·x (mod 256), applied with
// the previous key as multiplier.
func mix(x, mul byte) byte { return (x*x*54 + 221) * mul }

func newKeys(h []byte) keys {
	var k keys
	k.piece = mix(h[offKeyXY], h[offKeyXY])
	k.src = mix(h[offKeyXYf], k.piece)
	k.dst = mix(h[offKeyXYt], k.src)
	k.comment = (int(h[offKeysSum])*256+int(h[offKeyXY]))%32000 + 767
	const copyright = "[(C) Copyright Mr. Dong Shiwei.]"
	var f [4]byte
	for i := range f {
		f[i] = h[offKeyOr+i] | (h[offKeysSum+i] & h[offKeyMask])
	}
	for j := range k.stream {
		k.stream[j] = copyright[j] & f[j%4]
	}
	return k
}

// readBoard places the 32 pieces of the header's table on b. Squares are
// X*10+Y (file, rank); after decoding, anything above 89 is a piece
// off the board.
func readBoard(h []byte, version byte, k *keys, b *board.Board) {
	var pos [32]byte
	raw := h[offPieces : offPieces+32]
	for i := 0; i < 32; i++ {
		switch {
		case version < firstVersion:
			pos[i] = raw[i]
		case version < permVersion:
			pos[i] = raw[i] - k.piece
		default:
			// NOTATIONS §7: version ≥ 12 rotates the piece table.
			pos[(int(k.piece)+1+i)%32] = raw[i] - k.piece
		}
	}
	for i, sq := range pos {
		if sq > 89 {
			continue
		}
		b[sq/10][sq%10] = board.Pieces[i]
	}
}

func le32(b []byte) int64 { return int64(int32(binary.LittleEndian.Uint32(b))) }
