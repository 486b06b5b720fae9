package skillkit

import (
	"context"

	"github.com/skillkit-go/skillkit/installer"
)

// History returns the versions of skill name the skills folder keeps,
// oldest first, the one installed now marked Current; see
// [installer.Installer.History]. Every change of a skill's files — an
// install over it, an update, a sync, an agent's write, a person's
// approval of edited files, an uninstall — keeps a version, within the
// retention of Options.History.
func (k *Kit) History(ctx context.Context, name string) ([]installer.Version, error) {
	return k.installer.History(ctx, name)
}

// Rollback restores a version of skill name from its history (its
// number, its fingerprint, or "" for the version before the current one)
// through the install's flow — the checks, the scan and the trust policy,
// the approval question (opts.Confirmed) — and rescans; see
// [installer.Installer.Rollback]. As after an update, the dependencies
// built for the replaced version are rebuilt when the restored version's
// requirements differ, and Result.Notes say so.
func (k *Kit) Rollback(ctx context.Context, name, version string, opts *installer.RollbackOptions) (*installer.Result, error) {
	before, _ := k.deps.State(ctx, name)
	res, err := k.installer.Rollback(ctx, name, version, opts)
	if err == nil {
		res.Notes = k.depsNotes(ctx, name, before, false)
	}
	return res, k.rescanAfter(ctx, err)
}
