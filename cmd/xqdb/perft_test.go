package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPerftJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "perft", "--depth", "3", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res perftResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("bad JSON %q: %v", out, err)
	}
	if res.Nodes != 79666 || res.Depth != 3 || !strings.HasPrefix(res.FEN, "rnbakabnr/") {
		t.Fatalf("got %+v, want 79666 nodes at depth 3 from the start", res)
	}
}

func TestPerftDivideSumsToTotal(t *testing.T) {
	code, out, _ := runCLI(t, "perft", "--depth", "2", "--divide", "--json")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var res perftResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	var sum uint64
	for _, n := range res.Divide {
		sum += n
	}
	if len(res.Divide) != 44 || sum != 1920 || res.Divide["h2e2"] != 45 {
		t.Fatalf("divide has %d moves summing to %d (h2e2 %d); want 44, 1920, 45", len(res.Divide), sum, res.Divide["h2e2"])
	}
}

func TestPerftUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"perft"},
		{"perft", "--depth", "0"},
		{"perft", "--depth", "2", "--game", "shogi"},
	} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if code, _, errOut := runCLI(t, "perft", "--depth", "2", "--fen", "9/9/9/9/9/9/9/9/9/9 w"); code != exitFailure || !strings.Contains(errOut, "general") {
		t.Errorf("bad FEN: exit %d (%s), want %d naming the missing general", code, errOut, exitFailure)
	}
}

func TestPerftChess(t *testing.T) {
	code, out, errOut := runCLI(t, "perft", "--game", "chess", "--fen",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "--depth", "2", "--divide", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res perftResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Nodes != 2039 || len(res.Divide) != 48 || res.Divide["e1g1"] == 0 {
		t.Fatalf("kiwipete depth 2: %d nodes, %d moves (e1g1 %d); want 2039, 48", res.Nodes, len(res.Divide), res.Divide["e1g1"])
	}
}
