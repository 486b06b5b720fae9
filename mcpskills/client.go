package mcpskills

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skillkit-go/skillkit/executor"
)

// The MCP revisions the client speaks. It asks for ProtocolVersion first,
// the revision the Skills extension's stable specification is written
// against: a server/discover request, then requests that each carry the
// revision and the client's capabilities in _meta, with no session. A
// server that does not answer server/discover, or does not list that
// revision, gets the session protocol: initialize at
// LegacyProtocolVersion, then requests; a server that answers initialize
// with a revision the client does not know is refused.
const (
	ProtocolVersion       = "2026-07-28"
	LegacyProtocolVersion = "2025-11-25"
)

// knownVersions are the revisions whose session protocol the client
// speaks, newest first.
var knownVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// The _meta keys of revision 2026-07-28's requests and responses.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// Defaults for [Options] fields left at zero.
const (
	// DefaultMaxMessageBytes bounds one JSON-RPC message from the server:
	// room for a file of MaxSkillBytes in base64, and the JSON around it.
	DefaultMaxMessageBytes = 32 << 20
	// DefaultMaxSkills bounds the entries read from skills/list.
	DefaultMaxSkills = 1000
	// DefaultReadTimeout bounds each file read made through the file
	// system [Client.FS] returns, which has no context of its own.
	DefaultReadTimeout = time.Minute
	// DefaultRequestTimeout bounds the wait for the answer to one request
	// (Options.RequestTimeout).
	DefaultRequestTimeout = 2 * time.Minute
	// DefaultStartTimeout bounds Start: the server's start and the
	// initialize handshake (Options.StartTimeout).
	DefaultStartTimeout = 30 * time.Second
	// closeGrace is how long Close waits for the server to exit once its
	// input is closed, before it kills it.
	closeGrace = 3 * time.Second
)

// Bounds on the JSON a message may hold, besides its size: decoding a
// frontmatter into Go values (maps, slices, interfaces) costs far more
// than its bytes, so a message may hold at most one object or array per
// MessageBytesPerContainer bytes (plus MessageBaseContainers) and one
// value per MessageBytesPerValue bytes (plus MessageBaseValues). What the
// client holds for a message then stays within a few times its size.
const (
	MessageBytesPerContainer = 128
	MessageBaseContainers    = 4096
	MessageBytesPerValue     = 16
	MessageBaseValues        = 16384
)

// Errors of the client.
var (
	// ErrNoExtension: the server does not declare the Skills extension in
	// its capabilities.
	ErrNoExtension = errors.New("mcpskills: the server does not declare the Skills extension")
	// ErrProtocol: the server broke the protocol (a message that is not
	// JSON-RPC, an unknown protocol revision, a result of the wrong
	// shape, a message over the size limit).
	ErrProtocol = errors.New("mcpskills: protocol error")
	// ErrClosed: the connection is closed.
	ErrClosed = errors.New("mcpskills: connection closed")
	// ErrTimeout: the server did not answer a request, or did not finish
	// starting, within its timeout; it was stopped.
	ErrTimeout = errors.New("mcpskills: the server did not answer in time")
)

// RPCError is an error the server answered a request with.
type RPCError struct {
	Method  string
	Code    int64
	Message string
}

// Error names the method and quotes the server's message.
func (e *RPCError) Error() string {
	return fmt.Sprintf("mcpskills: %s: error %d: %q", e.Method, e.Code, e.Message)
}

// Options tune a [Client]. A nil *Options means the defaults.
type Options struct {
	// Env adds variables to the server's environment, which otherwise
	// holds only PATH, HOME, USER, LOGNAME, SHELL, TERM, LANG, LC_ALL,
	// TMPDIR and SYSTEMROOT from the host's (the host's secrets, such as
	// SKILL_SECRET_KEY, stay with the host).
	Env map[string]string
	// Dir is the server's working folder; default the host's.
	Dir string
	// Stderr receives the server's standard error; nil discards it.
	Stderr io.Writer
	// MaxMessageBytes bounds one message from the server (default
	// DefaultMaxMessageBytes).
	MaxMessageBytes int
	// MaxSkills bounds the entries read from skills/list (default
	// DefaultMaxSkills); the rest are left out with a diagnostic.
	MaxSkills int
	// ReadTimeout bounds each read of the file system FS returns (default
	// DefaultReadTimeout).
	ReadTimeout time.Duration
	// RequestTimeout bounds the wait for the answer to each request
	// (default DefaultRequestTimeout); StartTimeout bounds Start, the
	// server's start and the initialize handshake (default
	// DefaultStartTimeout). A server that exceeds either is stopped: the
	// connection fails with [ErrTimeout].
	RequestTimeout, StartTimeout time.Duration
	// ClientName and ClientVersion are sent in initialize (default
	// "skillkit", "0").
	ClientName, ClientVersion string
	// Confine is what a server [Start] runs may reach besides the
	// system's programs (read-only), its working folder (read-only), the
	// existing paths its command and Env name (read-only) and a private scratch
	// space; nil grants nothing more: no network, none of the user's
	// other files. It runs confined as an executor.LocalRunner runs a
	// skill, with its own /proc, so it cannot read the host's environment.
	Confine *executor.Confinement
	// Lifetime bounds how long a server [Start] runs lives (default
	// DefaultLifetime); then it is stopped and the connection closes.
	Lifetime time.Duration
}

// DefaultLifetime is how long a server started by [Start] lives by default.
const DefaultLifetime = 10 * time.Minute

func (o *Options) lifetime() time.Duration {
	if o == nil || o.Lifetime <= 0 {
		return DefaultLifetime
	}
	return o.Lifetime
}

func (o *Options) maxMessage() int {
	if o == nil || o.MaxMessageBytes <= 0 {
		return DefaultMaxMessageBytes
	}
	return o.MaxMessageBytes
}

func (o *Options) maxSkills() int {
	if o == nil || o.MaxSkills <= 0 {
		return DefaultMaxSkills
	}
	return o.MaxSkills
}

func (o *Options) readTimeout() time.Duration {
	if o == nil || o.ReadTimeout <= 0 {
		return DefaultReadTimeout
	}
	return o.ReadTimeout
}

func (o *Options) requestTimeout() time.Duration {
	if o == nil || o.RequestTimeout <= 0 {
		return DefaultRequestTimeout
	}
	return o.RequestTimeout
}

func (o *Options) startTimeout() time.Duration {
	if o == nil || o.StartTimeout <= 0 {
		return DefaultStartTimeout
	}
	return o.StartTimeout
}

// envKeys are the host's variables a server gets by default.
var envKeys = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT"}

// Client is a connection to one MCP server that declares the Skills
// extension. It is safe for concurrent use.
type Client struct {
	opts *Options
	w    io.WriteCloser
	wmu  sync.Mutex
	proc *executor.Process
	done chan struct{} // closed when the reader stops
	// answering bounds the server's requests being answered at once.
	answering chan struct{}

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan response
	err     error // why the connection failed: the reader stopped, or a timeout

	initResult initializeResult
	// meta, set when the server speaks ProtocolVersion, goes into the
	// params of every request.
	meta map[string]any
}

// Start runs the server command argv (a program and its arguments) with
// its standard input and output as the connection, and initializes the
// session: it fails with [ErrNoExtension] when the server does not declare
// the Skills extension. ctx bounds the start and the handshake, not the
// session: [Client.Close] ends it and the server.
func Start(ctx context.Context, argv []string, opts *Options) (*Client, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("mcpskills: no server command")
	}
	env := map[string]string{}
	for _, kv := range serverEnv(opts) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	// The server reads what its command names (the folder it serves, its
	// own binary) besides what Options.Confine grants.
	grant := executor.Confinement{}
	var stderr io.Writer
	cmd := executor.Command{Path: argv[0], Args: argv[1:], Env: env, Timeout: opts.lifetime(), Confine: &grant}
	if opts != nil {
		cmd.Dir, stderr = opts.Dir, opts.Stderr
		if opts.Confine != nil {
			grant = *opts.Confine
		}
	}
	values := slices.Clone(argv)
	if opts != nil {
		for _, v := range opts.Env {
			values = append(values, v)
		}
	}
	named, _ := executor.Named(values...)
	grant.Read = append(slices.Clone(grant.Read), named...)
	proc, err := (&executor.LocalRunner{}).Start(context.WithoutCancel(ctx), cmd, stderr)
	if err != nil {
		return nil, fmt.Errorf("mcpskills: starting %s: %w", argv[0], err)
	}
	c := newClient(proc.Stdout, proc.Stdin, opts, proc)
	sctx, cancel := context.WithTimeoutCause(ctx, opts.startTimeout(),
		fmt.Errorf("%w: it did not finish starting within %v", ErrTimeout, opts.startTimeout()))
	defer cancel()
	if err := c.initialize(sctx); err != nil {
		if cause := context.Cause(sctx); errors.Is(cause, ErrTimeout) {
			err = cause
		}
		c.Close()
		return nil, fmt.Errorf("%w (server %s)", err, argv[0])
	}
	return c, nil
}

// Connect initializes a session over r (the server's output) and w (its
// input), as [Start] does over a child process's. Close closes w.
func Connect(ctx context.Context, r io.Reader, w io.WriteCloser, opts *Options) (*Client, error) {
	c := newClient(r, w, opts, nil)
	sctx, cancel := context.WithTimeoutCause(ctx, opts.startTimeout(),
		fmt.Errorf("%w: it did not finish starting within %v", ErrTimeout, opts.startTimeout()))
	defer cancel()
	if err := c.initialize(sctx); err != nil {
		if cause := context.Cause(sctx); errors.Is(cause, ErrTimeout) {
			err = cause
		}
		c.Close()
		return nil, err
	}
	return c, nil
}

func serverEnv(opts *Options) []string {
	var env []string
	for _, k := range envKeys {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	if opts != nil {
		keys := make([]string, 0, len(opts.Env))
		for k := range opts.Env {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			env = append(env, k+"="+opts.Env[k])
		}
	}
	return env
}

func newClient(r io.Reader, w io.WriteCloser, opts *Options, proc *executor.Process) *Client {
	c := &Client{opts: opts, w: w, proc: proc, done: make(chan struct{}), answering: make(chan struct{}, 8), pending: make(map[int64]chan response)}
	go c.readLoop(r)
	return c
}

// fail ends the connection with err, unless it already failed: the server
// is killed and the connection closed, so every call waiting gets err.
func (c *Client) fail(err error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.mu.Unlock()
	if c.proc != nil {
		_ = c.proc.Kill()
	}
	c.wmu.Lock()
	_ = c.w.Close()
	c.wmu.Unlock()
}

// message is any JSON-RPC message.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

type response struct {
	result json.RawMessage
	err    error
}

// readLoop reads messages until the connection ends, hands responses to
// their callers and answers the server's own requests.
func (c *Client) readLoop(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	var err error
	for {
		var line []byte
		line, err = readLine(br, c.opts.maxMessage())
		if err != nil {
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err = checkDensity(line); err != nil {
			break
		}
		var m message
		if jerr := json.Unmarshal(line, &m); jerr != nil || m.JSONRPC != "2.0" {
			err = fmt.Errorf("%w: a message that is not JSON-RPC 2.0: %.200q", ErrProtocol, line)
			break
		}
		switch {
		case m.Method != "" && len(m.ID) > 0:
			// Answered on the side: writing here could block on a server
			// that is busy writing to us. A server flooding requests gets
			// no answer to those past the few in flight.
			select {
			case c.answering <- struct{}{}:
				go func() {
					c.answer(m)
					<-c.answering
				}()
			default:
			}
		case m.Method != "": // a notification: nothing to do
		default:
			c.deliver(m)
		}
	}
	if err == io.EOF {
		err = ErrClosed
	}
	if errors.Is(err, ErrProtocol) {
		// A server that broke the bounds is stopped, not left running.
		c.fail(err)
	}
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	err = c.err
	for id, ch := range c.pending {
		ch <- response{err: err}
		delete(c.pending, id)
	}
	c.mu.Unlock()
	close(c.done)
}

// readLine reads one newline-terminated message of at most limit bytes.
// The pieces are kept as read and joined once, into a buffer of the
// message's size: growing one buffer by appending would allocate several
// times the message.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var pieces [][]byte
	n := 0
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if n > limit+1 {
			return nil, fmt.Errorf("%w: a message over %d bytes", ErrProtocol, limit)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			pieces = append(pieces, bytes.Clone(chunk))
			continue
		}
		if err != nil && (err != io.EOF || len(bytes.TrimSpace(chunk)) == 0 && n == len(chunk)) {
			return nil, err
		}
		if len(pieces) == 0 {
			return bytes.Clone(chunk), nil
		}
		line := make([]byte, 0, n)
		for _, p := range pieces {
			line = append(line, p...)
		}
		return append(line, chunk...), nil
	}
}

// checkDensity refuses a message holding more objects and arrays, or more
// values, than its size allows (MessageBytesPerContainer,
// MessageBytesPerValue). It counts, outside strings, the brackets that
// open a container, and those plus the commas and colons that start a
// value.
func checkDensity(line []byte) error {
	containers, values := 0, 0
	inString, escaped := false, false
	for _, b := range line {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			containers++
			values++
		case b == ',' || b == ':':
			values++
		}
	}
	if containers > len(line)/MessageBytesPerContainer+MessageBaseContainers || values > len(line)/MessageBytesPerValue+MessageBaseValues {
		return fmt.Errorf("%w: a message of %d bytes holds %d objects and arrays and %d values, more than its size allows", ErrProtocol, len(line), containers, values)
	}
	return nil
}

// answer replies to a request from the server: ping gets an empty result,
// everything else "method not found" (the client declares no capability
// that would make a server ask it anything).
func (c *Client) answer(m message) {
	reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	if m.Method == "ping" {
		reply["result"] = struct{}{}
	} else {
		reply["error"] = map[string]any{"code": -32601, "message": "method not found"}
	}
	_ = c.write(reply)
}

func (c *Client) deliver(m message) {
	var id int64
	if err := json.Unmarshal(m.ID, &id); err != nil {
		return // not an id this client sent
	}
	c.mu.Lock()
	ch, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !ok {
		return
	}
	if m.Error != nil {
		ch <- response{err: &RPCError{Code: m.Error.Code, Message: m.Error.Message}}
		return
	}
	if len(m.Result) == 0 {
		ch <- response{err: fmt.Errorf("%w: a response with neither result nor error", ErrProtocol)}
		return
	}
	ch <- response{result: m.Result}
}

func (c *Client) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("mcpskills: %w", err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("%w: %w", ErrClosed, err)
	}
	return nil
}

// call sends a request and decodes its result into out.
func (c *Client) call(ctx context.Context, method string, params, out any) error {
	// A call whose context is done sends nothing: the select below would
	// otherwise pick at random between that and a quick answer.
	if err := ctx.Err(); err != nil {
		return err
	}
	ch := make(chan response, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	if p, ok := params.(map[string]any); ok && c.meta != nil {
		with := make(map[string]any, len(p)+1)
		for k, v := range p {
			with[k] = v
		}
		with["_meta"] = c.meta
		params = with
	}
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		c.forget(id)
		// A server that ended closed its input; why it ended (what it
		// wrote instead of JSON-RPC, say) is the reader's error.
		select {
		case <-c.done:
			c.mu.Lock()
			why := c.err
			c.mu.Unlock()
			if why != nil {
				return why
			}
		case <-time.After(closeGrace):
		}
		return err
	}
	timeout := c.opts.requestTimeout()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-timer.C:
		c.forget(id)
		err := fmt.Errorf("%w: no answer to %s within %v; the server was stopped", ErrTimeout, method, timeout)
		c.fail(err)
		return err
	case r := <-ch:
		if r.err != nil {
			var rpc *RPCError
			if errors.As(r.err, &rpc) {
				rpc.Method = method
			}
			return r.err
		}
		if err := json.Unmarshal(r.result, out); err != nil {
			return fmt.Errorf("%w: the result of %s: %w", ErrProtocol, method, err)
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		_ = c.write(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
			"params": map[string]any{"requestId": id, "reason": context.Cause(ctx).Error()}})
		return ctx.Err()
	}
}

func (c *Client) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// initializeResult is what the client reads of the server's answer.
type initializeResult struct {
	ProtocolVersion string `json:"protocolVersion"`
	Capabilities    struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	} `json:"capabilities"`
	ServerInfo struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo"`
	Instructions string `json:"instructions"`
}

// discoverResult is what the client reads of server/discover's result.
type discoverResult struct {
	SupportedVersions []string `json:"supportedVersions"`
	Capabilities      struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	} `json:"capabilities"`
	Instructions string `json:"instructions"`
	Meta         struct {
		ServerInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"io.modelcontextprotocol/serverInfo"`
	} `json:"_meta"`
}

// discover asks the server for revision ProtocolVersion with
// server/discover. ok is false, with no error, when the server answers
// with an error or does not list the revision: the caller falls back to
// initialize. A transport failure or a done ctx is an error.
func (c *Client) discover(ctx context.Context, capabilities, info map[string]any) (ok bool, err error) {
	meta := map[string]any{metaProtocolVersion: ProtocolVersion, metaClientCapabilities: capabilities, metaClientInfo: info}
	var res discoverResult
	if err := c.call(ctx, "server/discover", map[string]any{"_meta": meta}, &res); err != nil {
		var rpc *RPCError
		if errors.As(err, &rpc) || errors.Is(err, ErrProtocol) && ctx.Err() == nil && !errors.Is(err, ErrClosed) {
			return false, nil
		}
		return false, err
	}
	if !slices.Contains(res.SupportedVersions, ProtocolVersion) {
		return false, nil
	}
	settings, declared := res.Capabilities.Extensions[ExtensionID]
	if !declared || !bytes.HasPrefix(bytes.TrimSpace(settings), []byte("{")) {
		return false, ErrNoExtension
	}
	c.initResult.ProtocolVersion = ProtocolVersion
	c.initResult.Capabilities.Extensions = res.Capabilities.Extensions
	c.initResult.ServerInfo = res.Meta.ServerInfo
	c.initResult.Instructions = res.Instructions
	c.meta = meta
	return true, nil
}

// ProtocolVersion returns the MCP revision the session speaks:
// [ProtocolVersion] when the server answered server/discover for it, else
// the one the server answered initialize with.
func (c *Client) ProtocolVersion() string { return c.initResult.ProtocolVersion }

func (c *Client) initialize(ctx context.Context) error {
	name, version := "skillkit", "0"
	if c.opts != nil && c.opts.ClientName != "" {
		name, version = c.opts.ClientName, c.opts.ClientVersion
	}
	capabilities := map[string]any{"extensions": map[string]any{ExtensionID: struct{}{}}}
	info := map[string]any{"name": name, "version": version}
	if ok, err := c.discover(ctx, capabilities, info); ok || err != nil {
		return err
	}
	params := map[string]any{
		"protocolVersion": LegacyProtocolVersion,
		"capabilities":    capabilities,
		"clientInfo":      info,
	}
	var res initializeResult
	if err := c.call(ctx, "initialize", params, &res); err != nil {
		return err
	}
	if !slices.Contains(knownVersions, res.ProtocolVersion) {
		return fmt.Errorf("%w: the server speaks MCP revision %q, which this client does not", ErrProtocol, res.ProtocolVersion)
	}
	settings, ok := res.Capabilities.Extensions[ExtensionID]
	if !ok || !bytes.HasPrefix(bytes.TrimSpace(settings), []byte("{")) {
		return ErrNoExtension
	}
	c.initResult = res
	return c.write(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
}

// ServerName returns the name and version the server gave in initialize.
// They are the server's own words: identify a server by a label of your
// own, not by them.
func (c *Client) ServerName() (name, version string) {
	return c.initResult.ServerInfo.Name, c.initResult.ServerInfo.Version
}

// Instructions returns the server's instructions from initialize.
func (c *Client) Instructions() string { return c.initResult.Instructions }

// listResult is one page of skills/list.
type listResult struct {
	Skills     []json.RawMessage `json:"skills"`
	NextCursor string            `json:"nextCursor"`
}

// maxPages bounds the pages List reads, against a server whose cursors
// never end.
const maxPages = 10_000

// List reads every page of skills/list. Entries that break the
// specification are left out of the first result and reported in the
// second, each with why; so are entries past Options.MaxSkills.
func (c *Client) List(ctx context.Context) ([]Skill, []error, error) {
	var out []Skill
	var problems []error
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page == maxPages {
			return nil, nil, fmt.Errorf("%w: skills/list did not end after %d pages", ErrProtocol, maxPages)
		}
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var res listResult
		if err := c.call(ctx, MethodList, params, &res); err != nil {
			return nil, nil, err
		}
		for _, raw := range res.Skills {
			var s Skill
			if err := json.Unmarshal(raw, &s); err != nil {
				problems = append(problems, fmt.Errorf("%w: %.200q: %w", ErrInvalidEntry, raw, err))
				continue
			}
			if len(out) == c.opts.maxSkills() {
				problems = append(problems, fmt.Errorf("mcpskills: %s left out: the server lists more than %d skills", quote(s.URI), c.opts.maxSkills()))
				continue
			}
			out = append(out, s)
		}
		if res.NextCursor == "" {
			return out, problems, nil
		}
		if seen[res.NextCursor] {
			return nil, nil, fmt.Errorf("%w: skills/list repeated the cursor %q", ErrProtocol, res.NextCursor)
		}
		seen[res.NextCursor] = true
		cursor = res.NextCursor
	}
}

// Get returns the entry of the skill whose SKILL.md is at uri.
func (c *Client) Get(ctx context.Context, uri string) (Skill, error) {
	var res struct {
		Skill *Skill `json:"skill"`
	}
	if err := c.call(ctx, MethodGet, map[string]any{"uri": uri}, &res); err != nil {
		return Skill{}, err
	}
	if res.Skill == nil {
		return Skill{}, fmt.Errorf("%w: skills/get answered without a skill", ErrProtocol)
	}
	return *res.Skill, nil
}

// readResult is what the client reads of resources/read.
type readResult struct {
	Contents []struct {
		URI  string  `json:"uri"`
		Text *string `json:"text"`
		Blob *string `json:"blob"`
	} `json:"contents"`
}

// Read returns the raw bytes of the resource at uri, unverified: the text
// content's UTF-8 bytes, or the blob content decoded from base64.
func (c *Client) Read(ctx context.Context, uri string) ([]byte, error) {
	var res readResult
	if err := c.call(ctx, "resources/read", map[string]any{"uri": uri}, &res); err != nil {
		return nil, err
	}
	for _, ct := range res.Contents {
		if ct.URI != uri {
			continue
		}
		switch {
		case ct.Text != nil:
			return []byte(*ct.Text), nil
		case ct.Blob != nil:
			b, err := base64.StdEncoding.DecodeString(*ct.Blob)
			if err != nil {
				return nil, fmt.Errorf("%w: the blob of %s is not base64: %w", ErrProtocol, quote(uri), err)
			}
			return b, nil
		}
	}
	return nil, fmt.Errorf("%w: resources/read of %s returned no content for it", ErrProtocol, quote(uri))
}

// Close ends the session: it closes the connection and, for a server
// [Start] ran, waits a moment for it to exit, then kills it.
func (c *Client) Close() error {
	c.wmu.Lock()
	err := c.w.Close()
	c.wmu.Unlock()
	if c.proc == nil {
		return nil
	}
	exited := make(chan error, 1)
	go func() { exited <- c.proc.Wait() }()
	select {
	case <-exited:
	case <-time.After(closeGrace):
		_ = c.proc.Kill()
		<-exited
	}
	<-c.done
	if err != nil && !errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("mcpskills: %w", err)
	}
	return nil
}
