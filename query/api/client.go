package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ServeFile is the name of the file a running server keeps in its
// database folder: the CLI reads it to send its commands to the server,
// which owns the store (Badger locks the folder).
const ServeFile = "serve.json"

// ServeInfo is the content of ServeFile.
type ServeInfo struct {
	PID  int    `json:"pid"`
	Addr string `json:"addr"` // host:port the server listens on
	URL  string `json:"url"`
}

// WriteServeFile announces a server of the database in dir.
func WriteServeFile(dir, addr string) error {
	b, err := json.Marshal(ServeInfo{PID: os.Getpid(), Addr: addr, URL: "http://" + addr + "/"})
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, ServeFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, ServeFile))
}

// RemoveServeFile withdraws the announcement (at shutdown).
func RemoveServeFile(dir string) error {
	err := os.Remove(filepath.Join(dir, ServeFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// Client calls a running server.
type Client struct {
	Info ServeInfo
	http *http.Client
}

// FindServer returns a client of the server of the database in dir, or
// nil when none runs: no ServeFile, or one left by a server that died
// (its process is gone, or nothing answers at its address: kill -9, a
// power cut).
func FindServer(dir string) *Client {
	b, err := os.ReadFile(filepath.Join(dir, ServeFile))
	if err != nil {
		return nil
	}
	var info ServeInfo
	if json.Unmarshal(b, &info) != nil || info.PID <= 0 || info.Addr == "" {
		return nil
	}
	if info.PID != os.Getpid() && syscall.Kill(info.PID, 0) == syscall.ESRCH {
		return nil // stale: the process is gone
	}
	conn, err := net.DialTimeout("tcp", info.Addr, 2*time.Second)
	if err != nil {
		return nil // stale: the pid was reused, or the server is stopping
	}
	conn.Close()
	return &Client{Info: info, http: &http.Client{}}
}

// RemoteError is an error answer of the server.
type RemoteError struct {
	Status int
	Body   Error
}

func (e *RemoteError) Error() string {
	if e.Body.Param != "" && !bytes.Contains([]byte(e.Body.Error), []byte(e.Body.Param)) {
		return e.Body.Param + ": " + e.Body.Error
	}
	return e.Body.Error
}

// BadRequest reports whether the server refused the request's parameters.
func (e *RemoteError) BadRequest() bool { return e.Status == http.StatusBadRequest }

// Get calls GET path?params and decodes the JSON answer into v.
func (c *Client) Get(path string, params url.Values, v any) error {
	u := "http://" + c.Info.Addr + path
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	resp, err := c.http.Get(u)
	if err != nil {
		return fmt.Errorf("xqdb serve at %s: %w", c.Info.Addr, err)
	}
	return decode(resp, v)
}

// Post calls POST path with body as JSON and decodes the answer into v.
func (c *Client) Post(path string, body, v any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	resp, err := c.http.Post("http://"+c.Info.Addr+path, "application/json", bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("xqdb serve at %s: %w", c.Info.Addr, err)
	}
	return decode(resp, v)
}

func decode(resp *http.Response, v any) error {
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		re := &RemoteError{Status: resp.StatusCode}
		if json.Unmarshal(b, &re.Body) != nil || re.Body.Error == "" {
			re.Body.Error = fmt.Sprintf("server answered %s", resp.Status)
		}
		return re
	}
	return json.Unmarshal(b, v)
}
