package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// fieldPaths lists the field names of a JSON value as paths: "a.b" for a
// field of an object, "a[].b" for a field of an array's items (the union
// over all items). Fields whose value is free-form (a skill's own
// metadata, a diagnostic's detail, a skill's output) are listed without
// what they hold.
func fieldPaths(raw json.RawMessage) ([]string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, child := range v {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				seen[p] = true
				if k != "metadata" && k != "detail" && k != "output" {
					walk(p, child)
				}
			}
		case []any:
			for _, item := range v {
				walk(prefix+"[]", item)
			}
		}
	}
	walk("", v)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}

// The fields of the answers that share a shape.
var (
	rowFields = []string{"createTime", "description", "envSchema", "fingerprint", "id", "installSpec", "installedAt",
		"label", "metadata", "name", "skillType", "skillTypeV2", "source", "sourceUrl", "status", "tags", "updateTime", "version"}
	// the ocr fixture's envSchema and installSpec have items
	ocrRowFields = append(slices.Clone(rowFields), "envSchema[].default", "envSchema[].description", "envSchema[].name", "envSchema[].required",
		"installSpec[].formula", "installSpec[].id", "installSpec[].kind", "installSpec[].label")
	metaFields = []string{"classification", "description", "emoji", "hidden", "label", "name", "skillType", "source", "sourceUrl",
		"status", "tags", "version"}
	changeFields = append(slices.Clone(metaFields), "diagnostics", "notes", "replaced", "upToDate")
	keyFields    = []string{"keys[].hasValue", "keys[].name"}
	diagFields   = []string{"code", "detail", "level", "message", "path", "skillName"}
)

// within puts a list of fields under a path: within("list[]", "a") is
// "list[].a".
func within(path string, fields []string) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = path + "." + f
	}
	return out
}

func fields(lists ...[]string) []string {
	out := slices.Concat(lists...)
	slices.Sort(out)
	return slices.Compact(out)
}

// TestContract calls every route of the admin API this example implements,
// in an order that gives each something to answer, and compares the field
// names of each answer, at every depth, with the API's: a renamed, added
// or dropped field fails it.
func TestContract(t *testing.T) {
	f := newFixture(t)
	writeFile(t, f.dir, "ocr/SKILL.md", "---\nname: ocr\ndescription: Reads text in images.\nversion: 1.2.0\nmetadata:\n  label: OCR reader\n"+
		"  skillType: multimodal\n  emoji: \"🔎\"\n  tags: [vision, text]\n  install:\n    - id: tesseract\n      kind: brew\n      formula: tesseract\n      label: Install tesseract\n---\nCall execute_skill.\n")
	writeFile(t, f.dir, "ocr/skill.config.yaml", "runtime: bash\nentrypoint: run.sh\nenv:\n  - name: OCR_API_KEY\n    required: true\n    description: the OCR key\n"+
		"  - name: OCR_ENDPOINT\n    default: https://ocr.example/v1\n")
	writeFile(t, f.dir, "ocr/run.sh", "echo '{\"text\":\"hello\"}'\n")
	writeFile(t, f.dir, "toolkit/SKILL.md", "---\nname: toolkit\ndescription: Scripts run with bash.\n---\nRun scripts/go.sh.\n")
	writeFile(t, f.dir, "toolkit/skill.config.yaml", "runtime: bash\n")
	if _, err := f.srv.kit.Rescan(context.Background()); err != nil {
		t.Fatal(err)
	}
	repo := gitRepo(t, "notes")
	archive := zipOf(t, map[string]string{"packed/SKILL.md": "---\nname: packed\ndescription: Uploaded.\n---\nBody.\n",
		"packed/skill.config.yaml": "runtime: bash\nsetup:\n  posix: setup.sh\n", "packed/setup.sh": "echo preparing\nexit 3\n"})
	agentSkill := quoteJSON("---\nname: checklist\ndescription: A release checklist.\n---\nTick every box.\n")

	for _, c := range []struct {
		route  string // METHOD /path?query
		body   string // JSON, or the ZIP for uploadInstall
		fields []string
		check  func(data json.RawMessage) error // what the answer says, beyond its shape
	}{
		{"GET /metas", "", within("[]", metaFields), nil},
		{"POST /page", `{"page":1,"size":1,"keyWord":"OCR READER","status":1,"source":"local","skillType":"multimodal"}`,
			fields(within("list[]", ocrRowFields), []string{"list", "pagination", "pagination.page", "pagination.size", "pagination.total"}),
			wants(`"total":1`, `"id":"ocr"`, `"label":"OCR reader"`)},
		{"POST /list", `{}`, fields(within("[]", ocrRowFields)), wants(`"name":"toolkit"`, `"skillTypeV2":"compute-toolkit"`)},
		{"GET /info?id=ocr", "", ocrRowFields,
			wants(`"status":1`, `"source":"local"`, `"tags":["vision","text"]`, `"skillTypeV2":"compute-entry"`, `"version":"1.2.0"`)},
		{"GET /content?name=ocr", "", []string{}, wants(`"---\nname: ocr\n`)},
		{"GET /envSchema?name=ocr", "", fields([]string{"name", "envSchema", "keys"}, within("envSchema[]", []string{"default", "description", "name", "required"}), keyFields),
			wants(`{"name":"OCR_API_KEY","hasValue":false}`)},
		{"GET /diagnostics?level=warning", "", within("[]", diagFields), wants(`"code":"ENV_NOT_CONFIGURED","skillName":"ocr"`)},
		{"POST /secrets", `{"name":"ocr","secrets":{"OCR_API_KEY":"sk-contract"}}`, fields([]string{"name", "keys"}, keyFields),
			wants(`{"name":"OCR_API_KEY","hasValue":true}`)},
		{"POST /install", `{"url":"` + repo + `","source":"github","branch":"main"}`, changeFields,
			wants(`"name":"notes"`, `"source":"git"`, `"sourceUrl":"`+repo)},
		{"POST /uploadInstall", string(archive), changeFields, wants(`"name":"packed"`, `"source":"zip"`)},
		{"POST /update", `{"name":"notes"}`, changeFields, wants(`"upToDate":true`)},
		{"POST /checkUpdates", ``, within("[]", []string{"currentHash", "hasUpdate", "latestHash", "name"}),
			func(data json.RawMessage) error {
				// notes alone has an origin to ask; its hashes are the same commit.
				var got []updateCheck
				json.Unmarshal(data, &got)
				if len(got) != 1 || got[0].Name != "notes" || got[0].HasUpdate || len(got[0].CurrentHash) != 40 || got[0].CurrentHash != got[0].LatestHash {
					return fmt.Errorf("want notes alone, with equal hashes")
				}
				return nil
			}},
		{"POST /setStatus", `{"name":"packed","status":0}`, []string{"name", "status"}, wants(`"status":0`)},
		// The setup script fails: a failed command is an answer, with its logs.
		{"POST /installDeps", `{"name":"packed","setup":true}`, []string{"diagnostics", "error", "logs", "success"},
			wants(`"success":false`, "preparing", "exit status 3")},
		{"POST /create", `{"name":"checklist","content":` + agentSkill + `}`, changeFields, wants(`"name":"checklist"`, `"source":"agent"`)},
		{"POST /edit", `{"name":"checklist","files":{"references/boxes.md":"- [ ] tests"}}`, changeFields, wants(`"replaced":true`)},
		{"POST /execute", `{"name":"ocr","input":{}}`, []string{"duration", "output", "success"}, wants(`"success":true,"output":{"text":"hello"}`)},
		{"POST /agentWarnings", `{"skills":["ocr","toolkit"],"tools":["read_skill"]}`, []string{"warnings"},
			wants("ocr are compute-entry but execute_skill is not offered", "toolkit are compute-toolkit", "bash")},
		{"POST /rotateSecrets", ``, []string{"failed", "resealed", "unchanged"}, wants(`"unchanged":1`)},
		{"POST /uninstall", `{"name":"notes"}`, []string{"name"}, nil},
		{"POST /delete", `{"name":"checklist"}`, []string{"name"}, nil},
	} {
		method, path, _ := strings.Cut(c.route, " ")
		var header []string
		if path == "/uploadInstall" {
			header = []string{"Content-Type", "application/zip"}
		}
		code, env, data := f.do(t, method, testPrefix+path, c.body, header...)
		if code != 200 || env.Code != 1000 || env.Message != "success" {
			t.Errorf("%s: %d %+v, want 200 and code 1000", c.route, code, env)
			continue
		}
		got, err := fieldPaths(data)
		if err != nil {
			t.Errorf("%s: %v", c.route, err)
			continue
		}
		if want := fields(c.fields); !slices.Equal(got, want) {
			t.Errorf("%s answers the fields\n  %s\nwant\n  %s\nin %s", c.route, strings.Join(got, " "), strings.Join(want, " "), data)
		}
		if c.check != nil {
			if err := c.check(data); err != nil {
				t.Errorf("%s: %v\n%s", c.route, err, data)
			}
		}
	}
}

// wants checks that the answer holds each piece of JSON text.
func wants(pieces ...string) func(json.RawMessage) error {
	return func(data json.RawMessage) error {
		for _, p := range pieces {
			if !strings.Contains(string(data), p) {
				return fmt.Errorf("the answer lacks %s", p)
			}
		}
		return nil
	}
}

// TestContractCoversEveryRoute keeps TestContract complete: every route
// answering JSON is in it, and its table names the routes of the API's
// own table.
func TestContractCoversEveryRoute(t *testing.T) {
	raw, err := os.ReadFile("contract_test.go")
	if err != nil {
		t.Fatal(err)
	}
	src := string(raw)
	for route := range (&server{}).routes() {
		switch route {
		case "GET /", "GET /events": // HTML and Server-Sent Events: TestBrowser and TestProgressEvents
			continue
		}
		if !strings.Contains(src, `{"`+route) {
			t.Errorf("TestContract does not call %s", route)
		}
	}
	// The API's table: page, list, info, metas, install, uninstall, update,
	// setStatus, content, checkUpdates, installDeps, create, edit.
	for _, route := range []string{"POST /page", "POST /list", "GET /info", "GET /metas", "POST /install", "POST /uninstall",
		"POST /update", "POST /setStatus", "GET /content", "POST /checkUpdates", "POST /installDeps", "POST /create", "POST /edit"} {
		if (&server{}).routes()[route] == nil {
			t.Errorf("the API's route %s is missing", route)
		}
	}
}
