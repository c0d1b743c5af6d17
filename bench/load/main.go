// Command load asks a running xqdb serve for the trees of many positions
// from several clients at once, as bench/serve.sh runs it, and prints the
// requests per second and the latency percentiles (hey and wrk do the same
// for one URL; this one walks a list of positions).
//
//	load --url http://127.0.0.1:8080 --positions positions.tsv --clients 8 --duration 15s
//
// positions.tsv holds a position a line: "xiangqi" or "chess", a tab, a
// FEN (what bench/sample writes). Each client takes the positions in turn
// from its own offset; with --once every position is asked once in all.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "the server")
	positions := flag.String("positions", "", "positions file (game TAB fen a line)")
	clients := flag.Int("clients", 8, "clients asking at once")
	duration := flag.Duration("duration", 10*time.Second, "how long to ask")
	once := flag.Bool("once", false, "ask every position once, then stop")
	limit := flag.Int("limit", 12, "moves per tree")
	flag.Parse()
	urls, err := readURLs(*base, *positions, *limit)
	if err != nil || len(urls) == 0 {
		fmt.Fprintln(os.Stderr, "load:", err, "(no positions?)")
		os.Exit(2)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: *clients, MaxConnsPerHost: *clients}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var (
		next     atomic.Int64
		failures atomic.Int64
		mu       sync.Mutex
		lat      []time.Duration
		wg       sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(*duration)
	for c := 0; c < *clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for {
				i := next.Add(1) - 1
				if *once && i >= int64(len(urls)) || !*once && time.Now().After(deadline) {
					break
				}
				t0 := time.Now()
				resp, err := client.Get(urls[i%int64(len(urls))])
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						err = fmt.Errorf("status %d", resp.StatusCode)
					}
				}
				if err != nil {
					failures.Add(1)
					continue
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(lat)
	pick := func(p int) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[min(len(lat)-1, (p*len(lat)+99)/100-1)].Microseconds()) / 1000
	}
	fmt.Printf("%d requests by %d clients in %.1f s: %.0f requests/s; latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; %d failed\n",
		len(lat), *clients, elapsed.Seconds(), float64(len(lat))/elapsed.Seconds(), pick(50), pick(90), pick(99), pick(100), failures.Load())
	if failures.Load() > 0 {
		os.Exit(1)
	}
}

func readURLs(base, path string, limit int) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		game, fen, ok := strings.Cut(strings.TrimSpace(sc.Text()), "\t")
		if !ok {
			continue
		}
		v := url.Values{"game": {game}, "fen": {fen}, "limit": {fmt.Sprint(limit)}}
		out = append(out, strings.TrimRight(base, "/")+"/api/tree?"+v.Encode())
	}
	return out, sc.Err()
}
