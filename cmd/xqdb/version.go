package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

var versionCommand = &cli.Command{
	Name:  "version",
	Usage: "print xqdb's version (the module version, or the VCS revision it was built from)",
	Flags: []cli.Flag{jsonFlag},
	Action: func(c *cli.Context) error {
		out := struct {
			Version string `json:"version"`
			Go      string `json:"go"`
		}{version(), runtime.Version()}
		if c.Bool("json") {
			return writeJSON(c.App.Writer, out)
		}
		_, err := fmt.Fprintf(c.App.Writer, "xqdb %s (%s)\n", out.Version, out.Go)
		return err
	},
}

// version is the module's version when xqdb was installed with go install
// at a version, else the revision of the tree it was built from (and
// "+dirty" when that tree had changes), else "devel".
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}
