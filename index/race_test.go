//go:build race

package index

// raceEnabled: the race detector instruments allocations, so tests that
// count them do not (go test -race).
const raceEnabled = true
