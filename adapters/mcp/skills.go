package mcptools

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/mcpskills"
	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
)

// SkillSource returns the skills a server serves over the Skills extension,
// at each request: usually those one agent may read ([KitSkills]).
type SkillSource func(ctx context.Context) ([]*skill.Skill, error)

// KitSkills serves what agent may read in kit: the skills of its catalog
// and the hidden ones it may read by name, after the visibility rules and
// with disabled skills left out, as [skillkit.Kit.Toolset] decides, asked
// again at every request, so that a skill disabled, or a rescan, shows at
// once (a Toolset of 130 skills costs about 3 ms).
func KitSkills(kit *skillkit.Kit, agent tools.Agent) SkillSource {
	return func(ctx context.Context) ([]*skill.Skill, error) {
		ts, err := kit.Toolset(ctx, agent)
		if err != nil {
			return nil, err
		}
		return ts.Visibility.Readable(), nil
	}
}

// SkillsOptions tune the Skills extension a server serves. A nil
// *SkillsOptions means the defaults.
type SkillsOptions struct {
	// PageSize is the most skills one skills/list page holds (default 50).
	PageSize int
	// TTL is the freshness hint (ttlMs) of skills/list and skills/get
	// results (default 0: re-ask each time).
	TTL time.Duration
	// Logger hears about skills left out (a name the specification's
	// naming rules refuse, a skill over the extension's limits, a file
	// that cannot be read); nil discards it.
	Logger *slog.Logger
}

// DefaultPageSize is the default of SkillsOptions.PageSize.
const DefaultPageSize = 50

// NewSkillsServer returns an MCP server called impl that offers the tools
// ts (see [Add]) and serves the skills src returns through MCP's Skills
// extension (see [AddSkills]): it declares io.modelcontextprotocol/skills
// in its capabilities, on top of opts' (nil for the SDK's defaults).
func NewSkillsServer(impl *mcp.Implementation, ts []tools.Tool, src SkillSource, opts *mcp.ServerOptions, sopts *SkillsOptions) (*mcp.Server, error) {
	if impl == nil {
		return nil, errors.New("mcptools: NewSkillsServer needs an implementation name")
	}
	if src == nil {
		return nil, errors.New("mcptools: NewSkillsServer needs a skill source")
	}
	server := mcp.NewServer(impl, DeclareSkills(opts))
	if len(ts) > 0 {
		if err := Add(server, ts, nil); err != nil {
			return nil, err
		}
	}
	if err := AddSkills(server, src, sopts); err != nil {
		return nil, err
	}
	return server, nil
}

// DeclareSkills returns a copy of opts (nil for the SDK's defaults) whose
// capabilities declare the Skills extension, with no optional feature
// (resources/directory/read is not served). Without capabilities in opts,
// the server declares no logging capability, which the SDK declares by
// default and MCP deprecates as of revision 2026-07-28. The SDK fixes a server's
// capabilities when it is made, so pass the result to mcp.NewServer and
// then call [AddSkills]; [NewSkillsServer] does both.
func DeclareSkills(opts *mcp.ServerOptions) *mcp.ServerOptions {
	out := mcp.ServerOptions{}
	if opts != nil {
		out = *opts
	}
	caps := &mcp.ServerCapabilities{}
	if out.Capabilities != nil {
		c := *out.Capabilities
		c.Extensions = make(map[string]any, len(out.Capabilities.Extensions)+1)
		for k, v := range out.Capabilities.Extensions {
			c.Extensions[k] = v
		}
		caps = &c
	}
	caps.AddExtension(mcpskills.ExtensionID, nil)
	out.Capabilities = caps
	return &out
}

// AddSkills makes server serve the skills src returns through MCP's Skills
// extension (the server must have been made with [DeclareSkills]'
// options):
//
//   - skills/list, a page at a time (SkillsOptions.PageSize), sorted by
//     name, with an opaque cursor; skills/get for one skill by the URI of
//     its SKILL.md, or -32602 (Invalid params) for a URI that names no
//     skill served. Each entry is built when it is asked for
//     (mcpskills.Entry): the skill at skill://NAME, its frontmatter as
//     JSON, and the SHA-256 digest and size of every file served, read
//     then. Both results carry resultType "complete", ttlMs and
//     cacheScope "private" (the skills one agent may read).
//   - resources/read of every file served, under skill://NAME/PATH,
//     through a resource template: SKILL.md as text/markdown, text files
//     as text, other files as base64 blobs, always the bytes the digests
//     cover; -32602 for anything else. Infrastructure (skill.config.yaml,
//     .env, package.json, .venv/, ...) is never served, nor a path that
//     leads to it or out of the skill through links (mcpskills.Served).
//
// A skill whose name breaks the Agent Skills naming rules, or which is
// over the extension's limits (512 files, 16 MiB), is left out and logged.
// The SDK registers custom methods through mcp.AddReceivingCustomMethod;
// see docs/decisions.md.
func AddSkills(server *mcp.Server, src SkillSource, opts *SkillsOptions) error {
	if server == nil || src == nil {
		return errors.New("mcptools: AddSkills needs a server and a skill source")
	}
	s := &skillServer{src: src, pageSize: DefaultPageSize, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if opts != nil {
		if opts.PageSize > 0 {
			s.pageSize = opts.PageSize
		}
		s.ttl = int(opts.TTL / time.Millisecond)
		if opts.Logger != nil {
			s.logger = opts.Logger
		}
	}
	if err := mcp.AddReceivingCustomMethod(server, mcpskills.MethodList, s.list); err != nil {
		return fmt.Errorf("mcptools: %w", err)
	}
	if err := mcp.AddReceivingCustomMethod(server, mcpskills.MethodGet, s.get); err != nil {
		return fmt.Errorf("mcptools: %w", err)
	}
	server.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "skill-files",
		Title:       "Skill files",
		Description: "The files of the skills this server serves: skill://NAME/SKILL.md and the files it refers to. skills/list lists them with their digests.",
		URITemplate: mcpskills.Scheme + "://{+path}",
	}, s.read)
	return nil
}

type skillServer struct {
	src      SkillSource
	pageSize int
	ttl      int
	logger   *slog.Logger
}

// listParams are the params of skills/list.
type listParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

// listResult is the result of skills/list (ListSkillsResult).
type listResult struct {
	mcp.ResultBase
	mcp.Cacheable
	ResultType string            `json:"resultType"`
	Skills     []mcpskills.Skill `json:"skills"`
	NextCursor string            `json:"nextCursor,omitempty"`
}

// getParams are the params of skills/get.
type getParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

// getResult is the result of skills/get (GetSkillResult).
type getResult struct {
	mcp.ResultBase
	mcp.Cacheable
	ResultType string          `json:"resultType"`
	Skill      mcpskills.Skill `json:"skill"`
}

func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// cursor is opaque to clients: the name of the last skill of a page.
func cursorAfter(name string) string { return base64.RawURLEncoding.EncodeToString([]byte(name)) }

// skills returns the source's skills sorted by name, as paging and lookups
// need.
func (s *skillServer) skills(ctx context.Context) ([]*skill.Skill, error) {
	skills, err := s.src(ctx)
	if err != nil {
		return nil, err
	}
	byName := func(a, b *skill.Skill) int { return strings.Compare(a.Name, b.Name) }
	if !slices.IsSortedFunc(skills, byName) {
		skills = slices.SortedFunc(slices.Values(skills), byName)
	}
	return skills, nil
}

func (s *skillServer) list(ctx context.Context, _ *mcp.ServerSession, p *listParams) (*listResult, error) {
	skills, err := s.skills(ctx)
	if err != nil {
		return nil, err
	}
	start := 0
	if p != nil && p.Cursor != "" {
		after, err := base64.RawURLEncoding.DecodeString(p.Cursor)
		if err != nil {
			return nil, invalidParams("invalid cursor %q", p.Cursor)
		}
		start, _ = slices.BinarySearchFunc(skills, string(after), func(sk *skill.Skill, name string) int { return strings.Compare(sk.Name, name) })
		if start < len(skills) && skills[start].Name == string(after) {
			start++
		}
	}
	res := &listResult{ResultType: "complete", Skills: []mcpskills.Skill{}, Cacheable: s.cacheable()}
	for i := start; i < len(skills); i++ {
		if len(res.Skills) == s.pageSize {
			res.NextCursor = cursorAfter(skills[i-1].Name)
			break
		}
		if e, ok := s.entry(skills[i]); ok {
			res.Skills = append(res.Skills, e)
		}
	}
	return res, nil
}

func (s *skillServer) cacheable() mcp.Cacheable {
	return mcp.Cacheable{TTLMs: s.ttl, CacheScope: "private"}
}

// entry builds a skill's entry, or logs why it is left out.
func (s *skillServer) entry(sk *skill.Skill) (mcpskills.Skill, bool) {
	e, err := mcpskills.Entry(sk)
	if err != nil {
		s.logger.Warn("skill not served", "skill", sk.Name, "error", err)
		return mcpskills.Skill{}, false
	}
	return e, true
}

// lookup finds the served skill named name.
func (s *skillServer) lookup(ctx context.Context, name string) (*skill.Skill, error) {
	skills, err := s.skills(ctx)
	if err != nil {
		return nil, err
	}
	i, found := slices.BinarySearchFunc(skills, name, func(sk *skill.Skill, name string) int { return strings.Compare(sk.Name, name) })
	if !found {
		return nil, nil
	}
	return skills[i], nil
}

func (s *skillServer) get(ctx context.Context, _ *mcp.ServerSession, p *getParams) (*getResult, error) {
	if p == nil || p.URI == "" {
		return nil, invalidParams("skills/get needs the uri of a skill's %s", mcpskills.SkillFile)
	}
	name, rel, err := mcpskills.SplitServed(p.URI)
	if err != nil || rel != mcpskills.SkillFile {
		return nil, invalidParams("No skill is served at %s", p.URI)
	}
	sk, err := s.lookup(ctx, name)
	if err != nil {
		return nil, err
	}
	if sk == nil {
		return nil, invalidParams("No skill is served at %s", p.URI)
	}
	e, ok := s.entry(sk)
	if !ok {
		return nil, invalidParams("No skill is served at %s", p.URI)
	}
	return &getResult{ResultType: "complete", Skill: e, Cacheable: s.cacheable()}, nil
}

func (s *skillServer) read(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, rel, err := mcpskills.SplitServed(uri)
	if err != nil || skill.ValidateName(name) != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	sk, err := s.lookup(ctx, name)
	if err != nil {
		return nil, err
	}
	if sk == nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	data, err := mcpskills.ReadServed(sk, rel)
	if err != nil {
		s.logger.Warn("skill file not served", "uri", uri, "error", err)
		return nil, mcp.ResourceNotFoundError(uri)
	}
	c := &mcp.ResourceContents{URI: uri, MIMEType: mcpskills.MIMEType(rel, data)}
	if len(data) > 0 && prompt.IsText(data) {
		c.Text = string(data)
	} else {
		c.Blob = data
		if c.Blob == nil {
			c.Blob = []byte{}
		}
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
}
