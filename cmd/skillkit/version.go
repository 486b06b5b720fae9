package main

import (
	"context"
	"flag"
	"fmt"
	"runtime/debug"
	"strings"
)

type versionOptions struct {
	json bool
}

func versionCommand() *command {
	return &command{
		name:    "version",
		args:    "[--json]",
		summary: "print skillkit's version, the commit it was built from and the Go version",
		help: `
The version is the module's (v1.2.3 when installed with go install
...@v1.2.3; "(devel)" for a build from a checkout), followed by the
version control revision, its time and whether the checkout had changes,
when the build recorded them. "skillkit --version" is the same. --json
prints {"version","revision","time","modified","go_version"}.`,
		flags: func(fs *flag.FlagSet) any {
			o := &versionOptions{}
			fs.BoolVar(&o.json, "json", false, "print JSON")
			return o
		},
		run: runVersion,
	}
}

// versionInfo is what the build recorded about itself.
type versionInfo struct {
	Version   string `json:"version"`
	Revision  string `json:"revision,omitempty"`
	Time      string `json:"time,omitempty"`
	Modified  bool   `json:"modified"`
	GoVersion string `json:"go_version"`
}

// buildVersion reads info, the build information of the binary (nil when
// it has none): the main module's version, "(devel)" when unknown, and the
// vcs.* settings.
func buildVersion(info *debug.BuildInfo) versionInfo {
	v := versionInfo{Version: "(devel)", GoVersion: "unknown"}
	if info == nil {
		return v
	}
	if info.Main.Version != "" {
		v.Version = info.Main.Version
	}
	if info.GoVersion != "" {
		v.GoVersion = info.GoVersion
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// String is the version on one line: "skillkit v1.2.3 (commit
// 0123456789ab, 2026-01-02T03:04:05Z, modified) go1.26.0".
func (v versionInfo) String() string {
	var about []string
	if v.Revision != "" {
		about = append(about, "commit "+short(v.Revision))
	}
	if v.Time != "" {
		about = append(about, v.Time)
	}
	if v.Modified {
		about = append(about, "modified")
	}
	s := "skillkit " + v.Version
	if len(about) > 0 {
		s += " (" + strings.Join(about, ", ") + ")"
	}
	return s + " " + v.GoVersion
}

func runVersion(_ context.Context, c *cli, opts any, args []string) int {
	o := opts.(*versionOptions)
	if len(args) != 0 {
		fmt.Fprintln(c.stderr, "skillkit version: takes no arguments")
		return exitUsage
	}
	info, _ := debug.ReadBuildInfo()
	v := buildVersion(info)
	if o.json {
		if writeJSON(c, v) != nil {
			return exitFailure
		}
		return exitOK
	}
	fmt.Fprintln(c.stdout, v)
	return exitOK
}
