package xiangqi

// InsufficientMaterial reports RULES X16: neither side can ever mate.
func (p *Position) InsufficientMaterial() bool {
	for id := 16; id < numIDs; id++ {
		if p.sq[id] == 0 {
			continue
		}
		switch kindOf[id] {
		case Chariot, Horse, Cannon, Soldier:
			return false
		}
	}
	return true
}
