package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/hidden"
	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/skill"
)

// Tool names.
const (
	ReadSkillName     = "read_skill"
	ReadSkillFileName = "read_skill_file"
)

// ReadOptions tune read_skill and read_skill_file. A nil *ReadOptions means
// the defaults.
type ReadOptions struct {
	// Activate tunes read_skill's answer (language, texts, caps, whether the
	// skill folder is shown).
	Activate prompt.ActivateOptions
	// MaxFileBytes caps what read_skill_file returns (default 256 KiB); a
	// longer file is cut, and the answer says so.
	MaxFileBytes int64
	// OnActivate, when set, is called with each skill read_skill loads for
	// the model: a host's [github.com/skillkit-go/skillkit/toolpolicy.Policy.Activate], say, so that the
	// skill's allowed-tools count from then on.
	OnActivate func(*skill.Skill)
}

// DefaultMaxFileBytes is read_skill_file's default cap.
const DefaultMaxFileBytes = 256 << 10

func (o *ReadOptions) maxFileBytes() int64 {
	if o == nil || o.MaxFileBytes <= 0 {
		return DefaultMaxFileBytes
	}
	return o.MaxFileBytes
}

// ReadSkill returns the read_skill tool: it loads a skill's instructions by
// name (see [prompt.Activate]). names are the skills this agent may read, the
// enum of the name argument; hidden skills belong there when the agent may
// read them by name. It fails only when names is empty.
func ReadSkill(skills Lookup, names []string, opts *ReadOptions) (Tool, error) {
	if len(names) == 0 {
		return Tool{}, errors.New("tools: read_skill needs at least one skill name")
	}
	var act prompt.ActivateOptions
	var onActivate func(*skill.Skill)
	if opts != nil {
		act, onActivate = opts.Activate, opts.OnActivate
	}
	accepted := newNameSet(names)
	schema := objectSchema([]property{
		{"name", accepted.property("The skill to load.")},
		{"task", map[string]any{"type": "string", "description": "What you are about to do with the skill, in a few words. References the skill routes to this task are included in the answer."}},
	}, "name")
	type args struct {
		Name string `json:"name"`
		Task string `json:"task"`
	}
	return newTool(ReadSkillName,
		"Load a skill's full instructions by name, with the list of files it says you must read first. Call it before you use a skill from <available_skills>.",
		schema, true,
		func(ctx context.Context, a args) (Result, error) {
			s, res, ok := find(skills, accepted, a.Name)
			if !ok {
				return res, nil
			}
			o := act
			o.Task = a.Task
			activation, err := prompt.Activate(s, &o)
			if err != nil {
				return Result{}, fmt.Errorf("read_skill %s: %w", s.Name, err)
			}
			if onActivate != nil {
				onActivate(s)
			}
			structured, _ := json.Marshal(struct {
				Name     string   `json:"name"`
				Required []string `json:"required_references"`
				Inlined  []string `json:"included_references"`
				Missing  []string `json:"missing_references"`
			}{s.Name, nonNil(activation.Required), nonNil(activation.Inlined), nonNil(activation.Missing)})
			return Result{Text: activation.Text, Structured: structured}, nil
		})
}

// ReadSkillFile returns the read_skill_file tool: it reads one file of a
// skill by its path relative to the skill folder. Paths that leave the folder
// (.., absolute paths, percent-encoded tricks, symbolic links pointing
// outside) are refused; a skill on disk is read through [os.Root], so the
// operating system enforces it. Infrastructure ([skill.IsInfra]:
// skill.config.yaml, .env, package.json, .venv/..., at any depth) is not
// served, decided on the path the request resolves to after symbolic links,
// so references/up/.env with references/up -> .. is refused as .env is;
// nor is a file with more than one hard link. Files over the cap are cut,
// binary files are answered with a short notice, a missing file is
// answered with the list of files that exist, and hidden characters
// (hidden.Mark) are marked, never passed on.
func ReadSkillFile(skills Lookup, names []string, opts *ReadOptions) (Tool, error) {
	if len(names) == 0 {
		return Tool{}, errors.New("tools: read_skill_file needs at least one skill name")
	}
	limit := opts.maxFileBytes()
	accepted := newNameSet(names)
	schema := objectSchema([]property{
		{"name", accepted.property("The skill the file belongs to.")},
		{"path", map[string]any{"type": "string", "minLength": 1, "maxLength": maxPathLength, "description": "The file's path relative to the skill folder, as read_skill lists it, e.g. references/guide.md."}},
	}, "name", "path")
	type args struct {
		Name string `json:"name"`
		Path string `json:"path"`
	}
	return newTool(ReadSkillFileName,
		"Read one file of a skill (a reference, template or script) by its path relative to the skill folder.",
		schema, true,
		func(ctx context.Context, a args) (Result, error) {
			s, res, ok := find(skills, accepted, a.Name)
			if !ok {
				return res, nil
			}
			return readSkillFile(s, a.Path, limit)
		})
}

const (
	maxPathLength = skill.MaxPathBytes
)

// find resolves a name the agent may read.
func find(skills Lookup, names nameSet, name string) (*skill.Skill, Result, bool) {
	if !names.has(name) {
		return nil, names.unknown("skill", name), false
	}
	s, ok := skills.Get(name)
	if !ok {
		return nil, Errorf("the skill %q is no longer installed", name), false
	}
	return s, Result{}, true
}

// errRefused is a path the model may not read; its message is for the model.
type errRefused struct{ msg string }

func (e errRefused) Error() string { return e.msg }

// checkPath turns the model's path into a clean relative path or refuses
// it: skill.CleanRelPath, which applies skill.CheckPath, the one path rule,
// plus what only a model's path needs (no percent-encoding).
func checkPath(p string) (string, error) {
	if len(p) > maxPathLength {
		return "", errRefused{fmt.Sprintf("the path is %d bytes long; paths are at most %d", len(p), maxPathLength)}
	}
	if strings.ContainsRune(p, 0) {
		return "", errRefused{"the path holds a NUL byte"}
	}
	if strings.Contains(p, "%") {
		if dec, err := url.PathUnescape(p); err != nil || dec != p {
			return "", errRefused{fmt.Sprintf("%q is percent-encoded; give the path as it is, e.g. references/guide.md", p)}
		}
	}
	clean, err := skill.CleanRelPath(p)
	if err != nil {
		return "", errRefused{fmt.Sprintf("%q is not a path inside the skill folder (%v); give a path relative to it, e.g. references/guide.md", p, err)}
	}
	return clean, nil
}

// infraRefusal refuses a path that is, or leads through links to,
// infrastructure: the decision is made on resolved, the file that would be
// read.
func infraRefusal(clean, resolved string) error {
	if !skill.IsInfra(resolved) {
		return nil
	}
	if resolved == skill.FileName || resolved == skill.FileNameLower {
		return errRefused{"use read_skill to read the skill's instructions"}
	}
	if resolved != clean {
		return errRefused{fmt.Sprintf("%s leads to %s, which is part of the skill's machinery, not one of its documents, and is not served", clean, resolved)}
	}
	return errRefused{fmt.Sprintf("%s is part of the skill's machinery, not one of its documents, and is not served", clean)}
}

func readSkillFile(s *skill.Skill, p string, limit int64) (Result, error) {
	clean, err := checkPath(p)
	if err != nil {
		return Errorf("cannot read %q of %s: %v", p, s.Name, err), nil
	}
	resolved, err := s.Resolve(clean)
	if err == nil {
		if resolved == "." {
			return Errorf("%s leads to the folder of %s. Its files are:\n%s", clean, s.Name, fileList(s.Files, "")), nil
		}
		err = infraRefusal(clean, resolved)
	}
	var f fs.File
	if err == nil {
		f, err = s.Open(resolved)
	}
	if err != nil {
		var refused errRefused
		switch {
		case errors.As(err, &refused), errors.Is(err, skill.ErrUnsafePath):
			return Errorf("cannot read %s of %s: %v", clean, s.Name, err), nil
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			return Errorf("%s has no file %s. Its files are:\n%s", s.Name, clean, fileList(s.Files, "")), nil
		case errors.Is(err, skill.ErrHardLink):
			return Errorf("cannot read %s of %s: it is a hard link (%v); skills may not hold them, as installs do not take them", clean, s.Name, err), nil
		case errors.Is(err, skill.ErrNotRegular):
			return Errorf("%s of %s is not a regular file", clean, s.Name), nil
		}
		return Result{}, fmt.Errorf("read_skill_file %s/%s: %w", s.Name, clean, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Result{}, fmt.Errorf("read_skill_file %s/%s: %w", s.Name, clean, err)
	}
	if st.IsDir() {
		return Errorf("%s is a folder of %s. The files in it are:\n%s", clean, s.Name, fileList(s.Files, resolved+"/")), nil
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return Result{}, fmt.Errorf("read_skill_file %s/%s: %w", s.Name, clean, err)
	}
	truncated := int64(len(data)) > limit
	if truncated {
		data = trimPartialRune(data[:limit])
	}
	if !prompt.IsText(data) {
		return Result{Text: fmt.Sprintf("%s of %s is a binary file (%d bytes); it cannot be shown as text.", clean, s.Name, st.Size())}, nil
	}
	text := hidden.Mark(string(data))
	if truncated {
		text += fmt.Sprintf("\n\n[%s is %d bytes; only the first %d are shown]", clean, st.Size(), limit)
	}
	return Result{Text: text}, nil
}

// trimPartialRune drops an incomplete UTF-8 sequence that a cut left at the
// end.
func trimPartialRune(data []byte) []byte {
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				return data[:i]
			}
			break
		}
	}
	return data
}

func fileList(files []string, prefix string) string {
	var b strings.Builder
	n := 0
	for _, f := range files {
		if strings.HasPrefix(f, prefix) {
			if n == 100 {
				b.WriteString("- ...\n")
				break
			}
			b.WriteString("- " + f + "\n")
			n++
		}
	}
	if n == 0 {
		return "(none)"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func sortedCopy(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
