package skill

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/safeyaml"
)

// ConfigFileName is the name of a skill's runtime configuration file.
const ConfigFileName = "skill.config.yaml"

// DefaultTimeout is how long a compute-entry skill may run when its config
// sets no timeout.
const DefaultTimeout = 30 * time.Second

// Runtime is the interpreter a skill's code runs with.
type Runtime string

// The runtimes skill.config.yaml may declare.
const (
	RuntimePython Runtime = "python"
	RuntimeNode   Runtime = "node"
	RuntimeBash   Runtime = "bash"
	RuntimeDotnet Runtime = "dotnet"
)

var runtimes = []Runtime{RuntimePython, RuntimeNode, RuntimeBash, RuntimeDotnet}

// Class is how a skill is used.
type Class string

// The three classes.
const (
	// ClassPrompt: instructions only; the model reads them with read_skill.
	ClassPrompt Class = "prompt"
	// ClassComputeEntry: the config names an entrypoint; the model calls
	// execute_skill with JSON input and gets JSON output.
	ClassComputeEntry Class = "compute-entry"
	// ClassComputeToolkit: the config names a runtime but no entrypoint; the
	// model reads the instructions and runs the scripts with its own bash tool.
	ClassComputeToolkit Class = "compute-toolkit"
)

// Config is skill.config.yaml; docs/skill-config.md describes every field.
type Config struct {
	Runtime      Runtime       `json:"runtime,omitempty"`
	Entrypoint   string        `json:"entrypoint,omitempty"` // slash path inside the skill folder
	Timeout      time.Duration `json:"-"`                    // "timeout" in ms in the file; DefaultTimeout when unset
	Env          []EnvVar      `json:"env,omitempty"`
	Dependencies Dependencies  `json:"dependencies"`
	Setup        Setup         `json:"setup"`
	Interface    Interface     `json:"interface"`
	References   *References   `json:"references,omitempty"`
	// Permissions are what the skill's processes may reach beyond their own
	// folder and a private scratch space; the zero value asks for nothing.
	Permissions Permissions `json:"permissions"`
}

// MarshalJSON writes the config with its timeout as "timeout_ms", the unit
// of the file.
func (c Config) MarshalJSON() ([]byte, error) {
	type plain Config
	return json.Marshal(struct {
		plain
		TimeoutMS int64 `json:"timeout_ms"`
	}{plain(c), c.Timeout.Milliseconds()})
}

// Class derives the skill class from the config: an entrypoint makes a
// compute-entry skill, a runtime alone a compute-toolkit skill.
func (c *Config) Class() Class {
	switch {
	case c == nil:
		return ClassPrompt
	case c.Entrypoint != "":
		return ClassComputeEntry
	case c.Runtime != "":
		return ClassComputeToolkit
	}
	return ClassPrompt
}

// Dependencies are what a skill needs installed, per skill.
type Dependencies struct {
	System []SystemDep    `json:"system,omitempty"`
	Python *PythonDeps    `json:"python,omitempty"`
	Node   *NodeDeps      `json:"node,omitempty"`
	Dotnet *DotnetProject `json:"dotnet,omitempty"`
}

// SystemDep is a host program the skill needs; Check is a command that exits 0
// when it is installed.
type SystemDep struct {
	Name  string `json:"name"`
	Check string `json:"check,omitempty"`
}

// PythonDeps are installed into the skill's own .venv: from Source (a
// requirements file inside the skill) or the Inline requirement list.
type PythonDeps struct {
	Source string   `json:"source,omitempty"`
	Inline []string `json:"inline,omitempty"`
}

// NodeDeps are npm packages installed into the skill's own node_modules.
type NodeDeps struct {
	Packages []string `json:"packages,omitempty"`
}

// DotnetProject is a .NET project restored inside the skill.
type DotnetProject struct {
	Project string `json:"project"`
}

// Setup names install-time scripts, per platform, inside the skill folder.
type Setup struct {
	Posix string `json:"posix,omitempty"`
	Win32 string `json:"win32,omitempty"`
}

// Interface is the JSON contract of a compute-entry skill. Input and Output
// are JSON Schemas (root type object) or nil when not declared; the
// compact form (field: {type, required, default, description, enum}) is
// converted to a JSON Schema.
type Interface struct {
	Input       json.RawMessage `json:"input,omitempty"`
	Output      json.RawMessage `json:"output,omitempty"`
	InputFields []Field         `json:"input_fields,omitempty"` // Input's properties in source order
}

// Field summarizes one input property, for the catalog's one-line summary.
type Field struct {
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	Required    bool   `json:"required,omitempty"`
	Default     any    `json:"default,omitempty"`
	Description string `json:"description,omitempty"`
	Enum        []any  `json:"enum,omitempty"`
}

var configFields = []string{"runtime", "entrypoint", "timeout", "env", "dependencies", "setup", "interface", "references", "permissions"}

// ParseConfig reads skill.config.yaml. The config is returned only when it is
// valid; otherwise it is nil and the diagnostics (CONFIG_PARSE_ERROR) say
// why. Unknown fields are reported as FIELD_UNKNOWN and ignored. Paths
// (entrypoint, setup, python source, dotnet project, references) must stay
// inside the skill folder.
func ParseConfig(data []byte) (*Config, diagnostics.List) {
	var diags diagnostics.List
	fail := func(format string, args ...any) (*Config, diagnostics.List) {
		return nil, append(diags, diagnostics.New(diagnostics.ConfigParseError, "", "", format, args...))
	}
	root, _, err := safeyaml.ParseMapping(data, false)
	if err != nil {
		if b, found := safeyaml.LocateError(data); found {
			d := diagnostics.New(diagnostics.ConfigParseError, "", "", "%s is not valid YAML: line %d: %s", ConfigFileName, b.Line, b.Err).With("line", b.Line)
			if b.Key != "" {
				d = d.With("field", b.Key)
			}
			return nil, append(diags, d)
		}
		return fail("%s is not valid YAML: %s", ConfigFileName, safeyaml.Message(err))
	}
	var dups []string
	safeyaml.DuplicateKeys(root, "", 0, &dups)
	if len(dups) > 0 {
		return fail("%s: duplicate keys %s", ConfigFileName, strings.Join(dups, ", "))
	}
	decoded, err := safeyaml.Decode(root, true)
	if err != nil {
		return fail("%s cannot be read: %v", ConfigFileName, err)
	}
	f := decoded.(map[string]any)
	r := &fieldReader{diags: &diags, code: diagnostics.ConfigParseError, level: diagnostics.Error}
	cfg := &Config{}

	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(configFields, k) {
			diags = append(diags, diagnostics.New(diagnostics.FieldUnknown, "", "", "%s: unknown field %q ignored", ConfigFileName, k).With("field", k))
		}
	}

	if rt := strings.ToLower(strings.TrimSpace(r.str("runtime", f["runtime"]))); rt != "" {
		if !slices.Contains(runtimes, Runtime(rt)) {
			r.invalid("runtime", "%q is not one of python, node, bash, dotnet", rt)
		}
		cfg.Runtime = Runtime(rt)
	}
	cfg.Entrypoint = r.path("entrypoint", f["entrypoint"])
	if cfg.Entrypoint != "" && cfg.Runtime == "" {
		cfg.Runtime = runtimeFor(cfg.Entrypoint)
		if cfg.Runtime == "" {
			r.invalid("runtime", "no runtime declared and none follows from the entrypoint %q; set runtime", cfg.Entrypoint)
		}
	}
	cfg.Timeout = DefaultTimeout
	if v, ok := f["timeout"]; ok && v != nil {
		ms, isInt := v.(int64)
		if !isInt || ms <= 0 {
			r.invalid("timeout", "want a positive whole number of milliseconds, got %s", quoteValue(v))
		} else {
			cfg.Timeout = time.Duration(ms) * time.Millisecond
		}
	}
	cfg.Env = readEnvList(r, "env", f["env"], false)
	readDependencies(r, f["dependencies"], &cfg.Dependencies)
	if s := r.mapping("setup", f["setup"]); s != nil {
		cfg.Setup = Setup{Posix: r.path("setup.posix", s["posix"]), Win32: r.path("setup.win32", s["win32"])}
	}
	if v, ok := f["references"]; ok {
		cfg.References = readReferences(r, "references", v)
		if cfg.References != nil {
			checkRefPaths(r, "references", cfg.References)
		}
	}
	cfg.Permissions = readPermissions(r, f["permissions"])
	if iface := safeyaml.Lookup(root, "interface"); iface != nil {
		cfg.Interface = readInterface(r, iface, f["interface"])
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return cfg, diags
}

// runtimeFor guesses the runtime from an entrypoint's extension.
func runtimeFor(entrypoint string) Runtime {
	switch path.Ext(entrypoint) {
	case ".py":
		return RuntimePython
	case ".js", ".mjs", ".cjs":
		return RuntimeNode
	case ".sh", ".bash":
		return RuntimeBash
	case ".csproj", ".fsproj":
		return RuntimeDotnet
	}
	return ""
}

// path reads a relative path that must stay inside the skill folder.
func (r *fieldReader) path(field string, v any) string {
	p := strings.TrimSpace(r.str(field, v))
	if p == "" {
		return ""
	}
	clean, err := CleanRelPath(p)
	if err != nil {
		r.invalid(field, "%v", err)
		return ""
	}
	return clean
}

func checkRefPaths(r *fieldReader, field string, refs *References) {
	check := func(list []string) {
		for _, p := range list {
			if _, err := CleanRelPath(p); err != nil {
				r.invalid(field, "%v", err)
			}
		}
	}
	check(refs.Required)
	check(refs.Optional)
	for _, route := range refs.Routes {
		check(route.RequiredRefs)
	}
}

func readDependencies(r *fieldReader, v any, deps *Dependencies) {
	m := r.mapping("dependencies", v)
	if m == nil {
		return
	}
	for k := range m {
		if !slices.Contains([]string{"system", "python", "node", "dotnet"}, k) {
			r.invalid("dependencies."+k, "unknown dependency kind; use system, python, node or dotnet")
		}
	}
	if sv, ok := m["system"]; ok && sv != nil {
		items, ok := sv.([]any)
		if !ok {
			r.invalid("dependencies.system", "want a list of {name, check}, got %s", describe(sv))
		}
		for i, item := range items {
			p := fmt.Sprintf("dependencies.system[%d]", i)
			if name, ok := item.(string); ok {
				deps.System = append(deps.System, SystemDep{Name: name})
				continue
			}
			sm := r.mapping(p, item)
			if sm == nil {
				continue
			}
			dep := SystemDep{Name: strings.TrimSpace(r.str(p+".name", sm["name"])), Check: strings.TrimSpace(r.str(p+".check", sm["check"]))}
			if dep.Name == "" {
				r.invalid(p+".name", "a system dependency needs a name")
				continue
			}
			deps.System = append(deps.System, dep)
		}
	}
	if pm := r.mapping("dependencies.python", m["python"]); pm != nil {
		py := &PythonDeps{Source: r.path("dependencies.python.source", pm["source"]), Inline: r.list("dependencies.python.inline", pm["inline"], false)}
		if py.Source != "" && len(py.Inline) > 0 {
			r.invalid("dependencies.python", "give either source or inline, not both")
		}
		if py.Source == "" && len(py.Inline) == 0 {
			r.invalid("dependencies.python", "give source (a requirements file) or inline (a list of requirements)")
		}
		deps.Python = py
	}
	if nm := r.mapping("dependencies.node", m["node"]); nm != nil {
		deps.Node = &NodeDeps{Packages: r.list("dependencies.node.packages", nm["packages"], false)}
	}
	if dm := r.mapping("dependencies.dotnet", m["dotnet"]); dm != nil {
		proj := r.path("dependencies.dotnet.project", dm["project"])
		if proj == "" {
			r.invalid("dependencies.dotnet.project", "a .NET dependency needs a project path")
		}
		deps.Dotnet = &DotnetProject{Project: proj}
	}
}

// readInterface converts interface.input and interface.output to JSON Schema.
func readInterface(r *fieldReader, node *yaml.Node, v any) Interface {
	var out Interface
	m := r.mapping("interface", v)
	if m == nil {
		return out
	}
	for k := range m {
		if k != "input" && k != "output" {
			r.invalid("interface."+k, "unknown field; use input and output")
		}
	}
	if in := safeyaml.Lookup(node, "input"); in != nil && m["input"] != nil {
		out.Input, out.InputFields = schemaOf(r, "interface.input", in, m["input"])
	}
	if o := safeyaml.Lookup(node, "output"); o != nil && m["output"] != nil {
		out.Output, _ = schemaOf(r, "interface.output", o, m["output"])
	}
	return out
}

// jsonSchemaKeys mark a mapping as a JSON Schema rather than the compact form.
var jsonSchemaKeys = []string{"$schema", "type", "properties", "required", "$ref", "allOf", "anyOf", "oneOf"}

var compactFieldKeys = []string{"type", "required", "default", "description", "enum", "items", "properties", "format", "minimum", "maximum", "pattern"}

// schemaOf turns the compact form or a JSON Schema into a JSON Schema and the
// ordered field list. node is the same value as v, kept for key order.
func schemaOf(r *fieldReader, field string, node *yaml.Node, v any) (json.RawMessage, []Field) {
	m := r.mapping(field, v)
	if m == nil {
		return nil, nil
	}
	isSchema := false
	for _, k := range jsonSchemaKeys {
		if _, ok := m[k]; ok {
			isSchema = true
		}
	}
	var schema map[string]any
	var fields []Field
	if isSchema {
		schema = m
		if t, ok := schema["type"]; ok && t != "object" {
			r.invalid(field+".type", "the root of an interface schema must be of type object, got %s", quoteValue(t))
			return nil, nil
		}
		if _, ok := schema["type"]; !ok {
			schema["type"] = "object"
		}
		props, _ := schema["properties"].(map[string]any)
		required, _ := schema["required"].([]any)
		var propsNode *yaml.Node
		if node.Kind == yaml.MappingNode {
			propsNode = safeyaml.Lookup(node, "properties")
		}
		for _, name := range orderedKeys(propsNode, props) {
			p, _ := props[name].(map[string]any)
			fields = append(fields, fieldOf(name, p, slices.Contains(required, any(name))))
		}
	} else {
		props := make(map[string]any, len(m))
		var required []any
		for _, name := range orderedKeys(node, m) {
			p := fmt.Sprintf("%s.%s", field, name)
			spec := m[name]
			if t, ok := spec.(string); ok { // "name: string" shorthand
				spec = map[string]any{"type": t}
			}
			sm, ok := spec.(map[string]any)
			if !ok {
				r.invalid(p, "want {type, required, default, description, enum}, got %s", describe(spec))
				continue
			}
			prop := make(map[string]any, len(sm))
			for k, val := range sm {
				switch {
				case k == "required":
					if b, ok := val.(bool); !ok {
						r.invalid(p+".required", "want true or false, got %s", quoteValue(val))
					} else if b {
						required = append(required, name)
					}
				case slices.Contains(compactFieldKeys, k):
					prop[k] = val
				default:
					r.invalid(p+"."+k, "unknown key; use type, required, default, description or enum")
				}
			}
			props[name] = prop
			fields = append(fields, fieldOf(name, prop, slices.Contains(required, any(name))))
		}
		schema = map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			schema["required"] = required
		}
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		r.invalid(field, "cannot be written as JSON Schema: %v", err)
		return nil, nil
	}
	return raw, fields
}

func fieldOf(name string, prop map[string]any, required bool) Field {
	f := Field{Name: name, Required: required, Default: prop["default"]}
	f.Type, _ = prop["type"].(string)
	f.Description, _ = prop["description"].(string)
	f.Enum, _ = prop["enum"].([]any)
	return f
}

// orderedKeys returns the keys of m in the order the mapping node lists them
// (sorted when there is no node).
func orderedKeys(node *yaml.Node, m map[string]any) []string {
	var keys []string
	if node != nil && node.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(node.Content); i += 2 {
			if k := node.Content[i].Value; !slices.Contains(keys, k) {
				if _, ok := m[k]; ok {
					keys = append(keys, k)
				}
			}
		}
	}
	if len(keys) < len(m) {
		var rest []string
		for k := range m {
			if !slices.Contains(keys, k) {
				rest = append(rest, k)
			}
		}
		sort.Strings(rest)
		keys = append(keys, rest...)
	}
	return keys
}
