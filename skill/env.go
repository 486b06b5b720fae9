package skill

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skillkit-go/skillkit/internal/lazyregexp"
)

// EnvVar declares an environment variable a skill needs, from
// skill.config.yaml "env", skillkit's frontmatter "metadata.env", Hermes'
// "required_environment_variables" or OpenClaw's "envVars".
type EnvVar struct {
	Name        string  `json:"name"`
	Required    bool    `json:"required"`
	Description string  `json:"description,omitempty"`
	Default     *string `json:"default,omitempty"`
}

// ErrInvalidEnvName is wrapped by [ValidateEnvName] errors.
var ErrInvalidEnvName = errors.New("skill: invalid environment variable name")

var envNamePattern = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// loaderEnvNames change how a program loads its code or which interpreter
// runs; a skill may never set them, whatever it declares.
var loaderEnvNames = map[string]bool{
	"NODE_OPTIONS": true, "NODE_PATH": true, "NODE_REPL_EXTERNAL_MODULE": true,
	"PYTHONPATH": true, "PYTHONHOME": true, "PYTHONSTARTUP": true, "PYTHONINSPECT": true,
	"PYTHONUSERBASE": true, "PYTHONEXECUTABLE": true, "PYTHONWARNINGS": true, "PYTHONBREAKPOINT": true,
	"BASH_ENV": true, "ENV": true, "SHELLOPTS": true, "BASHOPTS": true, "PS4": true, "IFS": true,
	"PROMPT_COMMAND": true, "BASH_LOADABLES_PATH": true, "ZDOTDIR": true,
	"PERL5LIB": true, "PERL5OPT": true, "PERLLIB": true,
	"RUBYLIB": true, "RUBYOPT": true, "GEM_PATH": true, "GEM_HOME": true,
	"JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "CLASSPATH": true,
	"DOTNET_STARTUP_HOOKS": true, "DOTNET_ADDITIONAL_DEPS": true, "CORECLR_PROFILER": true,
	"CORECLR_PROFILER_PATH": true, "CORECLR_ENABLE_PROFILING": true,
	"LUA_PATH": true, "LUA_CPATH": true, "LUA_INIT": true, "TCLLIBPATH": true,
	"PHPRC": true, "PHP_INI_SCAN_DIR": true, "OPENSSL_CONF": true, "OPENSSL_ENGINES": true,
	// glibc's iconv modules; git's configuration, helpers and hooks.
	"GCONV_PATH": true, "GIT_SSH": true, "GIT_SSH_COMMAND": true, "GIT_EXEC_PATH": true,
	"GIT_CONFIG": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true, "GIT_PROXY_COMMAND": true,
	"GIT_EXTERNAL_DIFF": true, "GIT_TEMPLATE_DIR": true,
	"PATH": true,
	// Where programs read their configuration (git's ~/.gitconfig, npm's
	// ~/.npmrc, pip's config, shell start files) and which programs they
	// start for paging, editing, opening URLs or asking for a password.
	"HOME": true, "PAGER": true, "MANPAGER": true, "EDITOR": true, "VISUAL": true,
	"BROWSER": true, "SUDO_ASKPASS": true,
	// Where commands send their network traffic: a skill must not redirect
	// what runs in its folder through a proxy of its choosing.
	"HTTP_PROXY": true, "HTTPS_PROXY": true, "FTP_PROXY": true, "ALL_PROXY": true, "NO_PROXY": true,
}

// loaderEnvPrefixes are refused as prefixes: LD_PRELOAD, DYLD_INSERT_LIBRARIES,
// bash's exported functions, every GIT_* variable (GIT_DIR, GIT_WORK_TREE,
// GIT_PAGER, GIT_EDITOR, GIT_CONFIG_COUNT/KEY_n/VALUE_n/PARAMETERS: any git
// option, core.sshCommand included), XDG_* (where programs find their
// configuration), less's LESS, LESSOPEN, LESSCLOSE, LESSKEY..., NPM_CONFIG_*
// (any npm option: script-shell, node-options), the versioned LUA_INIT_5_4.
var loaderEnvPrefixes = []string{"LD_", "DYLD_", "BASH_FUNC_", "GIT_", "XDG_", "LESS", "NPM_CONFIG_", "LUA_INIT_", "LUA_PATH_", "LUA_CPATH_"}

// ValidateEnvName checks that name can be a skill's environment variable: it
// matches ^[A-Za-z_][A-Za-z0-9_]*$ and, compared without regard to case, is
// not one of the names that change how programs load code or which programs
// they start (LD_*, DYLD_*, NODE_OPTIONS, PYTHONPATH, PYTHONHOME, BASH_ENV,
// PATH, HOME, XDG_*, GIT_*, NPM_CONFIG_*, PAGER, MANPAGER, EDITOR, VISUAL,
// BROWSER, LESS*, SUDO_ASKPASS, ...) nor where they send network traffic
// (HTTP_PROXY, HTTPS_PROXY, FTP_PROXY, ALL_PROXY, NO_PROXY). Such a name
// would let a skill's configuration (or a value an agent saves for it) take
// over, or redirect, every process started with its variables: its
// entrypoint, and the commands a host's shell tool runs in its folder.
// Errors wrap [ErrInvalidEnvName].
func ValidateEnvName(name string) error {
	if !envNamePattern().MatchString(name) {
		return fmt.Errorf("%w: %q must match [A-Za-z_][A-Za-z0-9_]*", ErrInvalidEnvName, name)
	}
	upper := strings.ToUpper(name)
	if loaderEnvNames[upper] {
		return fmt.Errorf("%w: %s changes how programs start and cannot be set by a skill", ErrInvalidEnvName, name)
	}
	for _, p := range loaderEnvPrefixes {
		if strings.HasPrefix(upper, p) {
			return fmt.Errorf("%w: %s: %s* variables change how programs start and cannot be set by a skill", ErrInvalidEnvName, name, p)
		}
	}
	return nil
}
