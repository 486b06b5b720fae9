package skillkit_test

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// configFieldHeading marks a field in docs/skill-config.md: one
// "### `path`" heading each.
var configFieldHeading = regexp.MustCompile("(?m)^### `([^`]+)`$")

// configFields derives the fields of skill.config.yaml from the skill.Config
// struct: the JSON tags, which name the file's keys, walked into nested
// structs ("dependencies.python.source") and lists of structs
// ("env[].name"). Two fields differ from their tags: Timeout is written
// "timeout" (in milliseconds) and Interface.InputFields is derived from
// interface.input, not read from the file. permissions.network is one key
// whatever its form, not the fields of skill.NetworkAccess.
func configFields(t *testing.T) []string {
	t.Helper()
	rawJSON := reflect.TypeFor[json.RawMessage]()
	var out []string
	var walk func(prefix string, typ reflect.Type)
	walk = func(prefix string, typ reflect.Type) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case f.Name == "Timeout" && typ == reflect.TypeFor[skill.Config]():
				name = "timeout"
			case f.Name == "InputFields" && typ == reflect.TypeFor[skill.Interface]():
				continue
			case name == "" || name == "-":
				t.Fatalf("%s.%s has no JSON tag: say here which key of the file it is", typ, f.Name)
			}
			path := prefix + name
			out = append(out, path)
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Slice && ft != rawJSON && ft.Elem().Kind() == reflect.Struct {
				walk(path+"[].", ft.Elem())
			} else if ft.Kind() == reflect.Struct && ft != reflect.TypeFor[skill.NetworkAccess]() {
				// NetworkAccess is one key, network: true, false or a list.
				walk(path+".", ft)
			}
		}
	}
	walk("", reflect.TypeFor[skill.Config]())
	slices.Sort(out)
	return out
}

// TestSkillConfigDoc keeps docs/skill-config.md the complete reference of
// skill.config.yaml: it documents every field of skill.Config and no other,
// each with a type, a default and an example, and every YAML example in it
// parses with skill.ParseConfig without an error or an unknown field.
func TestSkillConfigDoc(t *testing.T) {
	doc, err := os.ReadFile("docs/skill-config.md")
	if err != nil {
		t.Fatal(err)
	}
	var headings []string
	for _, m := range configFieldHeading.FindAllSubmatch(doc, -1) {
		headings = append(headings, string(m[1]))
	}
	documented := slices.Sorted(slices.Values(headings))
	if diff := cmp.Diff(configFields(t), documented); diff != "" {
		t.Errorf("fields of skill.Config (-) and headings of docs/skill-config.md (+) differ:\n%s", diff)
	}

	sections := configFieldHeading.Split(string(doc), -1)[1:]
	for i, section := range sections {
		field := headings[i]
		if !strings.Contains(section, "**Type**") || !(strings.Contains(section, "**Default**") || strings.Contains(section, "**Required")) {
			t.Errorf("%s: the section does not give its type and default", field)
		}
		if !strings.Contains(section, "```yaml\n") {
			t.Errorf("%s: the section has no example", field)
		}
	}

	examples := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(examples) < len(documented) {
		t.Fatalf("%d YAML examples for %d fields", len(examples), len(documented))
	}
	for _, ex := range examples {
		if cfg, diags := skill.ParseConfig(ex[1]); !parsesCleanly(cfg, diags) {
			t.Errorf("example does not parse cleanly: %v\n%s", diags, ex[1])
		}
	}
}

// parsesCleanly reports a config read without an error, a warning or an
// unknown field (FIELD_UNKNOWN is only informational).
func parsesCleanly(cfg *skill.Config, diags diagnostics.List) bool {
	return cfg != nil && len(diags.AtLeast(diagnostics.Warning)) == 0 && !diags.Has(diagnostics.FieldUnknown)
}

// TestSkillConfigDocCatchesMistakes: an example with an unknown or invalid
// field would fail TestSkillConfigDoc.
func TestSkillConfigDocCatchesMistakes(t *testing.T) {
	for _, bad := range []string{"runtime: python\nentry: run.py\n", "setup:\n  posix: ../outside.sh\n", "dependencies:\n  ruby: {gems: [rake]}\n"} {
		if cfg, diags := skill.ParseConfig([]byte(bad)); parsesCleanly(cfg, diags) {
			t.Errorf("%q parses cleanly", bad)
		}
	}
}
