package loader

import (
	"context"
	"time"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// LoadAll finds the skill folders of one source as [Discover] does and loads
// every one of them on its own, as a tool that checks skills rather than
// serving them needs (skillkit validate): no collisions, no skill limit,
// nothing kept for a rescan. Each folder is read once; the loads answer
// from the listings discovery read, which with opts.NestedSkills covers
// every folder of every skill. opts.Strict and opts.MaxFileBytes apply to
// the loads.
//
// It returns what discovery found; the skills, one per found folder in the
// same order, nil where a folder held no loadable skill; and the
// diagnostics: discovery's, then each folder's in order. Skills and their
// diagnostics carry paths under src.Dir as given (not made absolute), as
// [skill.Load] with LoadOptions.DiskRoot would; discovery's are absolute.
func LoadAll(ctx context.Context, src Source, opts *Options) ([]Found, []*skill.Skill, diagnostics.List) {
	srcs, err := prepareSources([]Source{src})
	if err != nil {
		return nil, nil, diagnostics.List{diagnostics.New(diagnostics.ReadError, "", src.Dir, "%v", err)}
	}
	prepared := srcs[0]
	fsys := openUnstampedFS(prepared)
	defer fsys.close()
	settled := time.Now().UnixNano()
	w := newWalker(prepared, fsys, opts, nil, settled)
	// Listed when reached, on this goroutine: loading follows discovery,
	// so listing ahead would only add hand-offs.
	w.slots = nil
	var found []Found
	w.run(ctx, func(f Found) { found = append(found, f) })
	diags := w.diags
	lopts := &skill.LoadOptions{Strict: opts != nil && opts.Strict, DiskRoot: src.Dir, KeepFS: prepared.FS}
	if opts != nil {
		lopts.MaxFileBytes = opts.MaxFileBytes
	}
	skills := make([]*skill.Skill, len(found))
	for i := range found {
		if ctx.Err() != nil {
			break
		}
		memo := newMemoFS(fsys, w.next, settled, &found[i])
		s, d := skill.Load(memo, found[i].Dir, lopts)
		memo.done()
		skills[i] = s
		diags = append(diags, d...)
	}
	return found, skills, diags
}
