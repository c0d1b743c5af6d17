//go:build race

package importer_test

// raceEnabled: the race detector's shadow memory and allocations make
// memory budgets meaningless (go test -race).
const raceEnabled = true
