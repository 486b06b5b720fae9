//go:build unix

package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/secrets"
)

// responseLog keeps every byte the server answered, headers included, so a
// test can tell that a value never left it.
type responseLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *responseLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&loggedWriter{ResponseWriter: w, log: l}, r)
	})
}

func (l *responseLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

type loggedWriter struct {
	http.ResponseWriter
	log *responseLog
}

func (w *loggedWriter) WriteHeader(status int) {
	w.log.mu.Lock()
	w.ResponseWriter.Header().Write(&w.log.buf)
	w.log.mu.Unlock()
	w.ResponseWriter.WriteHeader(status)
}

func (w *loggedWriter) Write(p []byte) (int, error) {
	w.log.mu.Lock()
	w.log.buf.Write(p)
	w.log.mu.Unlock()
	return w.ResponseWriter.Write(p)
}

// Flush keeps the event stream streaming.
func (w *loggedWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// TestBrowser uses the page as a person would, in a real headless
// Chromium: it opens the page (refused without the token, then signed in
// with it as the browser's Basic password), installs a skill from a ZIP
// file through the file chooser, sees it listed with the install's
// progress, disables it, and sets a secret, whose value then appears in no
// answer of the server and nowhere in the page; then installs from a git
// URL, updates and checks for updates. It fails on any script
// error or Content-Security-Policy violation, and takes screenshots
// (SKILLKIT_SCREENSHOTS=folder keeps them).
func TestBrowser(t *testing.T) {
	f := newFixture(t)
	// Skill text is untrusted: markup in it must show as text.
	writeFile(t, f.dir, "markup/SKILL.md", "---\nname: markup\ndescription: 'Shows <b>bold</b> and <img src=x onerror=\"document.title=1\"> as text.'\n---\n")
	if _, err := f.srv.kit.Rescan(context.Background()); err != nil {
		t.Fatal(err)
	}
	answers := &responseLog{}
	// Started before the browser, so closed after it: Close waits for the
	// page's event stream to end.
	ts := f.listen(t, answers.wrap(f.h))
	b := startBrowser(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()

	// What the page's script and the browser report: exceptions, errors
	// written to the console, refused resources (CSP).
	var problemsMu sync.Mutex
	var problems []string
	problem := func(m message) {
		problemsMu.Lock()
		defer problemsMu.Unlock()
		problems = append(problems, m.Method+" "+string(m.Params))
	}
	b.handle("Runtime.exceptionThrown", problem)
	b.handle("Log.entryAdded", func(m message) {
		var e struct {
			Entry struct{ Source, Level, Text, URL string }
		}
		json.Unmarshal(m.Params, &e)
		// The refusals the test asks for: the page without the token
		// (401), a secret too long (400).
		expected := e.Entry.Source == "network" && (strings.Contains(e.Entry.Text, "status of 401") ||
			strings.Contains(e.Entry.Text, "status of 400") && strings.HasSuffix(e.Entry.URL, "/secrets"))
		if e.Entry.Level == "error" && !expected {
			problem(m)
		}
	})
	b.handle("Runtime.consoleAPICalled", func(m message) {
		if strings.Contains(string(m.Params), `"type":"error"`) {
			problem(m)
		}
	})
	// Every request passes through here, so the test answers the browser's
	// password prompt as a person would: no, then the token.
	var prompts atomic.Int32
	var signIn atomic.Bool
	b.handle("Fetch.requestPaused", func(m message) {
		var p struct{ RequestID string }
		json.Unmarshal(m.Params, &p)
		b.call(ctx, m.SessionID, "Fetch.continueRequest", map[string]any{"requestId": p.RequestID}, nil)
	})
	b.handle("Fetch.authRequired", func(m message) {
		var p struct {
			RequestID     string
			AuthChallenge struct{ Source, Origin, Scheme, Realm string }
		}
		json.Unmarshal(m.Params, &p)
		prompts.Add(1)
		answer := map[string]any{"response": "CancelAuth"}
		if p.AuthChallenge.Origin != ts.URL || p.AuthChallenge.Scheme != "basic" {
			t.Errorf("a password prompt for %+v", p.AuthChallenge)
		} else if signIn.Load() {
			answer = map[string]any{"response": "ProvideCredentials", "username": "admin", "password": testToken}
		}
		b.call(ctx, m.SessionID, "Fetch.continueWithAuth", map[string]any{"requestId": p.RequestID, "authChallengeResponse": answer}, nil)
	})

	tb, err := b.newTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, domain := range []string{"Page", "Runtime", "Log"} {
		if err := tb.call(ctx, domain+".enable", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := tb.call(ctx, "Fetch.enable", map[string]any{"handleAuthRequests": true, "patterns": []map[string]any{{"urlPattern": "*"}}}, nil); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	text := func(selector string) string {
		t.Helper()
		var s string
		must(tb.eval(ctx, fmt.Sprintf(`document.querySelector(%q)?.innerText ?? ""`, selector), &s))
		return s
	}
	page := ts.URL + testPrefix + "/"
	open := func() {
		t.Helper()
		must(tb.call(ctx, "Page.navigate", map[string]any{"url": page}, nil))
		must(tb.waitFor(ctx, "the page to load", fmt.Sprintf(`location.href === %q && document.readyState === "complete"`, page)))
	}

	// Without the token: the refusal, and nothing of the skills.
	open()
	if body := text("body"); !strings.Contains(body, "missing or wrong token") || strings.Contains(body, "ocr") {
		t.Fatalf("the page without the token shows:\n%s", body)
	}
	signIn.Store(true)
	open()
	must(tb.waitFor(ctx, "the list", `document.querySelector('tr[data-skill="ocr"]')`))
	if row := text(`tr[data-skill="markup"]`); !strings.Contains(row, `Shows <b>bold</b> and <img src=x onerror="document.title=1"> as text.`) {
		t.Errorf("markup in a skill's description is not shown as text: %q", row)
	}
	var elements int
	if must(tb.eval(ctx, `document.querySelectorAll("#skills b, #skills img").length`, &elements)); elements != 0 {
		t.Errorf("markup in a skill's description became %d elements", elements)
	}
	if row := text(`tr[data-skill="ocr"]`); !strings.Contains(row, "compute-entry") || !strings.Contains(row, "local") || !strings.Contains(row, "enabled") {
		t.Errorf("the row of ocr: %q", row)
	}
	// The banner's list is folded: its text is there, not shown.
	must(tb.waitFor(ctx, "the diagnostics", `document.querySelector("#diagnostics summary").innerText.startsWith("0 errors, ") &&
		document.querySelector("#diagnostics").textContent.includes("ocr: ENV_NOT_CONFIGURED")`))

	// Install from a ZIP file, chosen as with the file chooser.
	archive := filepath.Join(t.TempDir(), "weather.zip")
	if err := os.WriteFile(archive, zipOf(t, map[string]string{
		"weather/SKILL.md":           "---\nname: weather\ndescription: Tells the weather from a paid API.\n---\nRun scripts/weather.sh.\n",
		"weather/skill.config.yaml":  "runtime: bash\nenv:\n  - name: WEATHER_API_KEY\n    required: true\n    description: the key of the weather API\n",
		"weather/scripts/weather.sh": "curl -s -H \"Authorization: Bearer $WEATHER_API_KEY\" https://weather.example/now\n",
	}), 0o644); err != nil {
		t.Fatal(err)
	}
	must(tb.setFiles(ctx, "#zip", archive))
	must(tb.click(ctx, "#install-zip button[type=submit]"))
	must(tb.waitFor(ctx, "the installed skill listed", `document.querySelector('tr[data-skill="weather"]')`))
	must(tb.waitFor(ctx, "the install's result", `document.querySelector("#messages").innerText.includes("Installed weather")`))
	must(tb.waitFor(ctx, "the install's progress, done", `document.querySelector("#progress-text").innerText === "install weather: done." &&
		document.querySelector("#progress progress").value === 100`))
	if row := text(`tr[data-skill="weather"]`); !strings.Contains(row, "compute-toolkit") || !strings.Contains(row, "zip") || !strings.Contains(row, "enabled") {
		t.Errorf("the row of weather: %q", row)
	}

	// Disable it.
	must(tb.click(ctx, `tr[data-skill="weather"] button[data-action="toggle"]`))
	must(tb.waitFor(ctx, "weather disabled", `document.querySelector('tr[data-skill="weather"] .tag.disabled')`))
	if rec, err := f.srv.kit.Registry().Get(ctx, "weather"); err != nil || rec.Enabled {
		t.Errorf("the registry after Disable: %+v %v", rec, err)
	}

	// Set its secret.
	secret := "sk-weather-" + rand.Text()
	must(tb.click(ctx, `tr[data-skill="weather"] button[data-action="secrets"]`))
	must(tb.waitFor(ctx, "the secrets dialog", `document.querySelector("#secrets").open && document.querySelector("#secrets-vars").innerText.includes("not set")`))
	// A value the server refuses (longer than a value may be) leaves the
	// page too.
	must(tb.typeText(ctx, `#secrets-vars input[data-var="WEATHER_API_KEY"]`, secret+strings.Repeat("x", secrets.MaxValueLen)))
	must(tb.click(ctx, "#secrets-form button[type=submit]"))
	must(tb.waitFor(ctx, "the refusal", `document.querySelector("#secrets-message").innerText.startsWith("Not saved: secrets: value too long")`))
	secretInPage := fmt.Sprintf(`[document.documentElement.outerHTML, ...[...document.querySelectorAll("input")].map((i) => i.value),
		JSON.stringify(localStorage), JSON.stringify(sessionStorage)].some((s) => s.includes(%q))`, secret)
	var inPage bool
	if must(tb.eval(ctx, secretInPage, &inPage)); inPage {
		t.Error("a refused value stays in the page")
	}
	must(tb.typeText(ctx, `#secrets-vars input[data-var="WEATHER_API_KEY"]`, secret))
	must(tb.click(ctx, "#secrets-form button[type=submit]"))
	must(tb.waitFor(ctx, "the secret saved", `document.querySelector("#secrets-message").innerText.startsWith("Saved WEATHER_API_KEY") &&
		document.querySelector("#secrets-vars").innerText.includes("saved (not shown)")`))
	sk, _, _ := f.srv.kit.Skill(ctx, "weather")
	if env, err := f.srv.kit.Vault().ResolveEnv(ctx, "weather", sk.Env); err != nil || env["WEATHER_API_KEY"] != secret {
		t.Errorf("the vault does not hold the value typed: %v", err)
	}
	// The warning that weather's required variable had no value is gone.
	must(tb.waitFor(ctx, "the diagnostics without weather's", `document.querySelector("#diagnostics").textContent.includes("ocr: ENV_NOT_CONFIGURED") &&
		!document.querySelector("#diagnostics").textContent.includes("weather: ENV_NOT_CONFIGURED")`))
	shoot(ctx, t, tb, "secrets.png")
	must(tb.click(ctx, "#secrets-close"))
	must(tb.waitFor(ctx, "the dialog closed", `!document.querySelector("#secrets").open`))

	// Install from a git URL, update it, check for updates.
	must(tb.typeText(ctx, "#url", gitRepo(t, "notes")))
	must(tb.typeText(ctx, "#branch", "main"))
	must(tb.click(ctx, "#install-url button[type=submit]"))
	must(tb.waitFor(ctx, "the skill from git listed", `document.querySelector('tr[data-skill="notes"]')?.innerText.includes("git")`))
	must(tb.click(ctx, `tr[data-skill="notes"] button[data-action="update"]`))
	must(tb.waitFor(ctx, "the update's result", `document.querySelector("#messages").innerText === "notes is up to date."`))
	must(tb.click(ctx, "#check-updates"))
	must(tb.waitFor(ctx, "the update check", `document.querySelector("#messages").innerText.startsWith("0 of 1 skills") &&
		document.querySelector('tr[data-skill="notes"]').innerText.includes("up to date")`))
	shoot(ctx, t, tb, "skills.png")

	// The value is nowhere: not in the page, its fields or its storage,
	// not in any answer of the server.
	if must(tb.eval(ctx, secretInPage, &inPage)); inPage {
		t.Error("the secret's value is in the page")
	}
	if all := answers.String(); strings.Contains(all, secret) || !strings.Contains(all, `"name":"weather"`) {
		t.Errorf("the secret is in the server's answers (%v), or they were not recorded", strings.Contains(all, secret))
	}
	if n := prompts.Load(); n != 2 {
		t.Errorf("the browser asked for the password %d times, want twice (refused, then given)", n)
	}
	problemsMu.Lock()
	defer problemsMu.Unlock()
	for _, p := range problems {
		t.Errorf("the browser reported: %s", p)
	}
}

// shoot takes a screenshot of the page, checks that it shows something,
// and saves it in the folder $SKILLKIT_SCREENSHOTS names (else in one
// removed after the test).
func shoot(ctx context.Context, t *testing.T, tb *tab, name string) {
	t.Helper()
	data, err := tb.screenshot(ctx)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	colors := map[color.Color]bool{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 4 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 4 {
			colors[img.At(x, y)] = true
		}
	}
	if img.Bounds().Dx() < 800 || len(colors) < 8 {
		t.Errorf("screenshot %s: %v with %d colors: a blank page?", name, img.Bounds(), len(colors))
	}
	dir := os.Getenv("SKILLKIT_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
