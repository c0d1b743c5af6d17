package index

import "fmt"

// BusyError is returned when another process is writing the database: a
// store lets one writer at a time (Badger locks its folder; a ClickHouse
// database has its writer's lock table). It is a temporary failure: try
// again when that writer finishes.
type BusyError struct {
	Store string // the database: its folder or URL
	PID   int    // the writer's process id; 0 when unknown
	Host  string // the writer's host name; "" when unknown
}

func (e *BusyError) Error() string {
	if e.PID == 0 {
		return fmt.Sprintf("index: %s is being written by another process", e.Store)
	}
	return fmt.Sprintf("index: %s is being written by process %d on %s", e.Store, e.PID, e.Host)
}
