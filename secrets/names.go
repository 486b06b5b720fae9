package secrets

import (
	"fmt"

	"github.com/skillkit-go/skillkit/skill"
)

// MaxNameLen is the longest variable name, in bytes, that secrets accepts;
// it becomes a file name in [FSStore]. Skill names follow
// [skill.ValidateKey].
const MaxNameLen = 128

// validateKeyName checks a variable name with [skill.ValidateEnvName] and
// the length limit.
func validateKeyName(name string) error {
	if len(name) > MaxNameLen {
		return fmt.Errorf("%w: %d bytes, over the limit of %d", skill.ErrInvalidEnvName, len(name), MaxNameLen)
	}
	return skill.ValidateEnvName(name)
}

// ValidateNames checks the names of a value as every [Store] must: the
// skill's name with [skill.ValidateKey], the variable's with
// [skill.ValidateEnvName] and the length limit [MaxNameLen]. Errors wrap
// [skill.ErrInvalidName] or [skill.ErrInvalidEnvName].
func ValidateNames(skillName, variable string) error { return checkNames(skillName, variable) }

// checkNames validates a skill name and a variable name.
func checkNames(skillName, name string) error {
	if err := skill.ValidateKey(skillName); err != nil {
		return err
	}
	return validateKeyName(name)
}
