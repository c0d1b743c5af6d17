package xiangqi

import (
	"errors"
	"fmt"

	"github.com/xqdb/xqdb/engine"
)

// ParseMove reads one move token in notation n (engine.Auto: recognise it)
// and returns the legal move it names.
func (p *Position) ParseMove(tok string, n engine.Notation) (engine.Move, error) {
	switch n {
	case engine.ICCS:
		return p.parseICCS(tok)
	case engine.Auto:
		if _, ok := ParseICCSMove(tok); ok {
			return p.parseICCS(tok)
		}
	}
	return 0, fmt.Errorf("xiangqi: %v notation: %w", n, errors.ErrUnsupported)
}

// FormatMove writes a legal move in notation n.
func (p *Position) FormatMove(m engine.Move, n engine.Notation) string {
	return ICCS(m)
}
