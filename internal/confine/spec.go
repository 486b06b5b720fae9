package confine

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ErrUnsupported is wrapped by [Prepare] on systems without the kernel
// mechanisms (everything but Linux on amd64 and arm64).
var ErrUnsupported = errors.New("confine: confinement needs Linux")

// ErrReduced is wrapped by the start error of a [Spec] with Strict set when
// a mechanism was not available.
var ErrReduced = errors.New("confine: a confinement mechanism is not available")

// Spec is one program to start confined, and what it may reach.
type Spec struct {
	// Path is the program, an absolute path.
	Path string `json:"path"`
	// Args are the arguments after the program name.
	Args []string `json:"args,omitempty"`
	// Env is the program's complete environment, KEY=value.
	Env []string `json:"env,omitempty"`
	// Dir is the working directory, an absolute path; it is readable.
	Dir string `json:"dir"`
	// System are folders every program reads and executes from (see
	// [DefaultSystemPaths]); missing ones are skipped.
	System []string `json:"system,omitempty"`
	// Read are further paths the program may read and execute.
	Read []string `json:"read,omitempty"`
	// Write are paths the program may read and change.
	Write []string `json:"write,omitempty"`
	// Work are folders made for the program (a staging folder) that it may
	// change as if it owned them: on a root host, where the program runs
	// as nobody, they belong to nobody for the run and return to their
	// owner after it. A Write grant of root's keeps root's modes.
	Work []string `json:"work,omitempty"`
	// Network is the network the program may reach: none by default.
	Network Network `json:"network"`
	// Limits bound what it may use; zero fields take the defaults.
	Limits Limits `json:"limits"`
	// Strict makes the start fail when a mechanism is missing, instead of
	// going on without it.
	Strict bool `json:"strict,omitempty"`

	// Set by Prepare for the helper.
	Home       string `json:"home,omitempty"`
	Namespaces bool   `json:"namespaces,omitempty"`
	SelfMap    bool   `json:"selfMap,omitempty"`
	RootHost   bool   `json:"rootHost,omitempty"`
	UID        int    `json:"uid"`
	GID        int    `json:"gid"`
	// ProxyPort is the host's proxy listener without a network namespace.
	ProxyPort int `json:"proxyPort,omitempty"`
}

// Network is what a program may connect to.
type Network struct {
	// All keeps the host's network.
	All bool `json:"all,omitempty"`
	// Allow, when set, sends the program's HTTP and HTTPS traffic through a
	// proxy that connects only where Allow says yes (host is a name or an
	// address without brackets). It runs in the host process.
	Allow func(host string, port int) bool `json:"-"`
	// Proxy is set for the helper when Allow is.
	Proxy bool `json:"proxy,omitempty"`
}

// Limits bound a confined program. Zero means the default.
type Limits struct {
	// Processes is the most processes (threads included) of the program at
	// once; DefaultProcesses when zero.
	Processes int `json:"processes,omitempty"`
	// FileSize is the largest file it may write, in bytes; DefaultFileSize
	// when zero.
	FileSize int64 `json:"fileSize,omitempty"`
	// Scratch is the size of its private /tmp (HOME included), in bytes;
	// DefaultScratch when zero.
	Scratch int64 `json:"scratch,omitempty"`
}

// The default limits.
const (
	DefaultProcesses = 256
	DefaultFileSize  = 1 << 30 // 1 GiB
	DefaultScratch   = 1 << 30 // 1 GiB, in memory only as far as it is used
)

// WithDefaults fills the zero fields.
func (l Limits) WithDefaults() Limits {
	if l.Processes <= 0 {
		l.Processes = DefaultProcesses
	}
	if l.FileSize <= 0 {
		l.FileSize = DefaultFileSize
	}
	if l.Scratch <= 0 {
		l.Scratch = DefaultScratch
	}
	return l
}

// ScratchDir is the program's private, writable folder (also TMPDIR), and
// ScratchHome its HOME, inside the confinement.
const (
	ScratchDir  = "/tmp"
	ScratchHome = "/tmp/home"
)

// DefaultSystemPaths are the folders of the system's programs, libraries
// and configuration that every confined program reads.
func DefaultSystemPaths() []string {
	return []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
		"/etc", "/opt", "/nix", "/snap", "/var/lib/alternatives", "/var/lib/dpkg/alternatives"}
}

// check refuses a spec the helper could not apply.
func (s *Spec) check() error {
	if !filepath.IsAbs(s.Path) {
		return fmt.Errorf("confine: the program %q is not an absolute path", s.Path)
	}
	if !filepath.IsAbs(s.Dir) {
		return fmt.Errorf("confine: the working folder %q is not an absolute path", s.Dir)
	}
	for _, list := range [][]string{s.System, s.Read, s.Write, s.Work} {
		for _, p := range list {
			if !filepath.IsAbs(p) || strings.ContainsRune(p, 0) {
				return fmt.Errorf("confine: grant %q is not an absolute path", p)
			}
		}
	}
	return nil
}
