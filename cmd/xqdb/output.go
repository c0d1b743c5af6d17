package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Every file a command writes goes through this file (issue 13: an
// archivist's only copy must survive any mistake):
//
//   - checkOutputs refuses, before anything is opened, an output that is
//     also an input: creating it would empty the input before it is read.
//   - createOutput writes to a temporary file beside the final name, and
//     commit renames it over that name at the end: an interrupted or failed
//     run leaves the old file as it was, and no partial file ever carries
//     the final name.

// checkOutputs refuses (a usage error, naming the file) an output that is
// one of the inputs or lies inside an input folder, and an output named
// twice. inputs are the paths as given (files or folders); files are what
// the folders were expanded to, and may be nil. Paths are compared as files
// (os.SameFile), so another spelling, a symlink or a hard link is seen
// through. An output inside an input folder is refused even when it does
// not exist yet: the next run over that folder would read it.
func checkOutputs(inputs, files []string, outputs ...string) error {
	type out struct {
		name string
		fi   os.FileInfo   // nil when it does not exist yet
		dirs []os.FileInfo // the folders holding it, innermost first
	}
	var outs []out
	exists := false
	for _, name := range outputs {
		if name == "" {
			continue
		}
		o := out{name: name}
		o.fi, _ = os.Stat(name)
		exists = exists || o.fi != nil
		// The folders holding the file itself, a symlink's target.
		dir := filepath.Dir(name)
		if real, err := filepath.EvalSymlinks(name); err == nil {
			dir = filepath.Dir(real)
		} else if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		for {
			if fi, err := os.Stat(dir); err == nil {
				o.dirs = append(o.dirs, fi)
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
		for _, p := range outs {
			if p.fi != nil && o.fi != nil && os.SameFile(p.fi, o.fi) || filepath.Clean(p.name) == filepath.Clean(o.name) {
				return usagef("outputs %s and %s are the same file: give each its own (nothing was written)", p.name, o.name)
			}
		}
		outs = append(outs, o)
	}
	if len(outs) == 0 {
		return nil
	}
	same := func(o out, in string) error {
		if o.name == in {
			return usagef("output %s is also an input: refusing to overwrite it (nothing was written)", o.name)
		}
		return usagef("output %s is the input %s: refusing to overwrite it (nothing was written)", o.name, in)
	}
	for _, in := range inputs {
		fi, err := os.Stat(in)
		if err != nil {
			continue // reading it says what is wrong
		}
		for _, o := range outs {
			if o.fi != nil && os.SameFile(fi, o.fi) {
				return same(o, in)
			}
			if fi.IsDir() {
				for _, d := range o.dirs {
					if os.SameFile(fi, d) {
						return usagef("output %s is inside the input folder %s: write it elsewhere (nothing was written)", o.name, in)
					}
				}
			}
		}
	}
	if !exists {
		return nil // no input can be a file that does not exist
	}
	for _, in := range files {
		fi, err := os.Stat(in)
		if err != nil {
			continue
		}
		for _, o := range outs {
			if o.fi != nil && os.SameFile(fi, o.fi) {
				return same(o, in)
			}
		}
	}
	return nil
}

// output is a file a command writes: a temporary file until commit.
type output struct {
	*os.File
	name  string // as given
	final string // what commit renames to: name, or the file its symlink points at
	temp  bool   // false when writing in place (a device, a pipe)
	done  bool
}

// createOutput opens an output file (nil when name is empty). Commit it at
// the end of a successful run; abort it (deferred) otherwise.
func createOutput(name string) (*output, error) {
	if name == "" {
		return nil, nil
	}
	final := name
	perm := os.FileMode(0o666) // less the umask, as os.Create
	if real, err := filepath.EvalSymlinks(name); err == nil {
		final = real
	}
	fi, err := os.Stat(final)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		// /dev/null, /dev/stdout, a named pipe: not a file to replace.
		f, err := os.OpenFile(final, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &output{File: f, name: name, final: final}, nil
	case err == nil:
		perm = fi.Mode().Perm()
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	dir, base := filepath.Split(final)
	for range 100 {
		var r [6]byte
		_, _ = rand.Read(r[:])
		tmp := filepath.Join(dir, "."+base+".xqdb-"+hex.EncodeToString(r[:]))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("create %s: %w", name, err)
		}
		if fi != nil {
			// The umask applied at creation; an existing file keeps its mode.
			if err := f.Chmod(perm); err != nil {
				f.Close()
				os.Remove(tmp)
				return nil, err
			}
		}
		return &output{File: f, name: name, final: final, temp: true}, nil
	}
	return nil, fmt.Errorf("create %s: no free temporary name in %s", name, dir)
}

// commit makes the written file the output: synced, then renamed over
// the final name in one step.
func (o *output) commit() error {
	if o == nil || o.done {
		return nil
	}
	o.done = true
	if !o.temp {
		return o.File.Close()
	}
	tmp := o.File.Name()
	err := o.File.Sync()
	if cerr := o.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, o.final)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", o.name, err)
	}
	return nil
}

// abort drops what was written (nothing once committed): the old file, if
// any, stays as it was.
func (o *output) abort() {
	if o == nil || o.done {
		return
	}
	o.done = true
	o.File.Close()
	if o.temp {
		os.Remove(o.File.Name())
	}
}

// commitAll commits outputs when err is nil (and returns the first
// failure); otherwise it returns err, and the deferred aborts drop them.
func commitAll(err error, outs ...*output) error {
	if err != nil {
		return err
	}
	for _, o := range outs {
		if err = o.commit(); err != nil {
			return err
		}
	}
	return nil
}
