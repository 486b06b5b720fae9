package skill

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/safeyaml"
)

// Frontmatter is the SKILL.md frontmatter in one model for every dialect
// skillkit reads: the Agent Skills standard, Claude Code, skillkit's own
// fields under metadata, OpenClaw's metadata.openclaw and Hermes'.
// docs/dialects.md maps each field to its sources. Where two dialects give
// the same field, lists are merged (first occurrence first) and for single
// values the first source in the order standard/skillkit, OpenClaw, Hermes
// wins.
type Frontmatter struct {
	// The Agent Skills standard fields.
	Name          string         `json:"name"`
	Description   string         `json:"description"`
	License       string         `json:"license,omitempty"`
	Compatibility string         `json:"compatibility,omitempty"`
	AllowedTools  []string       `json:"allowed_tools,omitempty"`
	Metadata      map[string]any `json:"metadata,omitempty"` // nested maps and lists kept; scalars keep their source text

	// Claude Code and skillkit.
	Version                string `json:"version,omitempty"`
	DisableModelInvocation bool   `json:"disable_model_invocation,omitempty"` // hidden from the catalog, still readable by name
	UserInvocable          *bool  `json:"user_invocable,omitempty"`
	WhenToUse              string `json:"when_to_use,omitempty"`

	// Mapped from metadata (skillkit, OpenClaw, Hermes) and Hermes' top-level fields.
	Author     string        `json:"author,omitempty"`
	SkillType  string        `json:"skill_type,omitempty"`
	Emoji      string        `json:"emoji,omitempty"`
	Tags       []string      `json:"tags,omitempty"`
	Category   string        `json:"category,omitempty"`
	Conditions Conditions    `json:"conditions"`
	Requires   Requires      `json:"requires"`
	OS         []string      `json:"os,omitempty"` // GOOS values: darwin, linux, windows, ...
	Always     bool          `json:"always,omitempty"`
	PrimaryEnv string        `json:"primary_env,omitempty"`
	Install    []InstallSpec `json:"install,omitempty"`
	References *References   `json:"references,omitempty"`
	Env        []EnvVar      `json:"env,omitempty"`

	// Extra holds top-level fields no dialect defines, decoded like Metadata.
	Extra map[string]any `json:"extra,omitempty"`
	// Raw is the frontmatter text as written (LF line ends).
	Raw string `json:"-"`
}

// Conditions decide when a skill is offered, by the tools and toolsets an
// agent has (skillkit's metadata.conditions, Hermes metadata.hermes).
type Conditions struct {
	RequiresTools       []string `json:"requires_tools,omitempty"`        // all must be present
	FallbackForTools    []string `json:"fallback_for_tools,omitempty"`    // hidden when any is present
	RequiresToolsets    []string `json:"requires_toolsets,omitempty"`     // all must be present
	FallbackForToolsets []string `json:"fallback_for_toolsets,omitempty"` // hidden when any is present
}

// Requires lists what must exist on the host (skillkit's metadata.requires,
// OpenClaw metadata.openclaw.requires).
type Requires struct {
	Bins    []string `json:"bins,omitempty"`     // every one on PATH
	AnyBins []string `json:"any_bins,omitempty"` // at least one on PATH
	Env     []string `json:"env,omitempty"`      // environment variables set
	Config  []string `json:"config,omitempty"`   // host configuration paths (OpenClaw)
	Tools   []string `json:"tools,omitempty"`    // agent tools (same as Conditions.RequiresTools)
}

// InstallSpec is one install recipe from metadata.install or
// metadata.openclaw.install (OpenClaw's SkillInstallSpec).
type InstallSpec struct {
	ID      string   `json:"id,omitempty"`
	Kind    string   `json:"kind"` // node, uv, brew, go, download, ...
	Package string   `json:"package,omitempty"`
	Formula string   `json:"formula,omitempty"`
	Module  string   `json:"module,omitempty"`
	URL     string   `json:"url,omitempty"`
	Bins    []string `json:"bins,omitempty"`
	Label   string   `json:"label,omitempty"`
	OS      []string `json:"os,omitempty"`
}

// References say which attached files the model must read before acting and
// which it may read (docs/skill-config.md).
type References struct {
	Required []string `json:"required,omitempty"`
	Optional []string `json:"optional,omitempty"`
	Routes   []Route  `json:"routes,omitempty"`
}

// Route maps task keywords to references that become required when a task
// mentions any of them.
type Route struct {
	Match        []string `json:"match"`
	RequiredRefs []string `json:"required_refs"`
}

// ParseOptions tune [Parse]. A nil *ParseOptions is lenient.
type ParseOptions struct {
	// Strict applies the Agent Skills specification: only the six standard
	// fields, metadata values must be strings, and repaired YAML is an error.
	// The dialect fields are still read into the model.
	Strict bool
}

// Document is a parsed SKILL.md.
type Document struct {
	Frontmatter Frontmatter
	Body        string // the Markdown after the frontmatter, surrounding blank lines removed
	Recovered   bool   // the YAML was read only after repair
}

// standardFields are the six fields of the Agent Skills specification.
var standardFields = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}

// dialectFields are the other top-level fields skillkit maps.
var dialectFields = []string{
	"version", "disable-model-invocation", "user-invocable", "when_to_use", // Claude Code, skillkit
	"author", "platforms", "prerequisites", "required_environment_variables", // Hermes
}

// openClawKeys are the metadata keys OpenClaw and its earlier names use.
var openClawKeys = []string{"openclaw", "clawdbot", "clawdis"}

// Parse reads SKILL.md content. It never fails: a document it cannot read is
// returned as nil with a FRONTMATTER_INVALID diagnostic; everything else it
// finds is a diagnostic too. The diagnostics carry neither skill name nor path;
// [Load] fills them in.
func Parse(data []byte, opts *ParseOptions) (*Document, diagnostics.List) {
	fm, body, recovered, diags := parseFrontmatter(data, opts != nil && opts.Strict, true)
	if fm == nil {
		return nil, diags
	}
	return &Document{Frontmatter: *fm, Body: strings.Trim(string(body), "\n"), Recovered: recovered}, diags
}

// parseFrontmatter is Parse without copying the body, which Load never needs.
// flat lets the flat reader take the frontmatter before yaml.v3 does; the
// tests turn it off to hold both ways to the same result.
func parseFrontmatter(data []byte, strict, flat bool) (fm *Frontmatter, body []byte, recovered bool, diags diagnostics.List) {
	if order, ok := utf16(data); ok {
		// Neither Node's nor Python's UTF-8 readers, which other clients
		// use, decode it: the file is refused with the reason.
		return nil, nil, false, append(diags, diagnostics.New(diagnostics.FrontmatterInvalid, "", "",
			"the file is UTF-16 (%s, by its byte order mark); skill files are UTF-8: save it as UTF-8", order).With("encoding", "utf-16"))
	}
	front, body, err := SplitFrontmatter(data)
	if err != nil {
		return nil, nil, false, append(diags, diagnostics.New(diagnostics.FrontmatterInvalid, "", "", "%v", err))
	}
	if bytes.HasPrefix(data, bom) {
		diags = append(diags, diagnostics.New(diagnostics.ByteOrderMark, "", "", "the file starts with a UTF-8 byte order mark, which is ignored"))
	}
	if crLineEnds(bytes.TrimPrefix(data, bom)) {
		diags = append(diags, diagnostics.New(diagnostics.LineEnds, "", "", "the file ends its lines with a lone CR (classic Mac OS); they are read as line ends"))
	}
	if !utf8.Valid(front) {
		at := 0
		for at < len(front) {
			r, n := utf8.DecodeRune(front[at:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			at += n
		}
		line := bytes.Count(front[:at], []byte("\n")) + 1 + frontmatterLine
		return nil, nil, false, append(diags, diagnostics.New(diagnostics.FrontmatterInvalid, "", "",
			"the frontmatter is not UTF-8 (byte 0x%02x on line %d): the file looks like Latin-1 or another legacy encoding; save it as UTF-8", front[at], line).
			With("line", line).With("encoding", "not utf-8"))
	}
	raw := string(front)
	var root *yaml.Node
	if flat {
		root, flat = safeyaml.Flat(raw)
	}
	if !flat {
		root, recovered, err = safeyaml.ParseMapping(front, true)
	}
	if err != nil {
		var broken []safeyaml.BrokenField
		if !strict {
			root, recovered, broken = safeyaml.RecoverFields(front)
		}
		lost := slices.IndexFunc(broken, func(b safeyaml.BrokenField) bool { return b.Key == "name" || b.Key == "description" })
		// Recovery counts only when it left something out (strict mode never
		// recovers) and kept what identifies the skill: a description read,
		// and no name left out.
		if len(broken) == 0 || lost >= 0 || safeyaml.Lookup(root, "description") == nil {
			where, found := safeyaml.BrokenField{}, false
			if lost >= 0 {
				where, found = broken[lost], true
			} else {
				where, found = safeyaml.LocateError(front)
			}
			return nil, nil, false, append(diags, invalidYAML(where, found, err))
		}
		for i, b := range broken {
			if i == maxBrokenNamed {
				diags = append(diags, diagnostics.New(diagnostics.FrontmatterRecovered, "", "",
					"%d more fields are not valid YAML and are left out", len(broken)-i).With("line", b.Line+frontmatterLine))
				break
			}
			d := diagnostics.New(diagnostics.FrontmatterRecovered, "", "",
				"%s is not valid YAML (%s); it is left out, and the other fields are read one by one", fieldName(b), b.Err).
				With("line", b.Line+frontmatterLine)
			if b.Key != "" {
				d = d.With("field", b.Key)
			}
			diags = append(diags, d)
		}
	}
	if recovered {
		d := diagnostics.New(diagnostics.FrontmatterRecovered, "", "",
			"the frontmatter is not valid YAML; it was read after reading as text the values that hold \": \", end a line with \":\" or start with @, ` or %%, and replacing tab indentation; quote such values")
		if strict {
			d = d.At(diagnostics.Error)
		}
		diags = append(diags, d)
	}
	var dups []string
	safeyaml.DuplicateKeys(root, "", 0, &dups)
	for _, k := range dups {
		d := diagnostics.New(diagnostics.FieldInvalid, "", "", "%s: duplicate key; the last value is used", k).With("field", k)
		if strict {
			d = d.At(diagnostics.Error)
		}
		diags = append(diags, d)
	}
	decoded, err := safeyaml.Decode(root, false)
	if err != nil {
		return nil, nil, false, append(diags, diagnostics.New(diagnostics.FrontmatterInvalid, "", "", "the frontmatter cannot be read: %v", err))
	}
	fields := decoded.(map[string]any)
	fm = &Frontmatter{Raw: raw}

	level := diagnostics.FieldInvalid.Level()
	if strict {
		level = diagnostics.Error
	}
	r := &fieldReader{diags: &diags, code: diagnostics.FieldInvalid, level: level}
	readStandard(r, fields, fm, strict, root)
	// The dialect fields are read in both modes, so a strict loader hides,
	// gates and routes skills as a lenient one does; the specification does
	// not know them, so a malformed one stays a warning (strict mode already
	// reports the fields themselves as unknown).
	readDialects(&fieldReader{diags: &diags, code: diagnostics.FieldInvalid, level: diagnostics.FieldInvalid.Level()}, fields, fm)
	reportUnknown(&diags, fields, fm, strict)
	return fm, body, recovered, diags
}

// maxBrokenNamed caps the broken fields named one by one.
const maxBrokenNamed = 20

// frontmatterLine is the file line before the frontmatter's first: the
// opening "---".
const frontmatterLine = 1

// fieldName names a broken field in a message.
func fieldName(b safeyaml.BrokenField) string {
	if b.Key == "" {
		return fmt.Sprintf("the text before the first field (line %d)", b.Line+frontmatterLine)
	}
	return fmt.Sprintf("the field %s (line %d)", b.Key, b.Line+frontmatterLine)
}

// invalidYAML is the FRONTMATTER_INVALID diagnostic for YAML that cannot be
// read: at the broken field when found (detail line: the file's own line),
// else with the parser's message alone.
func invalidYAML(b safeyaml.BrokenField, found bool, err error) diagnostics.Diagnostic {
	if !found {
		return diagnostics.New(diagnostics.FrontmatterInvalid, "", "", "the frontmatter is not valid YAML: %s", safeyaml.Message(err))
	}
	d := diagnostics.New(diagnostics.FrontmatterInvalid, "", "", "the frontmatter is not valid YAML: %s: %s", fieldName(b), b.Err).
		With("line", b.Line+frontmatterLine)
	if b.Key != "" {
		d = d.With("field", b.Key)
	}
	return d
}

func readStandard(r *fieldReader, f map[string]any, fm *Frontmatter, strict bool, root *yaml.Node) {
	fm.Name = strings.TrimSpace(r.str("name", f["name"]))
	fm.Description = strings.TrimSpace(r.str("description", f["description"]))
	fm.License = strings.TrimSpace(r.str("license", f["license"]))
	fm.Compatibility = strings.TrimSpace(r.str("compatibility", f["compatibility"]))
	if v, ok := f["compatibility"]; ok && strict && fm.Compatibility == "" {
		r.invalid("compatibility", "must be 1-%d characters when present, got %s", MaxCompatibilityLength, describe(v))
	}
	fm.AllowedTools = r.list("allowed-tools", f["allowed-tools"], true)
	if _, isList := f["allowed-tools"].([]any); isList {
		// Claude Code accepts a list; the specification wants one string.
		level := diagnostics.Info
		if strict {
			level = diagnostics.Error
		}
		d := diagnostics.New(diagnostics.FieldInvalid, "", "", "allowed-tools: the specification wants a space-delimited string, got a YAML list (read as a list)").
			At(level).With("field", "allowed-tools")
		*r.diags = append(*r.diags, d)
	}
	fm.Metadata = r.mapping("metadata", f["metadata"])
	if strict {
		md := safeyaml.Lookup(root, "metadata")
		if md != nil && md.Kind == yaml.AliasNode {
			md = md.Alias
		}
		switch {
		case md == nil || md.ShortTag() == "!!null":
		case md.Kind == yaml.ScalarNode && strings.HasPrefix(strings.TrimSpace(md.Value), "{"):
			// Read as OpenClaw writes it, but the specification's metadata
			// is a YAML mapping; other forms are refused by r.mapping.
			r.invalid("metadata", "the specification wants a mapping of string keys to string values, got a string holding JSON")
		case md.Kind != yaml.MappingNode:
		default:
			for i := 0; i+1 < len(md.Content); i += 2 {
				if v := md.Content[i+1]; !specString(v) {
					r.invalid("metadata."+md.Content[i].Value, "the specification wants a string value, got a YAML %s (quote it)", yamlKind(v))
				}
			}
		}
	}
}

// specString reports whether a metadata value is a string as the
// specification reads YAML: with the YAML 1.2 core schema, which has no
// timestamps, so an unquoted date is a string (yaml.v3 resolves it as
// YAML 1.1 did).
func specString(v *yaml.Node) bool {
	return v.Kind == yaml.ScalarNode && (v.ShortTag() == "!!str" || v.ShortTag() == "!!timestamp")
}

func yamlKind(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return strings.TrimPrefix(n.ShortTag(), "!!")
	}
	return safeyaml.KindName(n)
}

func readDialects(r *fieldReader, f map[string]any, fm *Frontmatter) {
	fm.Version = strings.TrimSpace(r.str("version", f["version"]))
	fm.DisableModelInvocation = r.boolean("disable-model-invocation", f["disable-model-invocation"])
	if v, ok := f["user-invocable"]; ok && v != nil {
		b := r.boolean("user-invocable", v)
		fm.UserInvocable = &b
	}
	fm.WhenToUse = strings.TrimSpace(r.str("when_to_use", f["when_to_use"]))
	fm.OS = appendUnique(fm.OS, normalizeOS(r.list("platforms", f["platforms"], false))...)
	fm.Env = readEnvList(r, "required_environment_variables", f["required_environment_variables"], true)
	fm.Author = strings.TrimSpace(r.str("author", f["author"]))
	// Hermes' older prerequisites: programs on PATH, variables the skill reads.
	if p := r.mapping("prerequisites", f["prerequisites"]); p != nil {
		fm.Requires.Bins = appendUnique(fm.Requires.Bins, r.list("prerequisites.commands", p["commands"], false)...)
		fm.Env = mergeEnv(fm.Env, readEnvList(r, "prerequisites.env_vars", p["env_vars"], true))
	}

	md := fm.Metadata
	if md == nil {
		return
	}
	// skillkit's metadata fields; metadata.version is the standard's own
	// example of where a version goes.
	fm.Version = firstNonEmpty(fm.Version, strings.TrimSpace(r.str("metadata.version", md["version"])))
	fm.SkillType = r.str("metadata.skillType", md["skillType"])
	fm.Emoji = r.str("metadata.emoji", md["emoji"])
	fm.Tags = r.list("metadata.tags", md["tags"], false)
	fm.Category = r.str("metadata.category", md["category"])
	fm.Author = firstNonEmpty(fm.Author, strings.TrimSpace(r.str("metadata.author", md["author"])))
	if c := r.mapping("metadata.conditions", md["conditions"]); c != nil {
		fm.Conditions.RequiresTools = r.list("metadata.conditions.requires_tools", c["requires_tools"], false)
		fm.Conditions.FallbackForTools = r.list("metadata.conditions.fallback_for_tools", c["fallback_for_tools"], false)
		fm.Conditions.RequiresToolsets = r.list("metadata.conditions.requires_toolsets", c["requires_toolsets"], false)
		fm.Conditions.FallbackForToolsets = r.list("metadata.conditions.fallback_for_toolsets", c["fallback_for_toolsets"], false)
	}
	readRequires(r, "metadata.requires", md["requires"], &fm.Requires)
	fm.Install = append(fm.Install, readInstall(r, "metadata.install", md["install"])...)
	if v, ok := md["references"]; ok {
		fm.References = readReferences(r, "metadata.references", v)
	}
	fm.Env = mergeEnv(fm.Env, readEnvList(r, "metadata.env", md["env"], false))

	// OpenClaw: metadata.openclaw (or its older names), possibly a JSON string.
	for _, key := range openClawKeys {
		oc := r.mapping("metadata."+key, md[key])
		if oc == nil {
			continue
		}
		p := "metadata." + key + "."
		fm.Emoji = firstNonEmpty(fm.Emoji, r.str(p+"emoji", oc["emoji"]))
		fm.OS = appendUnique(fm.OS, normalizeOS(r.list(p+"os", oc["os"], false))...)
		fm.Always = fm.Always || r.boolean(p+"always", oc["always"])
		fm.PrimaryEnv = firstNonEmpty(fm.PrimaryEnv, r.str(p+"primaryEnv", oc["primaryEnv"]))
		readRequires(r, p+"requires", oc["requires"], &fm.Requires)
		fm.Install = append(fm.Install, readInstall(r, p+"install", oc["install"])...)
		fm.Env = mergeEnv(fm.Env, readEnvList(r, p+"envVars", oc["envVars"], false))
	}

	// Hermes: metadata.hermes.
	if h := r.mapping("metadata.hermes", md["hermes"]); h != nil {
		fm.Tags = appendUnique(fm.Tags, r.list("metadata.hermes.tags", h["tags"], false)...)
		fm.Category = firstNonEmpty(fm.Category, r.str("metadata.hermes.category", h["category"]))
		c := &fm.Conditions
		c.RequiresTools = appendUnique(c.RequiresTools, r.list("metadata.hermes.requires_tools", h["requires_tools"], false)...)
		c.FallbackForTools = appendUnique(c.FallbackForTools, r.list("metadata.hermes.fallback_for_tools", h["fallback_for_tools"], false)...)
		c.RequiresToolsets = appendUnique(c.RequiresToolsets, r.list("metadata.hermes.requires_toolsets", h["requires_toolsets"], false)...)
		c.FallbackForToolsets = appendUnique(c.FallbackForToolsets, r.list("metadata.hermes.fallback_for_toolsets", h["fallback_for_toolsets"], false)...)
	}
	// metadata.requires.tools means the same as conditions.requires_tools.
	fm.Conditions.RequiresTools = appendUnique(fm.Conditions.RequiresTools, fm.Requires.Tools...)
}

func readRequires(r *fieldReader, field string, v any, into *Requires) {
	m := r.mapping(field, v)
	if m == nil {
		return
	}
	into.Bins = appendUnique(into.Bins, r.list(field+".bins", m["bins"], false)...)
	into.AnyBins = appendUnique(into.AnyBins, r.list(field+".anyBins", m["anyBins"], false)...)
	into.Env = appendUnique(into.Env, r.list(field+".env", m["env"], false)...)
	into.Config = appendUnique(into.Config, r.list(field+".config", m["config"], false)...)
	into.Tools = appendUnique(into.Tools, r.list(field+".tools", m["tools"], false)...)
}

func readInstall(r *fieldReader, field string, v any) []InstallSpec {
	if v == nil {
		return nil
	}
	items, ok := v.([]any)
	if !ok {
		r.invalid(field, "want a list of install specs, got %s", describe(v))
		return nil
	}
	var out []InstallSpec
	for i, item := range items {
		p := fmt.Sprintf("%s[%d]", field, i)
		m := r.mapping(p, item)
		if m == nil {
			continue
		}
		spec := InstallSpec{
			ID:      r.str(p+".id", m["id"]),
			Kind:    strings.TrimSpace(r.str(p+".kind", m["kind"])),
			Package: r.str(p+".package", m["package"]),
			Formula: r.str(p+".formula", m["formula"]),
			Module:  r.str(p+".module", m["module"]),
			URL:     r.str(p+".url", m["url"]),
			Bins:    r.list(p+".bins", m["bins"], false),
			Label:   r.str(p+".label", m["label"]),
			OS:      normalizeOS(r.list(p+".os", m["os"], false)),
		}
		if spec.Kind == "" {
			r.invalid(p+".kind", "an install spec needs a kind (node, uv, brew, ...)")
			continue
		}
		out = append(out, spec)
	}
	return out
}

// readReferences reads {required, optional, routes} from SKILL.md metadata or
// skill.config.yaml.
func readReferences(r *fieldReader, field string, v any) *References {
	m := r.mapping(field, v)
	if m == nil {
		return nil
	}
	refs := &References{
		Required: cleanRefs(r.list(field+".required", m["required"], false)),
		Optional: cleanRefs(r.list(field+".optional", m["optional"], false)),
	}
	if rv, ok := m["routes"]; ok && rv != nil {
		items, ok := rv.([]any)
		if !ok {
			r.invalid(field+".routes", "want a list of {match, required_refs}, got %s", describe(rv))
		}
		for i, item := range items {
			p := fmt.Sprintf("%s.routes[%d]", field, i)
			rm := r.mapping(p, item)
			if rm == nil {
				continue
			}
			route := Route{
				Match:        r.list(p+".match", rm["match"], false),
				RequiredRefs: cleanRefs(r.list(p+".required_refs", rm["required_refs"], false)),
			}
			if len(route.Match) == 0 || len(route.RequiredRefs) == 0 {
				r.invalid(p, "a route needs match keywords and required_refs")
				continue
			}
			refs.Routes = append(refs.Routes, route)
		}
	}
	return refs
}

func cleanRefs(refs []string) []string {
	for i, ref := range refs {
		refs[i] = strings.TrimPrefix(strings.ReplaceAll(ref, "\\", "/"), "./")
	}
	return refs
}

// readEnvList reads environment variable declarations: a list of names or of
// {name, required, description, default} mappings (Hermes also uses prompt and
// help for the description). requiredByDefault is Hermes' reading: a variable
// listed as required_environment_variables is required unless it says not.
func readEnvList(r *fieldReader, field string, v any, requiredByDefault bool) []EnvVar {
	if v == nil {
		return nil
	}
	items, ok := v.([]any)
	if !ok {
		r.invalid(field, "want a list of environment variables, got %s", describe(v))
		return nil
	}
	var out []EnvVar
	for i, item := range items {
		p := fmt.Sprintf("%s[%d]", field, i)
		ev := EnvVar{Required: requiredByDefault}
		if name, ok := item.(string); ok {
			ev.Name = strings.TrimSpace(name)
		} else {
			m := r.mapping(p, item)
			if m == nil {
				continue
			}
			ev.Name = strings.TrimSpace(r.str(p+".name", m["name"]))
			if rv, ok := m["required"]; ok {
				ev.Required = r.boolean(p+".required", rv)
			}
			ev.Description = strings.TrimSpace(firstNonEmpty(
				r.str(p+".description", m["description"]),
				r.str(p+".prompt", m["prompt"]),
				r.str(p+".help", m["help"])))
			if dv, ok := m["default"]; ok && dv != nil {
				s := r.str(p+".default", dv)
				ev.Default = &s
			}
		}
		if err := ValidateEnvName(ev.Name); err != nil {
			r.invalid(p+".name", "%v", err)
			continue
		}
		out = append(out, ev)
	}
	return out
}

// mergeEnv appends the variables of add whose names are not in list yet.
func mergeEnv(list, add []EnvVar) []EnvVar {
	for _, ev := range add {
		if !slices.ContainsFunc(list, func(x EnvVar) bool { return x.Name == ev.Name }) {
			list = append(list, ev)
		}
	}
	return list
}

// normalizeOS maps OS names of several dialects to Go's GOOS values.
func normalizeOS(names []string) []string {
	out := names[:0:0]
	for _, n := range names {
		switch s := strings.ToLower(strings.TrimSpace(n)); s {
		case "macos", "mac", "osx", "darwin":
			out = appendUnique(out, "darwin")
		case "win32", "win", "windows":
			out = appendUnique(out, "windows")
		case "wsl", "wsl2": // Windows Subsystem for Linux runs Linux programs
			out = appendUnique(out, "linux")
		default:
			out = appendUnique(out, s)
		}
	}
	return out
}

// reportUnknown reports top-level fields no dialect defines (in strict mode:
// any field outside the six standard ones, as an error) and keeps them in
// Extra.
func reportUnknown(diags *diagnostics.List, f map[string]any, fm *Frontmatter, strict bool) {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if slices.Contains(standardFields, k) {
			continue
		}
		if !strict && slices.Contains(dialectFields, k) {
			continue
		}
		if fm.Extra == nil {
			fm.Extra = make(map[string]any)
		}
		fm.Extra[k] = f[k]
		d := diagnostics.New(diagnostics.FieldUnknown, "", "", "%s: not a field of any supported dialect; kept as extra", k)
		if strict {
			d = diagnostics.New(diagnostics.FieldUnknown, "", "", "%s: the specification allows only %s", k, strings.Join(standardFields, ", ")).At(diagnostics.Error)
		}
		*diags = append(*diags, d.With("field", k))
	}
}
