package mcpskills

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/skillkit-go/skillkit/skill"
)

// ErrFrontmatter is wrapped by the errors of [Frontmatter].
var ErrFrontmatter = errors.New("mcpskills: frontmatter")

// Frontmatter returns the YAML frontmatter of SKILL.md content as the
// extension carries it: a JSON object holding every field the author
// wrote, in JSON's data model (what encoding/json makes of the YAML
// values). It fails when the file has no frontmatter, the YAML is not a
// mapping, a value has no JSON form (.inf, .nan), or name or description
// is not a string (specification: Frontmatter).
func Frontmatter(skillMD []byte) (map[string]any, error) {
	front, _, err := skill.SplitFrontmatter(skillMD)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFrontmatter, err)
	}
	var v any
	if err := yaml.Unmarshal(front, &v); err != nil {
		return nil, fmt.Errorf("%w: not valid YAML: %w", ErrFrontmatter, err)
	}
	obj, ok := jsonValue(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: not a mapping", ErrFrontmatter)
	}
	out, err := canonical(obj)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFrontmatter, err)
	}
	for _, k := range []string{"name", "description"} {
		if _, ok := out[k].(string); !ok {
			return nil, fmt.Errorf("%w: %s is missing or not a string", ErrFrontmatter, k)
		}
	}
	return out, nil
}

// jsonValue turns what yaml.v3 decodes into values encoding/json writes:
// mappings with non-string keys get their keys' text.
func jsonValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = jsonValue(e)
		}
		return v
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = jsonValue(e)
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = jsonValue(e)
		}
		return v
	}
	return v
}

// canonical returns obj as encoding/json reads it back, so that two
// objects compare equal exactly when their JSON is the same.
func canonical(obj map[string]any) (map[string]any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// sameFrontmatter compares two frontmatter objects field by field, through
// their canonical JSON (encoding/json sorts keys).
func sameFrontmatter(a, b map[string]any) bool {
	ca, errA := canonical(a)
	cb, errB := canonical(b)
	if errA != nil || errB != nil {
		return false
	}
	ja, _ := json.Marshal(ca)
	jb, _ := json.Marshal(cb)
	return bytes.Equal(ja, jb)
}
