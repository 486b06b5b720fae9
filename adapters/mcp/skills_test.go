package mcptools_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillkit-go/skillkit"
	mcptools "github.com/skillkit-go/skillkit/adapters/mcp"
	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/mcpskills"
	"github.com/skillkit-go/skillkit/tools"
)

// writeSkills writes a skills folder with what a server must and must not
// serve: references, scripts, a binary and an empty file; infrastructure
// (skill.config.yaml, .env, package.json, .venv) and a link to a secret; a
// skill whose name breaks the naming rules.
func writeSkills(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pdf-forms/SKILL.md":            "---\nname: pdf-forms\ndescription: Fill PDF forms.\nlicense: MIT\nmetadata:\n  version: \"2.1\"\n---\nRead references/FORMS.md first.\n",
		"pdf-forms/references/FORMS.md": "# Forms\nField names are case-sensitive.\n",
		"pdf-forms/scripts/fill.py":     "print('fill')\n",
		"pdf-forms/assets/logo.png":     "\x89PNG\r\n\x1a\n\x00\x00",
		"pdf-forms/assets/empty.txt":    "",
		"pdf-forms/skill.config.yaml":   "runtime: python\n",
		"pdf-forms/.env":                "API_TOKEN=secret-token\n",
		"pdf-forms/package.json":        "{}",
		"pdf-forms/.venv/bin/python":    "x",
		"git-flow/SKILL.md":             "---\nname: git-flow\ndescription: Branch from main.\n---\nUse feature branches.\n",
		"Bad_Name/SKILL.md":             "---\nname: Bad_Name\ndescription: Breaks the naming rules.\n---\nx\n",
	}
	fixture.WriteTree(t, dir, files)
	if err := os.Symlink("../.env", filepath.Join(dir, "pdf-forms", "references", "token.md")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// skillsClient serves the skills of dir over the SDK's in-memory transport
// and returns a client session of the SDK (which speaks its newest
// protocol revision).
func skillsClient(t *testing.T, dir string, sopts *mcptools.SkillsOptions) *mcp.ClientSession {
	t.Helper()
	_, cs := skillsKitClient(t, dir, sopts)
	return cs
}

// skillsKitClient is skillsClient that also returns the Kit served.
func skillsKitClient(t *testing.T, dir string, sopts *mcptools.SkillsOptions) (*skillkit.Kit, *mcp.ClientSession) {
	t.Helper()
	kit, err := skillkit.Open(t.Context(), skillkit.Options{Dir: dir, DisableSkillManage: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kit.Close() })
	agent := tools.Agent{Tools: []string{"bash"}}
	ts, err := kit.Toolset(t.Context(), agent)
	if err != nil {
		t.Fatal(err)
	}
	server, err := mcptools.NewSkillsServer(&mcp.Implementation{Name: "skills", Version: "1"}, ts.Tools, mcptools.KitSkills(kit, agent), &mcp.ServerOptions{Instructions: ts.Prompt}, sopts)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil)
	for _, m := range []string{mcpskills.MethodList, mcpskills.MethodGet} {
		var err error
		if m == mcpskills.MethodList {
			err = mcp.AddSendingCustomMethod[*listParams, *listResult](client, m)
		} else {
			err = mcp.AddSendingCustomMethod[*getParams, *getResult](client, m)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return kit, connectInMemory(t, server, client)
}

type listParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

type listResult struct {
	mcp.ResultBase
	ResultType string            `json:"resultType"`
	TTLMs      *int              `json:"ttlMs"`
	CacheScope string            `json:"cacheScope"`
	Skills     []mcpskills.Skill `json:"skills"`
	NextCursor string            `json:"nextCursor"`
}

type getParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

type getResult struct {
	mcp.ResultBase
	ResultType string          `json:"resultType"`
	TTLMs      *int            `json:"ttlMs"`
	CacheScope string          `json:"cacheScope"`
	Skill      mcpskills.Skill `json:"skill"`
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

func readResource(t *testing.T, cs *mcp.ClientSession, uri string) ([]byte, string, error) {
	t.Helper()
	res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, "", err
	}
	if len(res.Contents) != 1 || res.Contents[0].URI != uri {
		t.Fatalf("%s: contents %+v", uri, res.Contents)
	}
	c := res.Contents[0]
	if c.Text != "" {
		return []byte(c.Text), c.MIMEType, nil
	}
	return c.Blob, c.MIMEType, nil
}

// The official Go SDK, as a client, sees the extension, lists and gets the
// skills, and reads every file listed: the bytes match the digests and
// sizes, SKILL.md's frontmatter matches the entry's, and no
// infrastructure file or secret is served.
func TestServeSkills(t *testing.T) {
	dir := writeSkills(t)
	cs := skillsClient(t, dir, &mcptools.SkillsOptions{PageSize: 1})
	caps := cs.InitializeResult().Capabilities
	if _, ok := caps.Extensions[mcpskills.ExtensionID]; !ok || caps.Resources == nil {
		t.Fatalf("capabilities %+v: want the extension and resources", caps)
	}

	var entries []mcpskills.Skill
	cursor := ""
	for pages := 0; ; pages++ {
		res, err := mcp.CallCustomMethod[*listParams, *listResult](t.Context(), cs, mcpskills.MethodList, &listParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		if res.ResultType != "complete" || res.TTLMs == nil || res.CacheScope != "private" || len(res.Skills) > 1 || pages > 2 {
			t.Fatalf("page %d (two skills, one a page): %+v", pages, res)
		}
		entries = append(entries, res.Skills...)
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	var uris []string
	for _, e := range entries {
		uris = append(uris, e.URI)
	}
	if diff := cmp.Diff([]string{"skill://git-flow/SKILL.md", "skill://pdf-forms/SKILL.md"}, uris); diff != "" {
		t.Fatalf("listed (-want +got):\n%s", diff)
	}

	get, err := mcp.CallCustomMethod[*getParams, *getResult](t.Context(), cs, mcpskills.MethodGet, &getParams{URI: "skill://pdf-forms/SKILL.md"})
	if err != nil {
		t.Fatal(err)
	}
	if get.ResultType != "complete" || get.TTLMs == nil || get.CacheScope == "" {
		t.Errorf("get: %+v", get)
	}
	if diff := cmp.Diff(entries[1], get.Skill, cmp.AllowUnexported(mcpskills.Manifest{})); diff != "" {
		t.Errorf("skills/get differs from skills/list (-list +get):\n%s", diff)
	}
	wantFM := map[string]any{"name": "pdf-forms", "description": "Fill PDF forms.", "license": "MIT", "metadata": map[string]any{"version": "2.1"}}
	if diff := cmp.Diff(wantFM, get.Skill.Frontmatter); diff != "" {
		t.Errorf("frontmatter (-want +got):\n%s", diff)
	}

	var served []string
	for _, r := range get.Skill.Resources.Files {
		served = append(served, strings.TrimPrefix(r.URI, "skill://pdf-forms/"))
		data, mime, err := readResource(t, cs, r.URI)
		if err != nil {
			t.Fatalf("%s: %v", r.URI, err)
		}
		if sha(data) != r.Digest || int64(len(data)) != r.Size {
			t.Errorf("%s: %d bytes with %s, listed %d with %s", r.URI, len(data), sha(data), r.Size, r.Digest)
		}
		if strings.HasSuffix(r.URI, "SKILL.md") {
			fm, err := mcpskills.Frontmatter(data)
			if err != nil || !cmp.Equal(fm, get.Skill.Frontmatter) || mime != "text/markdown" {
				t.Errorf("SKILL.md: %v %v %s", fm, err, mime)
			}
		}
	}
	want := []string{"SKILL.md", "assets/empty.txt", "assets/logo.png", "references/FORMS.md", "scripts/fill.py"}
	if diff := cmp.Diff(want, served); diff != "" {
		t.Errorf("served (-want +got):\n%s", diff)
	}
	for _, rel := range []string{"skill.config.yaml", ".env", "package.json", ".venv/bin/python", "references/token.md", "../git-flow/SKILL.md", "references/%2E%2E/.env"} {
		uri := "skill://pdf-forms/" + rel
		if _, _, err := readResource(t, cs, uri); !isInvalidParams(err) {
			t.Errorf("%s: %v, want -32602", uri, err)
		}
	}
	for _, uri := range []string{"skill://Bad_Name/SKILL.md", "skill://nope/SKILL.md", "skill://pdf-forms/references/FORMS.md"} {
		if _, err := mcp.CallCustomMethod[*getParams, *getResult](t.Context(), cs, mcpskills.MethodGet, &getParams{URI: uri}); !isInvalidParams(err) {
			t.Errorf("skills/get %s: %v, want -32602", uri, err)
		}
	}
	if _, _, err := readResource(t, cs, "skill://Bad_Name/SKILL.md"); !isInvalidParams(err) {
		t.Errorf("a skill not served was read: %v", err)
	}
}

func isInvalidParams(err error) bool {
	var e *jsonrpc.Error
	return errors.As(err, &e) && e.Code == jsonrpc.CodeInvalidParams
}

// A file changed after the listing is served as it is now: its bytes no
// longer match the listed digest, which a client detects, and a new
// skills/get gives the digest of what is served.
func TestServeSkillsChangedFile(t *testing.T) {
	dir := writeSkills(t)
	cs := skillsClient(t, dir, nil)
	get := func() mcpskills.Resource {
		res, err := mcp.CallCustomMethod[*getParams, *getResult](t.Context(), cs, mcpskills.MethodGet, &getParams{URI: "skill://git-flow/SKILL.md"})
		if err != nil {
			t.Fatal(err)
		}
		return res.Skill.Resources.Files[0]
	}
	before := get()
	if err := os.WriteFile(filepath.Join(dir, "git-flow", "SKILL.md"), []byte("---\nname: git-flow\ndescription: Branch from main.\n---\nChanged.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, _, err := readResource(t, cs, before.URI)
	if err != nil {
		t.Fatal(err)
	}
	after := get()
	if sha(data) == before.Digest || sha(data) != after.Digest {
		t.Errorf("digests: listed %s, now %s, served %s", before.Digest, after.Digest, sha(data))
	}
}

func TestDeclareSkills(t *testing.T) {
	opts := &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Extensions: map[string]any{"acme/x": map[string]any{}}}}
	got := mcptools.DeclareSkills(opts)
	if len(opts.Capabilities.Extensions) != 1 {
		t.Error("the caller's options were changed")
	}
	keys := []string{}
	for k := range got.Capabilities.Extensions {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if diff := cmp.Diff([]string{"acme/x", mcpskills.ExtensionID}, keys); diff != "" {
		t.Errorf("extensions (-want +got):\n%s", diff)
	}
	if got := mcptools.DeclareSkills(nil).Capabilities.Extensions; len(got) != 1 {
		t.Errorf("extensions %v", got)
	}
}

// Only what the agent may read is served: a skill disabled is neither
// listed nor readable, from the next request on.
func TestServeSkillsFollowsVisibility(t *testing.T) {
	dir := writeSkills(t)
	kit, cs := skillsKitClient(t, dir, nil)
	list := func() []string {
		res, err := mcp.CallCustomMethod[*listParams, *listResult](t.Context(), cs, mcpskills.MethodList, &listParams{})
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		for _, s := range res.Skills {
			uris = append(uris, s.URI)
		}
		return uris
	}
	if got := list(); len(got) != 2 {
		t.Fatalf("listed %v", got)
	}
	if err := kit.SetEnabled(t.Context(), "git-flow", false); err != nil {
		t.Fatal(err)
	}
	if got := list(); !slices.Equal(got, []string{"skill://pdf-forms/SKILL.md"}) {
		t.Errorf("listed after disabling git-flow: %v", got)
	}
	if _, _, err := readResource(t, cs, "skill://git-flow/SKILL.md"); !isInvalidParams(err) {
		t.Errorf("a disabled skill was read: %v", err)
	}
	if _, err := mcp.CallCustomMethod[*getParams, *getResult](t.Context(), cs, mcpskills.MethodGet, &getParams{URI: "skill://git-flow/SKILL.md"}); !isInvalidParams(err) {
		t.Errorf("skills/get of a disabled skill: %v", err)
	}
}
