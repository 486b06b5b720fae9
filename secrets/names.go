package secrets

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/skill"
)

// MaxNameLen is the longest skill or variable name, in bytes, that secrets
// accepts; both become file names in [FSStore].
const MaxNameLen = 128

// ValidateSkillName checks that a skill name can hold secrets: 1 to
// [MaxNameLen] bytes of valid UTF-8, only letters, digits, '-', '_' and '.',
// not starting with '.'. Every name the Agent Skills specification allows
// passes, and so do the looser names lenient loading accepts, but nothing
// that could leave a folder. Errors wrap [skill.ErrInvalidName].
func ValidateSkillName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: empty", skill.ErrInvalidName)
	case len(name) > MaxNameLen:
		return fmt.Errorf("%w: %d bytes, over the limit of %d", skill.ErrInvalidName, len(name), MaxNameLen)
	case !utf8.ValidString(name):
		return fmt.Errorf("%w: not valid UTF-8", skill.ErrInvalidName)
	case name[0] == '.':
		return fmt.Errorf("%w: %q starts with a dot", skill.ErrInvalidName, name)
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' && r != '.' {
			return fmt.Errorf("%w: %q has the character %q", skill.ErrInvalidName, name, r)
		}
	}
	return nil
}

// validateKeyName checks a variable name with [skill.ValidateEnvName] and
// the length limit.
func validateKeyName(name string) error {
	if len(name) > MaxNameLen {
		return fmt.Errorf("%w: %d bytes, over the limit of %d", skill.ErrInvalidEnvName, len(name), MaxNameLen)
	}
	return skill.ValidateEnvName(name)
}

// checkNames validates a skill name and a variable name.
func checkNames(skillName, name string) error {
	if err := ValidateSkillName(skillName); err != nil {
		return err
	}
	return validateKeyName(name)
}
