package executor

import (
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/internal/confine"
	"github.com/skillkit-go/skillkit/skill"
)

// Confinement is what a command run by a [LocalRunner] may reach besides
// what every command gets: the system's programs and configuration
// read-only, its working folder read-only, and a private scratch space
// (TMPDIR, and HOME, an empty folder in it). The package documentation
// says how each part is enforced.
type Confinement struct {
	// Read are further absolute paths the command may read.
	Read []string
	// Write are absolute paths it may read and change.
	Write []string
	// Work are folders made for the command (a staging folder) that it
	// may change as if it owned them: on a root host, where commands run as
	// nobody, they belong to nobody for the run and return to their owner
	// after it. A Write grant keeps its owner and modes.
	Work []string
	// Network is what it may connect to; the zero value is nothing. With a
	// list of hosts its HTTP and HTTPS traffic goes through a proxy in the
	// host process that connects to those hosts only; a name that resolves
	// to an address of this machine or of a private network is refused
	// unless declared as that address (or as localhost or a name under
	// .localhost, which mean this machine).
	Network skill.NetworkAccess
}

// ConfinementOf is the confinement of skill s's processes: what its
// permissions declare, with "~" meaning home (the host user's home folder).
// A write grant inside the skill's own folder is a Work folder: on a root
// host it is lent to the skill's user for the run.
func ConfinementOf(s *skill.Skill, home string) *Confinement {
	dir, _ := filepath.Abs(s.DiskDir)
	var perms skill.Permissions
	if s.Config != nil {
		perms = s.Config.Permissions
	}
	read, write := perms.Resolve(dir, home)
	c := &Confinement{Read: read, Write: []string{}, Network: perms.Network}
	for _, w := range write {
		if w == dir || strings.HasPrefix(w, dir+string(filepath.Separator)) {
			c.Work = append(c.Work, w)
		} else {
			c.Write = append(c.Write, w)
		}
	}
	return c
}

// Inside the confinement of a [LocalRunner] (with namespaces), the
// variables HOME and TMPDIR, TMP, TEMP, where a command has them, name its
// private scratch space.
const (
	ConfinedHome = confine.ScratchHome
	ConfinedTemp = confine.ScratchDir
)

// Limits bound what a confined command may use. Zero fields take the
// defaults: 256 processes, files of 1 GiB, 1 GiB of scratch space.
type Limits struct {
	// Processes is the most processes (threads included) alive at once.
	Processes int
	// FileSize is the largest file it may write, in bytes.
	FileSize int64
	// Scratch is the size of its private /tmp (HOME included), in bytes.
	Scratch int64
}

// DefaultSystemPaths are the folders every confined command reads: the
// system's programs, libraries and configuration.
func DefaultSystemPaths() []string { return confine.DefaultSystemPaths() }

// programPaths are the folders a command needs to find and run its
// programs: the program's own installation (the folder above the bin
// folder it lies in, symbolic links followed), and each absolute folder of
// PATH; a version manager's shims folder (pyenv, rbenv, asdf) brings its
// installation, the folder above it. Never the home folder itself, nor a
// folder above it.
func programPaths(program string, env map[string]string, home string) []string {
	var out []string
	add := func(dir string) {
		dir = filepath.Clean(dir)
		if dir == "/" || home != "" && (dir == home || strings.HasPrefix(home, dir+"/")) {
			return
		}
		if !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	for _, p := range []string{program, evalSymlinks(program)} {
		dir := filepath.Dir(p)
		add(dir)
		if b := filepath.Base(dir); b == "bin" || b == "sbin" {
			add(filepath.Dir(dir))
		}
	}
	if path, ok := envLookup(env, "PATH"); ok {
		for _, dir := range filepath.SplitList(path) {
			if !filepath.IsAbs(dir) {
				continue
			}
			add(dir)
			if filepath.Base(dir) == "shims" {
				add(filepath.Dir(dir))
			}
		}
	}
	return out
}

func evalSymlinks(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// homeDir is the host user's home folder, "" when unknown.
func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}

// Named finds, in a command's arguments (and option values, "--opt=value",
// and lists split at commas, semicolons, spaces, quotes and brackets, as a
// JSON list in a variable), the absolute paths of
// files and folders that exist and the hosts of http and https URLs
// ("host" or "host:port"): what a command names, which its confinement
// lets it reach when the person who typed it chose it (an index, a
// package, a server's skills folder).
func Named(values ...string) (paths, hosts []string) {
	for _, v := range values {
		for _, part := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(" ,;\n\"'[]{}", r) }) {
			if _, val, ok := strings.Cut(part, "="); ok && strings.HasPrefix(part, "-") {
				part = val
			}
			part = strings.TrimPrefix(part, "file:")
			if u, err := url.Parse(part); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
				host := strings.ToLower(u.Hostname())
				if p := u.Port(); p != "" {
					host = net.JoinHostPort(host, p)
				} else if strings.Contains(host, ":") {
					host = "[" + host + "]"
				}
				if !slices.Contains(hosts, host) {
					hosts = append(hosts, host)
				}
				continue
			}
			part = strings.TrimPrefix(part, "//")
			if filepath.IsAbs(part) {
				if _, err := os.Stat(part); err == nil && !slices.Contains(paths, filepath.Clean(part)) {
					paths = append(paths, filepath.Clean(part))
				}
			}
		}
	}
	return paths, hosts
}
