package index

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Dedupe says when an imported game is the same as a stored one.
type Dedupe int

const (
	// DedupeGame: the same start and moves, the same result, the same date
	// where both are known, and the same players after folding their names
	// (PlayerKey), as SCID's twin check asks. Games with the same moves and
	// other metadata are all stored (xqdb twins lists them).
	DedupeGame Dedupe = iota
	// DedupeMoves: the same start and moves alone; the first game stored
	// wins, whatever its players or result.
	DedupeMoves
)

// ParseDedupe reads an --dedupe value.
func ParseDedupe(s string) (Dedupe, error) {
	switch s {
	case "game", "":
		return DedupeGame, nil
	case "moves":
		return DedupeMoves, nil
	}
	return 0, fmt.Errorf("index: unknown de-duplication %q (want game or moves)", s)
}

// sameGame reports whether two games with the same moves are one game by
// their metadata.
func sameGame(a, b Attrs) bool {
	return a.Result == b.Result && a.Players == b.Players && sameDate(a.Date, b.Date)
}

// sameDate compares two yyyymmdd dates part by part where both know the
// part: "1922.??.??" is the same date as "1922.03.19", "2020.05.01" is not
// "2020.05.02", and an unknown date is any date.
func sameDate(a, b uint32) bool {
	for _, div := range [...]uint32{10000, 100, 1} {
		x, y := a/div, b/div
		if div != 10000 {
			x, y = x%100, y%100
		}
		if x == 0 || y == 0 {
			return true // this part and the finer ones are unknown on one side
		}
		if x != y {
			return false
		}
	}
	return true
}

// playersHash is a 32-bit hash of a game's two players' keys: games with
// the same moves are compared by it, so a collision needs the same moves
// as well (one in four billion such pairs). It is FNV-1a of the white key,
// a zero byte and the black key, stored in every game's attributes.
func playersHash(r *Record) uint32 {
	white := r.Tag("White")
	if white == "" {
		white = r.Tag("Red")
	}
	var buf [96]byte
	b := appendPlayerKey(buf[:0], white)
	b = append(b, 0)
	b = appendPlayerKey(b, r.Tag("Black"))
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// PlayerKey is the form of a player's name that twin checks compare: the
// name folded as the metadata index folds it (case, diacritics,
// traditional Chinese script: Fold), reduced to the surname and the first
// initial, so that "Carlsen, Magnus", "Carlsen, M.", "Carlsen,M",
// "Magnus Carlsen", "M. Carlsen", "Carlsen M" and "CARLSEN Magnus" give
// "carlsen m". The surname is the word before a comma; without a comma,
// the one word in capitals, else the last word unless it is an initial
// ("Carlsen M": then the one before it). A
// multi-word surname keeps its last word ("van Wely, L." and "L. van Wely"
// give "wely l"). A name of one word (吕钦, Kasparov) is itself. Unknown
// names ("?", "NN", "N.N.") give "".
func PlayerKey(name string) string { return string(appendPlayerKey(nil, name)) }

// appendPlayerKey appends name's PlayerKey to dst. Every game's two
// players go through it, so it allocates nothing for names of up to
// eight words (a tenth of the replay workers' allocations were its
// word lists and strings; issue 18).
func appendPlayerKey(dst []byte, name string) []byte {
	name = strings.TrimSpace(name)
	surname, given := name, ""
	if i := strings.IndexByte(name, ','); i >= 0 {
		surname, given = name[:i], name[i+1:]
	}
	var wordsBuf [8]string
	words := appendNameWords(wordsBuf[:0], surname)
	if given == "" && len(words) > 1 {
		last := len(words) - 1
		switch caps := capitalWord(words); {
		case caps >= 0: // "CARLSEN Magnus", as FIDE writes names
			if caps == 0 {
				given = words[1]
			} else {
				given = words[0]
			}
			words = words[caps : caps+1]
		case utf8.RuneCountInString(words[last]) == 1: // "Carlsen M"
			given, words = words[last], words[last-1:last]
		default: // "Magnus Carlsen"
			given, words = words[0], words[last:]
		}
	}
	if len(words) == 0 {
		return dst
	}
	start := len(dst)
	dst = appendFolded(dst, words[len(words)-1])
	sur := dst[start:]
	if len(words) == 1 && given == "" && (string(sur) == "nn" || string(sur) == "unknown") {
		return dst[:start]
	}
	var givenBuf [8]string
	gw := appendNameWords(givenBuf[:0], given)
	if string(sur) == "n" { // "N.N.", "N, N"
		var buf [8]byte
		joined := buf[:0]
		for _, w := range gw {
			joined = appendFolded(joined, w)
		}
		if string(joined) == "n" {
			return dst[:start]
		}
	}
	if len(gw) > 0 {
		// A word starts with a letter or digit, which Fold never drops.
		r, _ := utf8.DecodeRuneInString(gw[0])
		dst = append(dst, ' ')
		dst = utf8.AppendRune(dst, foldRune(r))
	}
	return dst
}

// appendFolded appends Fold(s) to dst.
func appendFolded(dst []byte, s string) []byte {
	for _, r := range s {
		if r = foldRune(r); r >= 0 {
			dst = utf8.AppendRune(dst, r)
		}
	}
	return dst
}

// capitalWord returns the index of the one word of two or more letters
// written in capitals among words that are not all capitals, or -1.
func capitalWord(words []string) int {
	found := -1
	for i, w := range words {
		if utf8.RuneCountInString(w) < 2 || !inCapitals(w) {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = i
	}
	return found
}

// inCapitals reports whether w has a capital letter and no small one
// (strings.ToUpper(w) == w and strings.ToLower(w) != w).
func inCapitals(w string) bool {
	capital := false
	for _, r := range w {
		if unicode.ToUpper(r) != r {
			return false
		}
		capital = capital || unicode.ToLower(r) != r
	}
	return capital
}

// appendNameWords appends the words of letters and digits of s to dst.
func appendNameWords(dst []string, s string) []string {
	from := -1
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if from < 0 {
				from = i
			}
		} else if from >= 0 {
			dst = append(dst, s[from:i])
			from = -1
		}
	}
	if from >= 0 {
		dst = append(dst, s[from:])
	}
	return dst
}

// TwinGroups returns the groups of live games that share their start and
// moves, each in id order, ordered by their first game: games a person may
// want to merge (with DedupeGame, their metadata differ). Games without
// moves are left out (they share an empty move list, not a game).
func (s *Store) TwinGroups() ([][]uint32, error) {
	if err := s.loadAttrs(); err != nil {
		return nil, err
	}
	first := map[uint64]int{} // moves hash → group index
	var groups [][]uint32
	for gid := uint32(1); gid < s.man.NextGid && int(gid) < len(s.attrs); gid++ {
		a := &s.attrs[gid]
		if a.Deleted || a.Plies == 0 {
			continue
		}
		if i, ok := first[a.Hash]; ok {
			groups[i] = append(groups[i], gid)
			continue
		}
		first[a.Hash] = len(groups)
		groups = append(groups, []uint32{gid})
	}
	out := groups[:0]
	for _, g := range groups {
		if len(g) > 1 {
			out = append(out, g)
		}
	}
	return out, nil
}
