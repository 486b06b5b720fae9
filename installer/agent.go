package installer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// Limits of what an agent may write with Create and Edit.
const (
	// MaxAgentContentChars bounds SKILL.md, in characters.
	MaxAgentContentChars = 100_000
	// MaxAgentFileBytes bounds each attached file.
	MaxAgentFileBytes = 1 << 20
	// MaxAgentFiles bounds the files written (or removed) by one call.
	MaxAgentFiles = 100
	// MaxAgentTotalBytes bounds the files written by one call together.
	MaxAgentTotalBytes = 10 << 20
	// maxAgentPathBytes bounds the path of an attached file.
	maxAgentPathBytes = 512
)

// isAgentFolder reports whether an agent may write files into the skill's
// top folder dir (seed 002 §3.2 names references, templates and scripts;
// assets is the Agent Skills specification's).
func isAgentFolder(dir string) bool {
	switch dir {
	case "references", "templates", "scripts", "assets":
		return true
	}
	return false
}

// Create writes a new skill that an agent authored (skill_manage create)
// into the skills folder: SKILL.md holding content, and files (slash paths
// relative to the skill folder, to their text). The rules:
//
//   - name follows the naming rules (skill.ValidateName, NFKC form), and no
//     skill folder or record of that name exists ([ErrExists]);
//   - content is at most MaxAgentContentChars characters of UTF-8 and loads
//     as a skill (lenient): its frontmatter has a description and names
//     the skill, with exactly name;
//   - each file lies under references/, templates/, scripts/ or assets/,
//     is written in clean form (no "..", no absolute path, no backslash, no
//     hidden or infrastructure names, no characters Windows cannot store),
//     and holds at most MaxAgentFileBytes; at most MaxAgentFiles files and
//     MaxAgentTotalBytes in all. So an agent cannot write
//     skill.config.yaml, requirements.txt or package.json: its skills have
//     no entrypoint, dependencies or setup script, and nothing it writes
//     is ever run by skillkit. Files are written without the executable
//     bit.
//
// Refusals wrap [ErrInvalidContent]. The skill is written through the same
// staging, checks, fingerprint and atomic swap as an install and recorded
// with source agent; metadata.env in its frontmatter becomes its env schema
// (Skill.Env), which the secrets vault then lists and checks. An env entry
// may have a name, a description and required, but no default: the agent
// would choose a value that is injected into processes.
func (in *Installer) Create(ctx context.Context, name, content string, files map[string]string) (*Result, error) {
	rep := in.reporter(OpCreate, name, "agent")
	res, err := in.agentWrite(ctx, name, content, files, nil, true, rep)
	rep.done(err)
	return res, err
}

// Edit changes a skill that an agent wrote (skill_manage edit): content,
// when not empty, replaces SKILL.md; files are written (added or
// replaced); remove names files to delete. Everything else stays. The
// rules of [Installer.Create] apply to the result, and the frontmatter must
// still name the skill name. A skill the agent did not write (installed
// from GitHub, git, a ZIP or a folder, or placed by hand) is refused with
// [ErrNotAllowed] unless Options.AgentMayChangeInstalled; such an edit
// keeps the skill's record, fingerprint included, so the change shows as a
// local edit (FINGERPRINT_CHANGED; Update refuses it without Force), and
// may still not touch the code skillkit runs for the skill nor its install
// specs (see the option; [ErrNotAllowed]). A pinned skill is refused with
// [ErrPinned]. The skill's .venv and
// node_modules are not carried over: an edit may change what it needs.
func (in *Installer) Edit(ctx context.Context, name, content string, files map[string]string, remove []string) (*Result, error) {
	rep := in.reporter(OpEdit, name, "agent")
	res, err := in.agentWrite(ctx, name, content, files, remove, false, rep)
	rep.done(err)
	return res, err
}

// Delete removes a skill that an agent wrote (skill_manage delete), as
// Uninstall does, atomically. Skills the agent did not write are refused
// as in Edit; pinned ones with ErrPinned. Saved secrets are never purged by
// an agent: they stay until an Uninstall with Purge.
func (in *Installer) Delete(ctx context.Context, name string) error {
	rep := in.reporter(OpDelete, name, "agent")
	err := in.agentDelete(ctx, name, rep)
	rep.done(err)
	return err
}

func (in *Installer) agentDelete(ctx context.Context, name string, rep *reporter) error {
	if err := checkAgentName(name); err != nil {
		return err
	}
	unlock, err := in.holdName(ctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	return in.remove(ctx, name, false, rep, func(prev *registry.Record, present bool) error {
		return in.agentMayChange(name, prev, present)
	})
}

// agentMayChange applies the rules of Edit and Delete to an existing skill.
func (in *Installer) agentMayChange(name string, prev *registry.Record, present bool) error {
	if !present {
		return fmt.Errorf("%w: %s has no skill folder", ErrNotInstalled, name)
	}
	agent := prev != nil && prev.Source == registry.SourceAgent
	if !agent && !in.opt.agentMay {
		from := "placed by hand"
		if prev != nil {
			from = "installed from " + string(prev.Source)
		}
		return fmt.Errorf("%w: %s was %s, not written by an agent; an agent may change only the skills it wrote", ErrNotAllowed, name, from)
	}
	if prev != nil && prev.Pinned {
		return fmt.Errorf("%w: %s; unpin it to let an agent change it", ErrPinned, name)
	}
	return nil
}

func checkAgentName(name string) error {
	if err := skill.ValidateName(name); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidContent, err)
	}
	if name != skill.NormalizeName(name) {
		return fmt.Errorf("%w: %q is not in NFKC form", ErrInvalidContent, name)
	}
	return nil
}

// checkAgentRequest checks everything of a Create or Edit that needs no
// disk: the name, the content, the paths and sizes.
func checkAgentRequest(name, content string, files map[string]string, remove []string, create bool) error {
	if err := checkAgentName(name); err != nil {
		return err
	}
	switch {
	case create && strings.TrimSpace(content) == "":
		return fmt.Errorf("%w: create needs the content of SKILL.md", ErrInvalidContent)
	case !create && content == "" && len(files) == 0 && len(remove) == 0:
		return fmt.Errorf("%w: edit needs content, files or files to remove", ErrInvalidContent)
	case !utf8.ValidString(content):
		return fmt.Errorf("%w: the content is not valid UTF-8", ErrInvalidContent)
	case len(content) > 4*MaxAgentContentChars || utf8.RuneCountInString(content) > MaxAgentContentChars:
		return fmt.Errorf("%w: the content has %d characters; SKILL.md may have at most %d (put long material in references/)", ErrInvalidContent, utf8.RuneCountInString(content), MaxAgentContentChars)
	case len(files)+len(remove) > MaxAgentFiles:
		return fmt.Errorf("%w: %d files; at most %d per call", ErrInvalidContent, len(files)+len(remove), MaxAgentFiles)
	}
	total := 0
	for p, data := range files {
		if err := checkAgentPath(p); err != nil {
			return err
		}
		if len(data) > MaxAgentFileBytes {
			return fmt.Errorf("%w: %s has %d bytes; a file may have at most %d", ErrInvalidContent, p, len(data), MaxAgentFileBytes)
		}
		total += len(data)
	}
	if total > MaxAgentTotalBytes {
		return fmt.Errorf("%w: the files hold %d bytes; at most %d per call", ErrInvalidContent, total, MaxAgentTotalBytes)
	}
	for _, p := range remove {
		if err := checkAgentPath(p); err != nil {
			return err
		}
		if _, ok := files[p]; ok {
			return fmt.Errorf("%w: %s is both written and removed", ErrInvalidContent, p)
		}
	}
	return nil
}

// checkAgentPath checks the path of a file an agent writes or removes.
func checkAgentPath(p string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w: file %q: %s", ErrInvalidContent, p, why)
	}
	if !utf8.ValidString(p) {
		return bad("not valid UTF-8")
	}
	if len(p) > maxAgentPathBytes {
		return bad(fmt.Sprintf("longer than %d bytes", maxAgentPathBytes))
	}
	for _, r := range p {
		if unicode.IsControl(r) || strings.ContainsRune(`:*?"<>|`, r) {
			return bad(fmt.Sprintf("%q is not allowed in a file name", r))
		}
	}
	clean, err := skill.CleanRelPath(p)
	if err != nil {
		return bad(err.Error())
	}
	if clean != p {
		return bad(fmt.Sprintf("write it as %q: a relative path with \"/\", no \"..\", \".\" or empty parts", clean))
	}
	parts := strings.Split(p, "/")
	if len(parts) < 2 || !isAgentFolder(parts[0]) {
		return bad("files go under references/, templates/, scripts/ or assets/")
	}
	for _, e := range parts[1:] {
		if strings.HasPrefix(e, ".") || skill.IsInfraDir(e) {
			return bad(fmt.Sprintf("%q is a hidden or reserved name", e))
		}
	}
	return nil
}

// agentWrite is Create (create true) and Edit.
func (in *Installer) agentWrite(ctx context.Context, name, content string, files map[string]string, remove []string, create bool, rep *reporter) (*Result, error) {
	if err := checkAgentRequest(name, content, files, remove, create); err != nil {
		return nil, err
	}
	unlock, err := in.holdName(ctx, name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	prev, err := in.getRecord(ctx, name)
	if err != nil {
		return nil, err
	}
	present, err := in.exists(name)
	if err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	rules := replaceRules{modified: true}
	rec := registry.Record{Name: name, Source: registry.SourceAgent}
	if create {
		if present || prev != nil {
			return nil, fmt.Errorf("%w: a skill named %s already exists; edit it, or choose another name", ErrExists, name)
		}
	} else {
		if err := in.agentMayChange(name, prev, present); err != nil {
			return nil, err
		}
		switch {
		case prev == nil: // placed by hand, changed with the host's leave
			rules.otherOrigin = true
			rec = registry.Record{Name: name, Source: registry.SourceLocal}
		case prev.Source != registry.SourceAgent: // keeps its origin; the change shows as an edit
			rec = *prev
		}
	}

	o, err := in.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer o.end()
	tree := o.staging(treeName)
	if err := in.root.Mkdir(tree, dirPerm); err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	rep.step(StepWrite, 10, "writing %s", name)
	var guard *agentGuard
	if !create {
		if check, err := archive.CopyDir(ctx, in.path(name), in.path(tree), in.opt.limits); err != nil {
			return nil, checkError(check, err)
		}
		if rec.Source != registry.SourceAgent {
			old, diags := skill.Load(os.DirFS(in.path(o.staging())), treeName, nil)
			guard = newAgentGuard(old, diags)
			if err := guard.check(name, files, remove); err != nil {
				return nil, err
			}
		}
	}
	if err := in.writeAgentFiles(tree, content, files, remove); err != nil {
		return nil, err
	}
	if err := o.fault("write"); err != nil {
		return nil, err
	}
	check, err := archive.CheckDir(ctx, in.path(tree), in.opt.limits)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidContent, checkError(check, err))
	}
	rep.step(StepCheck, 40, "%d files checked", len(check.Valid))

	s, diags := skill.Load(os.DirFS(in.path(o.staging())), treeName, nil)
	if err := validate(s, diags); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidContent, err)
	}
	if s.Name != name {
		return nil, fmt.Errorf("%w: the frontmatter names the skill %q; it must be %q", ErrInvalidContent, s.Name, name)
	}
	if content != "" {
		if err := checkAgentEnv(s.Frontmatter.Env); err != nil {
			return nil, err
		}
		if err := guard.checkInstall(name, s); err != nil {
			return nil, err
		}
	}
	rep.step(StepValidate, 55, "%s is a valid %s skill", s.Name, s.Class)
	fp, err := registry.Fingerprint(ctx, os.DirFS(in.path(tree)), ".")
	if err != nil {
		return nil, err
	}
	if rec.Source == registry.SourceAgent {
		rec.Version, rec.Fingerprint = s.Frontmatter.Version, fp
	}
	rep.step(StepFingerprint, 65, "%s", fp)
	if err := syncTree(in.path(tree)); err != nil {
		return nil, fmt.Errorf("installer: syncing the staged skill: %w", err)
	}
	c := &candidate{name: name, rec: rec, diags: installedDiagnostics(diags, filepath.Join(in.dir, name))}
	return in.swap(ctx, o, c, rep, rules)
}

// checkAgentEnv refuses env declarations with a default in a SKILL.md an
// agent wrote: a default is a value injected into every process started
// with the skill's variables (its entrypoint, the host's shell tool in its
// folder), and the agent would be the one choosing it. Names, descriptions
// and required stay allowed: a person saves the values.
func checkAgentEnv(env []skill.EnvVar) error {
	for _, ev := range env {
		if ev.Default != nil {
			return fmt.Errorf("%w: the environment variable %s has a default; an agent may declare variables (name, description, required) but not give them values", ErrInvalidContent, ev.Name)
		}
	}
	return nil
}

// agentGuard holds what an agent may not change in a skill it did not write
// (Options.AgentMayChangeInstalled): the code skillkit runs for it and what
// decides what InstallDeps installs.
type agentGuard struct {
	files   []string            // slash paths: the entrypoint, setup scripts, requirements file, .NET project
	dirs    []string            // slash paths of folders, everything below them protected
	install []skill.InstallSpec // the frontmatter's install specs, which must stay as they are
}

// newAgentGuard reads old, the skill before the edit (nil when it does not
// load), with its load diagnostics.
func newAgentGuard(old *skill.Skill, diags diagnostics.List) *agentGuard {
	g := &agentGuard{}
	if old == nil {
		g.dirs = []string{"scripts"} // nothing known: keep the likeliest code safe
		return g
	}
	g.install = old.Frontmatter.Install
	protect := func(p string, withDir bool) {
		clean, err := skill.CleanRelPath(p)
		if p == "" || err != nil {
			return
		}
		g.files = append(g.files, clean)
		// A program's sibling files are its modules (Python puts the
		// script's folder on sys.path; node requires relative paths;
		// dotnet restore evaluates the project folder's MSBuild files).
		if dir := path.Dir(clean); withDir && dir != "." {
			g.dirs = append(g.dirs, dir)
		}
	}
	broken := diags.Has(diagnostics.ConfigParseError)
	if cfg := old.Config; cfg != nil {
		protect(cfg.Entrypoint, true)
		protect(cfg.Setup.Posix, true)
		protect(cfg.Setup.Win32, true)
		if py := cfg.Dependencies.Python; py != nil {
			protect(py.Source, false)
		}
		if d := cfg.Dependencies.Dotnet; d != nil {
			protect(d.Project, true)
		}
		if cfg.Runtime != "" || cfg.Entrypoint != "" {
			g.dirs = append(g.dirs, "scripts")
		}
	}
	if broken && !slices.Contains(g.dirs, "scripts") {
		g.dirs = append(g.dirs, "scripts")
	}
	// file: dependencies of package.json are installed into node_modules,
	// where the skill's code requires them.
	g.dirs = append(g.dirs, npmFileTargets(old)...)
	return g
}

// check refuses a write or removal of a protected path.
func (g *agentGuard) check(name string, files map[string]string, remove []string) error {
	if g == nil {
		return nil
	}
	paths := slices.Concat(slices.Collect(maps.Keys(files)), remove)
	sort.Strings(paths)
	for _, p := range paths {
		hit := slices.Contains(g.files, p)
		for _, d := range g.dirs {
			hit = hit || p == d || strings.HasPrefix(p, d+"/")
		}
		if hit {
			return fmt.Errorf("%w: %s is code skillkit runs for %s (its entrypoint, setup script, dependency files, or a file beside them or under scripts/); an agent may not change it, even when allowed to edit installed skills", ErrNotAllowed, p, name)
		}
	}
	return nil
}

// checkInstall refuses a new SKILL.md whose install specs differ: they say
// what InstallDeps installs, and the skill's record still says a person
// installed it.
func (g *agentGuard) checkInstall(name string, s *skill.Skill) error {
	if g == nil || reflect.DeepEqual(g.install, s.Frontmatter.Install) {
		return nil
	}
	return fmt.Errorf("%w: the edit changes the install specs (metadata.install) of %s, which say what its dependencies are; an agent may not change them in a skill it did not write", ErrNotAllowed, name)
}

// npmFileTargets returns the folders and tarballs s's package.json reaches
// through file: dependencies, followed as InstallDeps follows them
// (devDependencies too).
func npmFileTargets(s *skill.Skill) []string {
	var out []string
	seen := map[string]bool{}
	queue := []string{"."}
	for len(queue) > 0 && len(seen) <= maxNpmFileDeps {
		dir := queue[0]
		queue = queue[1:]
		if seen[dir] {
			continue
		}
		seen[dir] = true
		data, err := s.ReadFile(path.Join(dir, "package.json"))
		if err != nil {
			continue
		}
		var doc map[string]json.RawMessage
		json.Unmarshal(data, &doc)
		for _, sec := range [...]string{"dependencies", "optionalDependencies", "peerDependencies", "devDependencies"} {
			var deps map[string]string
			json.Unmarshal(doc[sec], &deps)
			for name, spec := range deps {
				if target, err := checkNpmSpec(name, spec, dir, true); err == nil && target != "" {
					out = append(out, target)
					queue = append(queue, target)
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// writeAgentFiles applies content, files and remove to the staged tree.
func (in *Installer) writeAgentFiles(tree, content string, files map[string]string, remove []string) error {
	if content != "" {
		// One spelling of the skill file: the agent writes SKILL.md.
		if err := in.root.Remove(path.Join(tree, skill.FileNameLower)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("installer: %w", err)
		}
		if err := in.root.WriteFile(path.Join(tree, skill.FileName), []byte(content), 0o644); err != nil {
			return fmt.Errorf("installer: %w", err)
		}
	}
	for _, p := range remove {
		full := path.Join(tree, p)
		info, err := in.root.Lstat(full)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: there is no file %s to remove", ErrInvalidContent, p)
		}
		if err != nil {
			return fmt.Errorf("installer: %w", err)
		}
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%w: %s is not a file", ErrInvalidContent, p)
		}
		if err := in.root.Remove(full); err != nil {
			return fmt.Errorf("installer: %w", err)
		}
		// Drop the folders the removal left empty, up to the top folder.
		for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
			if err := in.root.Remove(path.Join(tree, dir)); err != nil {
				break // not empty
			}
		}
	}
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		full := path.Join(tree, p)
		if err := in.root.MkdirAll(path.Dir(full), dirPerm); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrInvalidContent, p, err)
		}
		if info, err := in.root.Lstat(full); err == nil && !info.Mode().IsRegular() {
			return fmt.Errorf("%w: %s is a folder, not a file", ErrInvalidContent, p)
		}
		if err := in.root.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrInvalidContent, p, err)
		}
	}
	return nil
}
