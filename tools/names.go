package tools

import (
	"fmt"
	"strings"
)

// MaxNameEnum is the most skill names a tool's schema lists as the enum of
// its name argument. Past it the schema says only "a name" (a list of
// 100,000 names is megabytes in every request to the model), the model
// finds names in the catalog or with search_skills, and a wrong name is
// answered with the closest few instead of every one.
const MaxNameEnum = 500

// nameSet is the names a tool accepts.
type nameSet struct {
	sorted []string
	set    map[string]bool
}

func newNameSet(names []string) nameSet {
	ns := nameSet{sorted: sortedCopy(names), set: make(map[string]bool, len(names))}
	for _, n := range names {
		ns.set[n] = true
	}
	return ns
}

func (ns nameSet) has(name string) bool { return ns.set[name] }

// property is the schema of the name argument: an enum of the names, or a
// string with what to do instead when there are too many.
func (ns nameSet) property(description string) map[string]any {
	if len(ns.sorted) <= MaxNameEnum {
		return map[string]any{"type": "string", "enum": ns.sorted, "description": description}
	}
	return map[string]any{"type": "string", "minLength": 1, "maxLength": 256,
		"description": description + " One of the " + fmt.Sprint(len(ns.sorted)) + " names in <available_skills> or found with search_skills."}
}

// unknown is the answer to a name the tool does not accept: every name
// when they are few, else the closest ones.
func (ns nameSet) unknown(kind, name string) Result {
	if len(ns.sorted) <= MaxNameEnum {
		return Errorf("unknown %s %q; the ones you can use are: %s", kind, name, strings.Join(ns.sorted, ", "))
	}
	var similar []string
	lower := strings.ToLower(name)
	for _, n := range ns.sorted {
		if len(similar) == 10 {
			break
		}
		if lower != "" && (strings.Contains(n, lower) || strings.Contains(lower, n)) {
			similar = append(similar, n)
		}
	}
	msg := fmt.Sprintf("unknown %s %q among %d; call search_skills with what you need to find its name", kind, name, len(ns.sorted))
	if len(similar) > 0 {
		msg += "; names like it: " + strings.Join(similar, ", ")
	}
	return Errorf("%s", msg)
}
