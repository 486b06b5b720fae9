//go:build !lean

package main

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/internal/filelock"
	"github.com/skillkit-go/skillkit/registry"
)

// originsFile, in the skills folder's .skillhub, keeps what a person
// allowed on the command line when installing from an origin
// (--allow-host, --allow-file-urls), so that update and outdated fetch
// from it again without the flags. Only install writes it, after a person
// typed the flags: a record, which may come from a database other
// replicas write, never widens what this folder fetches from.
const originsFile = "origins.json"

// originOptions are the flags a person gave when installing from one
// origin.
type originOptions struct {
	AllowHosts    []string `json:"allow_hosts,omitempty"`
	AllowFileURLs bool     `json:"allow_file_urls,omitempty"`
}

// allowedOrigins is the content of originsFile: by origin URL (a record's
// URL).
type allowedOrigins struct {
	Origins map[string]originOptions `json:"origins"`
}

// readOrigins reads the origins allowed in the skills folder dir; none when
// the file is missing.
func readOrigins(dir string) (allowedOrigins, error) {
	out := allowedOrigins{Origins: map[string]originOptions{}}
	data, err := os.ReadFile(filepath.Join(dir, registry.HubDir, originsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return out, err
	}
	if out.Origins == nil {
		out.Origins = map[string]originOptions{}
	}
	return out, nil
}

// apply adds to opts what the allowed origins allow: their hosts, and
// file:// URLs when one was allowed them.
func (a allowedOrigins) apply(opts *installer.Options) {
	for _, o := range a.Origins {
		for _, h := range o.AllowHosts {
			if !slices.Contains(opts.AllowedHosts, h) {
				opts.AllowedHosts = append(opts.AllowedHosts, h)
			}
		}
		opts.AllowFileURLs = opts.AllowFileURLs || o.AllowFileURLs
	}
}

// rememberOrigin records, for the origin of rec installed into the skills
// folder dir, the flags f gave that its fetch needed: --allow-file-urls for
// a file:// URL, and the --allow-host hosts (all of them for a site, whose
// index may point to other hosts; else the URL's host when one of them).
func rememberOrigin(ctx context.Context, dir string, f *installerFlags, rec registry.Record) error {
	var o originOptions
	u, err := url.Parse(rec.URL)
	switch {
	case rec.URL == "" || err != nil:
		return nil
	case u.Scheme == "file":
		o.AllowFileURLs = f.allowFile
	case rec.Source == registry.SourceWellKnown:
		o.AllowHosts = f.allowHosts
	case slices.Contains(f.allowHosts, strings.ToLower(u.Host)):
		o.AllowHosts = []string{strings.ToLower(u.Host)}
	}
	if !o.AllowFileURLs && len(o.AllowHosts) == 0 {
		return nil
	}
	hub := filepath.Join(dir, registry.HubDir)
	lock, err := filelock.Lock(ctx, filepath.Join(hub, originsFile+".lock"))
	if err != nil {
		return err
	}
	defer lock.Unlock()
	a, err := readOrigins(dir)
	if err != nil {
		return err
	}
	a.Origins[rec.URL] = o
	data, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(hub)
	if err != nil {
		return err
	}
	defer root.Close()
	return atomicfile.WriteFile(root, originsFile, append(data, '\n'), 0o644)
}
