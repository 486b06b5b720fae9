//go:build !lean

package main

import (
	"context"
	"path/filepath"

	"github.com/skillkit-go/skillkit/skill"
)

// runList opens the skills through a Kit, as a host does; with --long it
// reads what inspect says of each skill of the skills folder.
func runList(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*listOptions)
	kit, err := openKit(ctx, c, args, &o.loaderFlags)
	if err != nil {
		return c.fail("list", err)
	}
	defer kit.Close()
	l, err := kit.Loader(ctx)
	if err != nil {
		return c.fail("list", err)
	}
	recs, err := kit.Registry().List(ctx)
	if err != nil {
		return c.fail("list", err)
	}
	in := listed{loader: l, records: recs, installed: func(s *skill.Skill) (*installedView, error) {
		if s.DiskDir == "" || filepath.Dir(s.DiskDir) != kit.Dir() {
			return nil, nil
		}
		return installedOf(ctx, kit, s)
	}}
	return showList(ctx, c, o, in)
}
