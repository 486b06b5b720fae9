package skill

import (
	"fmt"
	"net/netip"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Permissions are what a skill's processes may reach beyond what every
// skill gets (its own folder read-only, the system's programs read-only, a
// private scratch space and HOME). They come from the permissions section
// of skill.config.yaml; the zero value asks for nothing more: no network,
// no other file. docs/skill-config.md describes the field.
type Permissions struct {
	// Network is the network the skill's processes may reach.
	Network NetworkAccess `json:"network"`
	// Read are further paths its processes may read, in their canonical
	// form (see [Permissions.Resolve]).
	Read []string `json:"read,omitempty"`
	// Write are further paths its processes may read and write.
	Write []string `json:"write,omitempty"`
}

// NetworkAccess is the network a skill may reach: nothing (the zero
// value), everything (All), or the listed hosts only.
type NetworkAccess struct {
	// All is "network: true": every host, loopback included.
	All bool `json:"all,omitempty"`
	// Hosts are the hosts the skill may connect to, each "host" (any port)
	// or "host:port", lower case; "*.example.com" stands for every
	// subdomain of example.com, not example.com itself. An IPv6 address is
	// written in brackets: "[2001:db8::1]:443".
	Hosts []string `json:"hosts,omitempty"`
}

// None reports whether the skill may reach no network at all.
func (n NetworkAccess) None() bool { return !n.All && len(n.Hosts) == 0 }

// Empty reports whether p asks for nothing beyond what every skill gets.
func (p Permissions) Empty() bool {
	return p.Network.None() && len(p.Read) == 0 && len(p.Write) == 0
}

// String is a one-line summary for people: "network: none; read: ~/data;
// write: out".
func (p Permissions) String() string {
	var parts []string
	switch {
	case p.Network.All:
		parts = append(parts, "network: all")
	case len(p.Network.Hosts) > 0:
		parts = append(parts, "network: "+strings.Join(p.Network.Hosts, ", "))
	default:
		parts = append(parts, "network: none")
	}
	if len(p.Read) > 0 {
		parts = append(parts, "read: "+strings.Join(p.Read, ", "))
	}
	if len(p.Write) > 0 {
		parts = append(parts, "write: "+strings.Join(p.Write, ", "))
	}
	return strings.Join(parts, "; ")
}

// Beyond lists what p grants that old does not, one entry per grant, for
// people ("network: all", "network: api.example.com", "read: ~/data",
// "write: out"); nil when p asks for nothing old did not allow. A host
// is covered by All, by the same host without a port, or by a matching
// "*." entry; a path by itself or a path above it (a write grant covers
// reads too).
func (p Permissions) Beyond(old Permissions) []string {
	var more []string
	if p.Network.All && !old.Network.All {
		more = append(more, "network: all")
	}
	if !p.Network.All && !old.Network.All {
		for _, h := range p.Network.Hosts {
			if !hostCovered(h, old.Network.Hosts) {
				more = append(more, "network: "+h)
			}
		}
	}
	for _, r := range p.Read {
		if !pathCovered(r, old.Read) && !pathCovered(r, old.Write) {
			more = append(more, "read: "+r)
		}
	}
	for _, w := range p.Write {
		if !pathCovered(w, old.Write) {
			more = append(more, "write: "+w)
		}
	}
	return more
}

// AllowsHost reports whether the skill may connect to host (a name or an
// IP address, without brackets) on port.
func (n NetworkAccess) AllowsHost(host string, port int) bool {
	if n.All {
		return true
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if addr, err := netip.ParseAddr(host); err == nil && addr.Is6() {
		host = "[" + addr.String() + "]"
	}
	for _, h := range n.Hosts {
		name, p := splitHostPort(h)
		if p != 0 && p != port {
			continue
		}
		if name == host || strings.HasPrefix(name, "*.") && strings.HasSuffix(host, name[1:]) {
			return true
		}
	}
	return false
}

// Resolve returns the read and write paths as absolute paths of this
// machine: a path starting with "/" stays as it is, "~" and "~/..." are
// under home (the host user's home folder, not the private HOME a skill's
// processes get), and any other path is inside skillDir ("." is skillDir
// itself).
func (p Permissions) Resolve(skillDir, home string) (read, write []string) {
	abs := func(list []string) []string {
		out := make([]string, 0, len(list))
		for _, q := range list {
			switch {
			case strings.HasPrefix(q, "/"):
				out = append(out, q)
			case q == "~":
				out = append(out, home)
			case strings.HasPrefix(q, "~/"):
				out = append(out, path.Join(home, q[2:]))
			case q == ".":
				out = append(out, skillDir)
			default:
				out = append(out, path.Join(skillDir, q))
			}
		}
		return out
	}
	return abs(p.Read), abs(p.Write)
}

func hostCovered(h string, old []string) bool {
	name, port := splitHostPort(h)
	for _, o := range old {
		oname, oport := splitHostPort(o)
		if oport != 0 && oport != port {
			continue
		}
		if oname == name || strings.HasPrefix(oname, "*.") && strings.HasSuffix(name, oname[1:]) {
			return true
		}
	}
	return false
}

func pathCovered(p string, old []string) bool {
	for _, o := range old {
		if o == p || o == "." && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") ||
			strings.HasPrefix(p, strings.TrimSuffix(o, "/")+"/") {
			return true
		}
	}
	return false
}

// splitHostPort splits a canonical host entry; port 0 means any.
func splitHostPort(h string) (string, int) {
	i := strings.LastIndexByte(h, ':')
	if i < 0 || strings.HasSuffix(h, "]") {
		return h, 0
	}
	port, err := strconv.Atoi(h[i+1:])
	if err != nil {
		return h, 0
	}
	return h[:i], port
}

// readPermissions reads the permissions section of skill.config.yaml.
func readPermissions(r *fieldReader, v any) Permissions {
	var p Permissions
	m := r.mapping("permissions", v)
	if m == nil {
		return p
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k != "network" && k != "read" && k != "write" {
			r.invalid("permissions."+k, "unknown field; use network, read and write")
		}
	}
	switch x := m["network"].(type) {
	case nil:
	case bool:
		p.Network.All = x
	case []any:
		for i, item := range x {
			field := fmt.Sprintf("permissions.network[%d]", i)
			s, ok := scalarText(item)
			if !ok {
				r.invalid(field, "want a host or host:port, got %s", describe(item))
				continue
			}
			h, err := CanonicalHost(s)
			if err != nil {
				r.invalid(field, "%v", err)
				continue
			}
			if !slices.Contains(p.Network.Hosts, h) {
				p.Network.Hosts = append(p.Network.Hosts, h)
			}
		}
	default:
		r.invalid("permissions.network", "want true, false or a list of hosts, got %s", quoteValue(x))
	}
	p.Read = readGrantPaths(r, "permissions.read", m["read"])
	p.Write = readGrantPaths(r, "permissions.write", m["write"])
	return p
}

func readGrantPaths(r *fieldReader, field string, v any) []string {
	var out []string
	for i, s := range r.list(field, v, false) {
		q, err := CanonicalGrantPath(s)
		if err != nil {
			r.invalid(fmt.Sprintf("%s[%d]", field, i), "%v", err)
			continue
		}
		if !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return out
}

// CanonicalGrantPath checks a path of permissions.read or permissions.write
// and returns its canonical form: an absolute path ("/data/in"), one under
// the user's home ("~", "~/.cache/tool") or one inside the skill folder
// ("out", or "." for the folder itself), cleaned, without a trailing slash.
// "~user" forms, Windows paths, NUL and control characters, and relative
// paths that leave the skill folder are refused.
func CanonicalGrantPath(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", fmt.Errorf("%w: an empty path", ErrUnsafePath)
	case strings.ContainsAny(s, "\\\x00") || len(s) >= 2 && s[1] == ':':
		return "", fmt.Errorf("%w: %q: write paths with / (Windows paths are not supported)", ErrUnsafePath, s)
	}
	for _, c := range s {
		if c < 0x20 || c == 0x7f {
			return "", fmt.Errorf("%w: %q holds a control character", ErrUnsafePath, s)
		}
	}
	switch {
	case strings.HasPrefix(s, "/"):
		return path.Clean(s), nil
	case s == "~" || s == "~/":
		return "~", nil
	case strings.HasPrefix(s, "~/"):
		rest := path.Clean(s[2:])
		if rest == "." {
			return "~", nil
		}
		if rest == ".." || strings.HasPrefix(rest, "../") {
			return "", fmt.Errorf("%w: %q leaves the home folder", ErrUnsafePath, s)
		}
		return "~/" + rest, nil
	case strings.HasPrefix(s, "~"):
		return "", fmt.Errorf("%w: %q: only ~ and ~/... name the home folder", ErrUnsafePath, s)
	}
	if path.Clean(s) == "." {
		return ".", nil
	}
	return CleanRelPath(s)
}

// CanonicalHost checks a host entry of permissions.network and returns it
// in lower case: a DNS name, optionally starting with "*.", an IPv4
// address or an IPv6 address in brackets, each with an optional ":port"
// (1 to 65535).
func CanonicalHost(s string) (string, error) {
	h := strings.ToLower(strings.TrimSpace(s))
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%q is not a host or host:port: %s", s, why)
	}
	if h == "" {
		return bad("empty")
	}
	if strings.Contains(h, "://") || strings.ContainsAny(h, "/?#@ ") {
		return bad("give the host name only, without a scheme, path or user")
	}
	name, portText := h, ""
	if strings.HasPrefix(h, "[") {
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return bad("an unclosed [")
		}
		name, portText = h[:end+1], strings.TrimPrefix(h[end+1:], ":")
		if h[end+1:] != "" && !strings.HasPrefix(h[end+1:], ":") {
			return bad("text after ]")
		}
		addr, err := netip.ParseAddr(name[1 : len(name)-1])
		if err != nil || !addr.Is6() {
			return bad("not an IPv6 address in brackets")
		}
		name = "[" + addr.String() + "]"
	} else if i := strings.LastIndexByte(h, ':'); i >= 0 {
		name, portText = h[:i], h[i+1:]
		if strings.Contains(name, ":") {
			return bad("write an IPv6 address in brackets")
		}
	}
	if portText != "" || strings.HasSuffix(h, ":") {
		port, err := strconv.Atoi(portText)
		if err != nil || port < 1 || port > 65535 || strconv.Itoa(port) != portText {
			return bad("the port must be a number from 1 to 65535")
		}
	}
	if !strings.HasPrefix(name, "[") {
		name = strings.TrimSuffix(name, ".")
		if _, err := netip.ParseAddr(name); err != nil && !validHostName(strings.TrimPrefix(name, "*.")) {
			return bad("a name is made of labels of letters, digits and '-', separated by dots")
		}
	}
	if portText != "" {
		return name + ":" + portText, nil
	}
	return name, nil
}

func validHostName(name string) bool {
	if name == "" || len(name) > 253 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
