package skill_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

func TestPermissionsParse(t *testing.T) {
	for _, tt := range []struct {
		name, yaml string
		want       skill.Permissions
	}{
		{"absent", "runtime: bash\n", skill.Permissions{}},
		{"network false", "permissions: {network: false}\n", skill.Permissions{}},
		{"network true", "permissions: {network: true}\n", skill.Permissions{Network: skill.NetworkAccess{All: true}}},
		{"hosts", "permissions:\n  network: [API.Example.com, 'api.example.com', 'files.example.com:8443', '*.cdn.test', 10.0.0.1, '[2001:DB8::1]:443']\n",
			skill.Permissions{Network: skill.NetworkAccess{Hosts: []string{"api.example.com", "files.example.com:8443", "*.cdn.test", "10.0.0.1", "[2001:db8::1]:443"}}}},
		{"paths", "permissions:\n  read: ['~/data/', '/etc/ssl/certs', '~', 'references/../refs']\n  write: [., out, '~/.cache/tool']\n",
			skill.Permissions{Read: []string{"~/data", "/etc/ssl/certs", "~", "refs"}, Write: []string{".", "out", "~/.cache/tool"}}},
		{"comma list", "permissions: {read: 'a, b'}\n", skill.Permissions{Read: []string{"a", "b"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := skill.ParseConfig([]byte(tt.yaml))
			if cfg == nil || diags.HasErrors() {
				t.Fatalf("refused: %v", diags)
			}
			if diff := cmp.Diff(tt.want, cfg.Permissions); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func TestPermissionsInvalid(t *testing.T) {
	for _, tt := range []struct{ name, yaml, wantIn string }{
		{"unknown key", "permissions: {net: true}\n", "unknown field"},
		{"network string", "permissions: {network: everything}\n", "want true, false or a list"},
		{"url as host", "permissions: {network: ['https://api.example.com']}\n", "without a scheme"},
		{"port zero", "permissions: {network: ['a.test:0']}\n", "port"},
		{"port too big", "permissions: {network: ['a.test:65536']}\n", "port"},
		{"bare ipv6", "permissions: {network: ['2001:db8::1']}\n", "brackets"},
		{"bad label", "permissions: {network: ['-a.test']}\n", "labels"},
		{"host list item map", "permissions: {network: [{a: b}]}\n", "want a host"},
		{"relative escape", "permissions: {read: ['../other-skill']}\n", "leaves the skill folder"},
		{"home escape", "permissions: {write: ['~/../root']}\n", "leaves the home folder"},
		{"other user home", "permissions: {read: ['~bob/x']}\n", "only ~ and ~/"},
		{"windows", "permissions: {write: ['C:\\Users']}\n", "Windows"},
		{"control char", "permissions: {write: [\"a\\tb\"]}\n", "control character"},
		{"not a mapping", "permissions: [network]\n", "want a mapping"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := skill.ParseConfig([]byte(tt.yaml))
			if cfg != nil {
				t.Fatalf("accepted: %+v", cfg.Permissions)
			}
			var msgs []string
			for _, d := range diags.WithCode(diagnostics.ConfigParseError) {
				msgs = append(msgs, d.Message)
			}
			if !strings.Contains(strings.Join(msgs, "\n"), tt.wantIn) {
				t.Errorf("messages %q do not mention %q", msgs, tt.wantIn)
			}
		})
	}
}

func TestPermissionsBeyond(t *testing.T) {
	none := skill.Permissions{}
	all := skill.Permissions{Network: skill.NetworkAccess{All: true}}
	hosts := skill.Permissions{Network: skill.NetworkAccess{Hosts: []string{"api.test", "*.cdn.test", "db.test:5432"}}, Read: []string{"~/data"}, Write: []string{"out"}}
	for _, tt := range []struct {
		name     string
		new, old skill.Permissions
		want     []string
	}{
		{"same", hosts, hosts, nil},
		{"nothing asked", none, hosts, nil},
		{"all over none", all, none, []string{"network: all"}},
		{"all over hosts", all, hosts, []string{"network: all"}},
		{"hosts under all", hosts, all, []string{"read: ~/data", "write: out"}},
		{"port covered by any port", skill.Permissions{Network: skill.NetworkAccess{Hosts: []string{"api.test:443", "x.cdn.test"}}}, hosts, nil},
		{"other port", skill.Permissions{Network: skill.NetworkAccess{Hosts: []string{"db.test:5433", "cdn.test"}}}, hosts, []string{"network: db.test:5433", "network: cdn.test"}},
		{"sub paths", skill.Permissions{Read: []string{"~/data/x", "out/y"}, Write: []string{"out/z"}}, hosts, nil},
		{"wider path", skill.Permissions{Read: []string{"~"}, Write: []string{"."}}, hosts, []string{"read: ~", "write: ."}},
		{"sibling is not covered", skill.Permissions{Read: []string{"~/database"}}, hosts, []string{"read: ~/database"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.new.Beyond(tt.old)); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func TestNetworkAllowsHost(t *testing.T) {
	n := skill.NetworkAccess{Hosts: []string{"api.test", "*.cdn.test", "db.test:5432", "[::1]:8080", "10.1.2.3"}}
	for _, tt := range []struct {
		host string
		port int
		want bool
	}{
		{"api.test", 443, true}, {"API.test.", 80, true}, {"x.api.test", 443, false},
		{"img.cdn.test", 443, true}, {"cdn.test", 443, false}, {"evilcdn.test", 443, false},
		{"db.test", 5432, true}, {"db.test", 5433, false},
		{"::1", 8080, true}, {"::1", 80, false}, {"10.1.2.3", 1, true}, {"10.1.2.4", 1, false},
	} {
		if got := n.AllowsHost(tt.host, tt.port); got != tt.want {
			t.Errorf("AllowsHost(%q, %d) = %v, want %v", tt.host, tt.port, got, tt.want)
		}
	}
	if !(skill.NetworkAccess{All: true}).AllowsHost("anything.test", 1) || (skill.NetworkAccess{}).AllowsHost("api.test", 443) {
		t.Error("All must allow every host and the zero value none")
	}
}

func TestPermissionsResolve(t *testing.T) {
	p := skill.Permissions{Read: []string{"/etc/ssl", "~", "~/data", ".", "refs"}, Write: []string{"out"}}
	read, write := p.Resolve("/skills/x", "/home/u")
	if diff := cmp.Diff([]string{"/etc/ssl", "/home/u", "/home/u/data", "/skills/x", "/skills/x/refs"}, read); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"/skills/x/out"}, write); diff != "" {
		t.Error(diff)
	}
	if got := p.String(); got != "network: none; read: /etc/ssl, ~, ~/data, ., refs; write: out" {
		t.Errorf("String() = %q", got)
	}
}
