package clickhouse

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/xqdb/xqdb/index"
)

// The writer's lock. Two imports into one database would both give ids
// from the same next_gid, and each one's cleaning of uncommitted rows
// (cleanUncommitted) would delete the other's batch in flight: writers
// must take turns, as Badger's folder lock makes them. ClickHouse has no
// transactions, but creating a table is atomic: of two CREATE TABLE of one
// name (no IF NOT EXISTS), one fails. So a writer holds the database while
// the table import_lock exists (on the first shard, beside manifest), and
// writes into it its pid and host, which a refused writer reports. A lock
// whose writer is gone — same host, no such process, as after kill -9 —
// is taken over; one left by a machine that died must be dropped by hand
// (DROP TABLE db.import_lock), as the error says. Readers take no lock:
// they never look past the last commit.

// lockTable names the lock.
func (d *DB) lockTable() string { return d.name + ".import_lock" }

// hostname is this machine's name, as locks record it.
func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "?"
	}
	return h
}

// lock takes the writer's lock, or returns an *index.BusyError.
func (d *DB) lock() error {
	n := d.nodes[0]
	for attempt := 0; ; attempt++ {
		err := n.exec("CREATE TABLE " + d.lockTable() + " (pid UInt32, host String) ENGINE = TinyLog")
		if err == nil {
			if err := n.exec(fmt.Sprintf("INSERT INTO %s (pid, host) VALUES (%d, %s)", d.lockTable(), os.Getpid(), quote(hostname()))); err != nil {
				_ = d.unlock()
				return err
			}
			return nil
		}
		if !strings.Contains(err.Error(), "already exists") && !strings.Contains(err.Error(), "right now") {
			return err
		}
		busy := &index.BusyError{Store: d.url}
		if rr, rerr := n.rows("SELECT pid, host FROM " + d.lockTable() + " LIMIT 1"); rerr == nil && rr.more() {
			busy.PID, busy.Host = int(rr.u32()), rr.str()
		}
		// The holder's pid is written just after the table is created: a
		// lock without one is being taken now.
		if attempt > 0 || busy.PID == 0 || busy.Host != hostname() || alive(busy.PID) {
			return busy
		}
		// A writer of this machine that is gone (kill -9, a crash): its
		// lock goes, and the next import cleans what it left.
		if err := d.unlock(); err != nil {
			return err
		}
	}
}

// unlock drops the writer's lock.
func (d *DB) unlock() error {
	return d.nodes[0].exec("DROP TABLE IF EXISTS " + d.lockTable())
}

// alive reports whether process pid exists on this machine.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
