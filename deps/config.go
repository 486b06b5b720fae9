package deps

import (
	"maps"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/skillkit-go/skillkit/executor"
)

// Timeouts of the commands [Installer.Install] runs.
const (
	// DefaultTimeout bounds one install command (creating a venv, pip or
	// uv pip install, npm install, dotnet restore) when Options.Timeout is
	// zero.
	DefaultTimeout = 10 * time.Minute
	// CheckTimeout bounds one system dependency's check command.
	CheckTimeout = 10 * time.Second
	// SetupTimeout bounds a setup script.
	SetupTimeout = 120 * time.Second
)

// Options say how an [Installer] installs dependencies, and the PATH a
// [Checker] looks programs up in. A nil *Options, and every zero field,
// means the default named on the field.
//
// Every command runs through Runner, without a shell, with a
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
type Options struct {
	// Runner runs the tools (uv, python, npm, dotnet, check commands, setup
	// scripts). Default: an executor.LocalRunner. A host that sandboxes
	// them passes its own.
	Runner executor.Runner
	// Progress, when set, receives the log lines of every Install as events
	// (Op OpDeps), then one final event: a host forwards them as
	// skill_deps_progress and skill_deps_done. A Runner returns output when
	// the command ends, so each line comes once its command ended. It is
	// called on the goroutine doing the work and must return quickly.
	Progress func(Event)
	// Env adds variables to the tools' environment, over the ones above:
	// the host's index or registry (PIP_INDEX_URL, PIP_FIND_LINKS,
	// UV_INDEX_URL, npm_config_registry), a proxy or CA bundle, another
	// PATH or HOME. These are the host's choice, so they are not held to
	// the rules skill.ValidateEnvName applies to a skill's variables.
	Env map[string]string
	// PipArgs are added to "pip install" and "uv pip install" (both take
	// --no-index, --find-links DIR, --index-url URL). The host's, so not
	// checked. Wherever a command is shown (Result.Logs, progress
	// events, CommandError) the user info of URLs ("https://***@host") and the
	// values of secret options (--password, --token, npm's --_auth and
	// --//host/:_authToken) are masked; the command runs with them.
	PipArgs []string
	// NpmArgs are added to "npm install" (--registry URL, --offline, ...),
	// masked in what is shown as PipArgs are.
	NpmArgs []string
	// RegistryHosts are further hosts ("host" or "host:port") an install
	// step may reach through its confinement's proxy, besides
	// DefaultRegistryHosts and the hosts that Env, PipArgs and NpmArgs name
	// in URLs.
	RegistryHosts []string
	// Timeout bounds each install command. Default DefaultTimeout.
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

// config is Options with its defaults filled in.
type config struct {
	env     map[string]string // the complete environment of every command
	pipArgs []string
	npmArgs []string
	// registryHosts are Options.RegistryHosts.
	registryHosts []string
	timeout       time.Duration
	python        string
	uv            string
	noUV          bool
	npm           string
	dotnet        string
}

// hostVariables are the host variables the tools see.
func hostVariables() []string {
	names := executor.DefaultEnvWhitelist()
	if runtime.GOOS == "windows" {
		names = append(names, "SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA")
	}
	return names
}

func (c *Options) resolve() config {
	if c == nil {
		c = &Options{}
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
	r := config{
		env:           env,
		pipArgs:       slices.Clone(c.PipArgs),
		npmArgs:       slices.Clone(c.NpmArgs),
		registryHosts: slices.Clone(c.RegistryHosts),
		timeout:       c.Timeout,
		python:        c.Python,
		uv:            c.UV,
		noUV:          c.NoUV,
		npm:           c.Npm,
		dotnet:        c.Dotnet,
	}
	if r.timeout <= 0 {
		r.timeout = DefaultTimeout
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
func (c config) commandEnv() map[string]string { return maps.Clone(c.env) }

func defaultPython() string {
	if runtime.GOOS == "windows" {
		return "python"
	}
	return "python3"
}
