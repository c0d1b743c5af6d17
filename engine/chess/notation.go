package chess

import (
	"fmt"

	"github.com/xqdb/xqdb/engine"
)

// ParseMove reads one move token. SAN and Auto both take the lenient SAN
// reader (see san.go), which also reads long algebraic and UCI; UCI takes
// only coordinate moves (uci.go). Other notations belong to Xiangqi and give
// ErrBadMove. Errors wrap ErrBadMove, ErrIllegalMove or ErrAmbiguousMove
// and quote the token. Reading a typical token does not allocate.
func (p *Position) ParseMove(token string, n engine.Notation) (engine.Move, error) {
	switch n {
	case engine.Auto, engine.SAN:
		return p.parseSAN(token)
	case engine.UCI:
		return p.parseUCI(token)
	}
	return engine.NoMove, fmt.Errorf("chess: %q: notation %v is not for chess: %w", token, n, engine.ErrBadMove)
}

// FormatMove writes the legal move m in SAN (for SAN and Auto) or UCI (for
// UCI and every non-chess notation). engine.NullMove is "--" in all.
func (p *Position) FormatMove(m engine.Move, n engine.Notation) string {
	if m == engine.NullMove {
		return engine.NullText
	}
	var buf [16]byte
	switch n {
	case engine.Auto, engine.SAN:
		return string(p.AppendSAN(buf[:0], m))
	}
	return string(AppendUCI(buf[:0], m))
}

// SAN returns the SAN of the legal move m.
func (p *Position) SAN(m engine.Move) string { return p.FormatMove(m, engine.SAN) }
