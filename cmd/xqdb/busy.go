package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/xqdb/xqdb/index"
)

// exitBusy is the exit code of a command that found its database being
// written by another process: a temporary failure, worth trying again
// (EX_TEMPFAIL of sysexits.h).
const exitBusy = 75

// busyError is a database another process holds: Badger lets one writer,
// or any number of readers, hold its folder's lock.
type busyError struct {
	db   string // the database folder or URL, as the command named it
	pid  int    // the writer's process id; 0 when unknown
	by   string // what it is doing ("an import"), "" when unknown
	host string // the writer's machine when not this one (ClickHouse)
}

func (e *busyError) Error() string {
	if e.pid == 0 {
		return fmt.Sprintf("the database %s is in use by another xqdb (an import, or a read while this command writes); try again when it finishes", e.db)
	}
	by := e.by
	if by == "" {
		by = "another process"
	}
	if e.host != "" {
		return fmt.Sprintf("the database %s is being written by %s (pid %d on %s); try again when it finishes", e.db, by, e.pid, e.host)
	}
	return fmt.Sprintf("the database %s is being written by %s (pid %d); try again when it finishes", e.db, by, e.pid)
}

// badgerLocked is Badger's error for a folder another process has locked:
// `Cannot acquire directory lock on "DIR".  Another process is using this
// Badger database.`
var badgerLocked = regexp.MustCompile(`Cannot acquire directory lock on "([^"]*)"`)

// databaseBusy tells whether err is a database held by another process
// and says by whom, reading the pid Badger's writer leaves in its LOCK
// file and, on Linux, that process's command line. One small function, so
// that every command (and a server routing reads) says it the same way.
func databaseBusy(err error) (*busyError, bool) {
	var be *busyError
	if errors.As(err, &be) {
		return be, true
	}
	// A store that says who holds it (ClickHouse's writer's lock).
	var ib *index.BusyError
	if errors.As(err, &ib) {
		be = &busyError{db: ib.Store, pid: ib.PID}
		if h, _ := os.Hostname(); ib.PID != 0 && ib.Host == h {
			be.by = commandOf(ib.PID)
		} else {
			be.host = ib.Host
		}
		return be, true
	}
	if err == nil {
		return nil, false
	}
	m := badgerLocked.FindStringSubmatch(err.Error())
	if m == nil {
		return nil, false
	}
	bdir := m[1]
	be = &busyError{db: filepath.Dir(bdir)}
	// A writer writes its pid into LOCK; readers (shared locks) do not, so
	// a pid whose process is gone is a reader's lock over a stale file.
	b, rerr := os.ReadFile(filepath.Join(bdir, "LOCK"))
	if rerr != nil {
		return be, true
	}
	pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
	if perr != nil || pid <= 0 || pid == os.Getpid() || !alive(pid) {
		return be, true
	}
	be.pid, be.by = pid, commandOf(pid)
	return be, true
}

// alive reports whether process pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// activities names what the xqdb commands that write a database are doing.
var activities = map[string]string{
	"import": "an import", "reindex": "a reindex", "compact": "a compaction", "delete": "a deletion", "selfplay": "a self-play import",
	"store": "a store copy",
}

// commandOf says what process pid is doing, from its command line
// (/proc/PID/cmdline: "xqdb import …" is an import); "" when unknown.
func commandOf(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return ""
	}
	args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if act, ok := activities[a]; ok {
			return act
		}
		if findCommand(commands(), a) != nil {
			return "xqdb " + a
		}
	}
	return ""
}
