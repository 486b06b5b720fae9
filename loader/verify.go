package loader

import "context"

// unchanged reports whether a rescan may keep the current snapshot: every
// folder discovery listed, every skill file, skill.config.yaml and
// sub-folder a load read still has its stamp, and every probe of discovery
// (links, conventional skill folders) has the same answer. It costs one
// stat per folder and file and nothing per skill besides; when it cannot
// tell, or something changed, the scan runs and reuses what it can. With
// notifications, what they vouch for is not stat'ed; when they cover
// everything, only the folders notified and the skills depending on them
// are.
func (sc *scan) unchanged(ctx context.Context) bool {
	prev := sc.prev
	if !prev.exact || len(prev.dirs) != len(sc.fsys) {
		return false
	}
	const every = 256 // stats between looks at ctx
	n := 0
	same := func(fsys scanFS, p string, st fileStamp) bool {
		if n++; n%every == 0 && ctx.Err() != nil {
			return false
		}
		return st.proves() && fsys.stamp(p).same(st)
	}
	skillSame := func(r *loaded) bool {
		if !r.stamp.proves() {
			return false
		}
		for _, p := range r.stamp.paths {
			if !same(sc.fsys[r.source], p.path, p.fileStamp) {
				return false
			}
		}
		return true
	}
	if nt := sc.notified; nt != nil && nt.only {
		// Everything is watched (or polled in turn): only the folders
		// notified can differ, and in them only what they hold: the
		// skills' other folders have watches of their own.
		deps := prev.dependents()
		for _, ref := range nt.dirs {
			if ref.source >= len(prev.dirs) {
				continue
			}
			if m, ok := prev.dirs[ref.source][ref.dir]; ok && !same(sc.fsys[ref.source], ref.dir, m.stat) {
				return false
			}
			for _, r := range deps[ref] {
				if !r.stamp.proves() {
					return false
				}
				for _, p := range r.stamp.paths {
					if p.folder() == ref.dir && !same(sc.fsys[r.source], p.path, p.fileStamp) {
						return false
					}
				}
			}
		}
	} else {
		for i, dirs := range prev.dirs {
			trusts := sc.trusts(i)
			for dir, m := range dirs {
				if !trusts.vouches(dir) && !same(sc.fsys[i], dir, m.stat) {
					return false
				}
			}
		}
		for _, r := range prev.cache {
			if !r.stamp.vouched(sc.trusts(r.source), r.found.Dir) && !skillSame(r) {
				return false
			}
		}
	}
	for i, probes := range prev.probes {
		if len(probes) == 0 {
			continue
		}
		res := newResolver(sc.l.sources[i], sc.fsys[i])
		if _, ok := res.root(); !ok {
			return false
		}
		for _, p := range probes {
			if answer(sc.fsys[i], res, p.kind, p.path) != p.probeResult {
				return false
			}
		}
	}
	return ctx.Err() == nil
}
