package installer

import (
	"maps"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/skillkit-go/skillkit/executor"
)

// Timeouts of the commands [Installer.InstallDeps] runs.
const (
	// DefaultDepsTimeout bounds one install command (creating a venv, pip
	// or uv pip install, npm install, dotnet restore) when
	// DepsConfig.Timeout is zero.
	DefaultDepsTimeout = 10 * time.Minute
	// CheckTimeout bounds one system dependency's check command.
	CheckTimeout = 10 * time.Second
	// SetupTimeout bounds a setup script (seed 000 §10.9).
	SetupTimeout = 120 * time.Second
)

// DepsConfig says how [Installer.InstallDeps] installs dependencies, and
// the PATH a [DepsChecker] looks programs up in (Options.Deps). A nil
// *DepsConfig, and every zero field, means the default named on the field.
//
// Every command runs through Options.Runner, without a shell, with a
// controlled environment: the host's PATH, HOME, USER, LANG, LC_ALL, TZ,
// TEMP, TMP, TMPDIR, HTTP_PROXY, HTTPS_PROXY and NO_PROXY (on Windows also
// SYSTEMROOT, WINDIR, COMSPEC, PATHEXT, USERPROFILE, APPDATA and
// LOCALAPPDATA, without which pip and npm do not start there), then
// PIP_DISABLE_PIP_VERSION_CHECK=1, PIP_NO_INPUT=1,
// npm_config_update_notifier=false, npm_config_fund=false,
// npm_config_audit=false, DOTNET_CLI_TELEMETRY_OPTOUT=1 and
// DOTNET_NOLOGO=1, then Env. Nothing else of the host's environment (its
// secrets, its PIP_* or npm_config_* settings) reaches the tools unless Env
// passes it.
type DepsConfig struct {
	// Env adds variables to the tools' environment, over the ones above:
	// the host's index or registry (PIP_INDEX_URL, PIP_FIND_LINKS,
	// UV_INDEX_URL, npm_config_registry), a proxy or CA bundle, another
	// PATH or HOME. These are the host's choice, so they are not held to
	// the rules skill.ValidateEnvName applies to a skill's variables.
	Env map[string]string
	// PipArgs are added to "pip install" and "uv pip install" (both take
	// --no-index, --find-links DIR, --index-url URL). The host's, so not
	// checked. Wherever a command is shown (DepsResult.Logs, progress
	// events, DepsError) the user info of URLs ("https://***@host") and the
	// values of secret options (--password, --token, npm's --_auth and
	// --//host/:_authToken) are masked; the command runs with them.
	PipArgs []string
	// NpmArgs are added to "npm install" (--registry URL, --offline, ...),
	// masked in what is shown as PipArgs are.
	NpmArgs []string
	// Timeout bounds each install command. Default DefaultDepsTimeout.
	Timeout time.Duration
	// Python creates the venv when uv is not used. Default "python3"
	// ("python" on Windows).
	Python string
	// UV is the uv program, used for Python dependencies when it runs
	// ("uv --version" succeeds). Default "uv".
	UV string
	// NoUV always uses Python's venv module and pip, even where uv is
	// installed.
	NoUV bool
	// Npm is the npm program. Default "npm".
	Npm string
	// Dotnet is the dotnet program. Default "dotnet".
	Dotnet string
	// LookupEnv reads the host's environment for the variables passed on.
	// Default os.LookupEnv.
	LookupEnv func(string) (string, bool)
}

// depsConfig is a DepsConfig with its defaults filled in.
type depsConfig struct {
	env     map[string]string // the complete environment of every command
	pipArgs []string
	npmArgs []string
	timeout time.Duration
	python  string
	uv      string
	noUV    bool
	npm     string
	dotnet  string
}

// hostVariables are the host variables the tools see.
func hostVariables() []string {
	names := executor.DefaultEnvWhitelist()
	if runtime.GOOS == "windows" {
		names = append(names, "SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA")
	}
	return names
}

func (c *DepsConfig) resolve() depsConfig {
	if c == nil {
		c = &DepsConfig{}
	}
	lookup := c.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	env := map[string]string{}
	for _, name := range hostVariables() {
		if v, ok := lookup(name); ok {
			env[name] = v
		}
	}
	maps.Copy(env, map[string]string{
		"PIP_DISABLE_PIP_VERSION_CHECK": "1",
		"PIP_NO_INPUT":                  "1",
		"npm_config_update_notifier":    "false",
		"npm_config_fund":               "false",
		"npm_config_audit":              "false",
		"DOTNET_CLI_TELEMETRY_OPTOUT":   "1",
		"DOTNET_NOLOGO":                 "1",
	})
	maps.Copy(env, c.Env)
	r := depsConfig{
		env:     env,
		pipArgs: slices.Clone(c.PipArgs),
		npmArgs: slices.Clone(c.NpmArgs),
		timeout: c.Timeout,
		python:  c.Python,
		uv:      c.UV,
		noUV:    c.NoUV,
		npm:     c.Npm,
		dotnet:  c.Dotnet,
	}
	if r.timeout <= 0 {
		r.timeout = DefaultDepsTimeout
	}
	if r.python == "" {
		r.python = defaultPython()
	}
	if r.uv == "" {
		r.uv = "uv"
	}
	if r.npm == "" {
		r.npm = "npm"
	}
	if r.dotnet == "" {
		r.dotnet = "dotnet"
	}
	return r
}

// commandEnv returns a copy of the environment, for a command to extend.
func (c depsConfig) commandEnv() map[string]string { return maps.Clone(c.env) }

func defaultPython() string {
	if runtime.GOOS == "windows" {
		return "python"
	}
	return "python3"
}
