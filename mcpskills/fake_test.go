package mcpskills

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"sync"
	"testing"
	"unicode/utf8"
)

// fakeServer is a minimal MCP server speaking the Skills extension, to test
// the client's logic (paging, verification, refusals) against answers a
// real server would not give. The client against the real Go SDK server is
// tested in the MCP adapter's module.
type fakeServer struct {
	mu       sync.Mutex
	skills   map[string]map[string]string // name -> path -> content
	pageSize int                          // skills per page; 0: all in one
	// lie changes what is announced or served; nil serves the truth.
	entry    func(s *Skill)                       // changes an entry after it is built
	content  func(uri string, data []byte) []byte // changes what resources/read returns
	version  string                               // the protocol revision answered; default LegacyProtocolVersion
	noExt    bool                                 // leave the extension out of the capabilities
	cursors  func(page int) string                // the next cursor of a page; default strconv
	ping     bool                                 // send a ping request before answering initialize
	reads    []string                             // URIs resources/read was asked for
	extraOut string                               // a raw line written before the first answer
	// unanswered is a method the server never answers; notified, when
	// set, receives every notification the client sends.
	unanswered string
	notified   chan message
	// rawList, when set, is written as it is in answer to skills/list.
	rawList []byte
	// discover, when set, answers server/discover with these revisions;
	// metas records the _meta of each request after it, and initialized
	// whether initialize was asked for.
	discover    []string
	metas       []map[string]any
	initialized bool
}

func skillFiles(name, body string, extra map[string]string) map[string]string {
	files := map[string]string{"SKILL.md": "---\nname: " + name + "\ndescription: The " + name + " skill.\nmetadata:\n  version: 1.0\n  tags: [a, b]\n---\n" + body + "\n"}
	maps.Copy(files, extra)
	return files
}

func (f *fakeServer) entryOf(name string) Skill {
	files := f.skills[name]
	e := Skill{URI: SkillURI(name), Resources: Manifest{present: true}}
	e.Frontmatter, _ = Frontmatter([]byte(files[SkillFile]))
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		data := []byte(files[rel])
		e.Resources.Files = append(e.Resources.Files, Resource{URI: URI(name, rel), Digest: Digest(data), Size: int64(len(data))})
	}
	if f.entry != nil {
		f.entry(&e)
	}
	return e
}

// serve answers requests from r on w until r ends.
func (f *fakeServer) serve(r io.Reader, w io.Writer) {
	br := bufio.NewReader(r)
	enc := json.NewEncoder(w)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return
		}
		var m message
		if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
			if f.notified != nil && m.Method != "" {
				f.notified <- m
			}
			continue // notifications and answers to our pings
		}
		if m.Method == f.unanswered {
			continue
		}
		if m.Method == MethodList && f.rawList != nil {
			if _, err := w.Write(f.rawList); err != nil {
				return
			}
			continue
		}
		f.mu.Lock()
		res, rpcErr := f.handle(m, w)
		f.mu.Unlock()
		out := map[string]any{"jsonrpc": "2.0", "id": m.ID}
		if rpcErr != nil {
			out["error"] = rpcErr
		} else {
			out["result"] = res
		}
		if err := enc.Encode(out); err != nil {
			return
		}
	}
}

func (f *fakeServer) handle(m message, w io.Writer) (any, map[string]any) {
	if f.extraOut != "" {
		io.WriteString(w, f.extraOut)
		f.extraOut = ""
	}
	var p struct {
		URI    string `json:"uri"`
		Cursor string `json:"cursor"`
	}
	json.Unmarshal(m.Params, &p)
	var withMeta struct {
		Meta map[string]any `json:"_meta"`
	}
	json.Unmarshal(m.Params, &withMeta)
	if f.discover != nil && m.Method != "server/discover" {
		f.metas = append(f.metas, withMeta.Meta)
	}
	switch m.Method {
	case "server/discover":
		if f.discover == nil {
			return nil, map[string]any{"code": -32601, "message": "method not found"}
		}
		caps := map[string]any{}
		if !f.noExt {
			caps["extensions"] = map[string]any{ExtensionID: map[string]any{}}
		}
		return map[string]any{"supportedVersions": f.discover, "capabilities": caps, "resultType": "complete",
			"_meta": map[string]any{metaServerInfo: map[string]any{"name": "fake", "version": "2"}}}, nil
	case "initialize":
		f.initialized = true
		if f.ping {
			io.WriteString(w, `{"jsonrpc":"2.0","id":"srv-1","method":"ping"}`+"\n")
		}
		version := f.version
		if version == "" {
			version = LegacyProtocolVersion
		}
		caps := map[string]any{"resources": map[string]any{}}
		if !f.noExt {
			caps["extensions"] = map[string]any{ExtensionID: map[string]any{}}
		}
		return map[string]any{"protocolVersion": version, "capabilities": caps, "serverInfo": map[string]any{"name": "fake", "version": "1"}}, nil
	case MethodList:
		names := slices.Sorted(maps.Keys(f.skills))
		start, _ := strconv.Atoi(p.Cursor)
		end := len(names)
		if f.pageSize > 0 {
			end = min(start+f.pageSize, len(names))
		}
		var page []Skill
		for _, n := range names[start:end] {
			page = append(page, f.entryOf(n))
		}
		res := map[string]any{"skills": page, "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}
		if end < len(names) {
			next := strconv.Itoa(end)
			if f.cursors != nil {
				next = f.cursors(end)
			}
			res["nextCursor"] = next
		}
		return res, nil
	case MethodGet:
		name, rel, err := SplitServed(p.URI)
		if _, ok := f.skills[name]; err != nil || rel != SkillFile || !ok {
			return nil, map[string]any{"code": -32602, "message": "no skill at " + p.URI}
		}
		return map[string]any{"skill": f.entryOf(name), "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}, nil
	case "resources/read":
		f.reads = append(f.reads, p.URI)
		name, rel, err := SplitServed(p.URI)
		data, ok := f.skills[name][rel]
		if err != nil || !ok {
			return nil, map[string]any{"code": -32602, "message": "no resource " + p.URI}
		}
		b := []byte(data)
		if f.content != nil {
			b = f.content(p.URI, b)
		}
		c := map[string]any{"uri": p.URI}
		if utf8.Valid(b) {
			c["text"] = string(b)
		} else {
			c["blob"] = base64.StdEncoding.EncodeToString(b)
		}
		return map[string]any{"contents": []any{c}}, nil
	}
	return nil, map[string]any{"code": -32601, "message": fmt.Sprintf("no method %s", m.Method)}
}

// connectFake serves f over pipes and returns a connected client.
func connectFake(t *testing.T, f *fakeServer, opts *Options) (*Client, error) {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	go func() {
		f.serve(toServer, fromServer)
		fromServer.Close()
	}()
	// Closing the client's end lets a server blocked writing to a client
	// that stopped reading finish.
	t.Cleanup(func() { toClient.Close() })
	c, err := Connect(t.Context(), toClient, fromClient, opts)
	if err == nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, err
}
