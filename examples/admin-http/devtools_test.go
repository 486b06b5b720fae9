//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// browser is a headless Chromium driven through the DevTools protocol over
// the pipe Chromium offers with --remote-debugging-pipe (it reads commands
// from file descriptor 3 and writes answers and events to 4, each message
// JSON ended by a NUL byte). No port is opened, so no other process on the
// machine can drive it, and no library is needed: the handful of commands
// the tests send are written out where they are used.
type browser struct {
	cmd      *exec.Cmd
	commands io.WriteCloser
	writing  sync.Mutex // one command at a time on the pipe

	mu      sync.Mutex
	nextID  int
	pending map[int]chan message
	on      map[string]func(message) // by event method; each runs in its own goroutine
	closed  error                    // why the pipe closed, once it has
}

// message is a DevTools message: an answer (ID set) or an event (Method set).
type message struct {
	ID        int             `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// chromiumFlags are those this kind of machine needs: no sandbox (tests may
// run as root), no GPU, and none of the background connections a closed
// network refuses.
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync", "--remote-debugging-pipe",
	"--window-size=1280,900", "--hide-scrollbars", "--mute-audio"}

// startBrowser starts Chromium with a fresh profile. Without Chromium the
// test is skipped, except in CI (.ci/run installs it).
func startBrowser(t *testing.T) *browser {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if path, err = exec.LookPath("chromium-browser"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("chromium is missing")
			}
			t.Skip("needs chromium")
		}
	}
	cmdR, cmdW, err := os.Pipe() // our commands: Chromium reads fd 3
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe() // its messages: Chromium writes fd 4
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, append(chromiumFlags, "--user-data-dir="+t.TempDir(), "about:blank")...)
	cmd.ExtraFiles = []*os.File{cmdR, outW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its helpers go with it
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmdR.Close()
	outW.Close()
	b := &browser{cmd: cmd, commands: cmdW, pending: map[int]chan message{}, on: map[string]func(message){}}
	go b.read(outR)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		b.call(ctx, "", "Browser.close", nil, nil)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		// Helpers that outlived the browser.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmdW.Close()
		if t.Failed() { // without the complaints of a machine that has no D-Bus
			var lines []string
			for _, l := range strings.Split(stderr.String(), "\n") {
				if !strings.Contains(l, "dbus") {
					lines = append(lines, l)
				}
			}
			t.Logf("chromium's standard error:\n%s", strings.Join(lines, "\n"))
		}
	})
	return b
}

// read delivers answers to their callers and events to their handlers
// until the pipe closes.
func (b *browser) read(r io.Reader) {
	br := bufio.NewReader(r)
	var err error
	for {
		var raw []byte
		raw, err = br.ReadBytes(0)
		if err != nil {
			break
		}
		var m message
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch := b.pending[m.ID]; ch != nil {
				ch <- m
				delete(b.pending, m.ID)
			}
		} else if h := b.on[m.Method]; h != nil {
			go h(m)
		}
		b.mu.Unlock()
	}
	b.mu.Lock()
	b.closed = fmt.Errorf("the DevTools pipe closed: %w", err)
	for id, ch := range b.pending {
		close(ch)
		delete(b.pending, id)
	}
	b.mu.Unlock()
}

// handle sets the handler of an event.
func (b *browser) handle(method string, h func(message)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.on[method] = h
}

// call sends a command, in a target's session when session is not empty,
// and decodes its result into result when not nil.
func (b *browser) call(ctx context.Context, session, method string, params, result any) error {
	b.mu.Lock()
	if b.closed != nil {
		b.mu.Unlock()
		return b.closed
	}
	b.nextID++
	id := b.nextID
	ch := make(chan message, 1)
	b.pending[id] = ch
	b.mu.Unlock()
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(message{ID: id, SessionID: session, Method: method, Params: p})
	if err != nil {
		return err
	}
	b.writing.Lock()
	_, err = b.commands.Write(append(raw, 0))
	b.writing.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: %w", method, b.closed)
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, context.Cause(ctx))
	}
}

// tab is one page of the browser, attached in its own session.
type tab struct {
	b       *browser
	session string
}

// newTab opens a blank page and attaches to it.
func (b *browser) newTab(ctx context.Context) (*tab, error) {
	var target struct{ TargetID string }
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return nil, err
	}
	var attached struct{ SessionID string }
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		return nil, err
	}
	return &tab{b: b, session: attached.SessionID}, nil
}

func (tb *tab) call(ctx context.Context, method string, params, result any) error {
	return tb.b.call(ctx, tb.session, method, params, result)
}

// eval runs a JavaScript expression in the page, awaiting a promise, and
// decodes its value into result when not nil.
func (tb *tab) eval(ctx context.Context, expr string, result any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := tb.call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r); err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("%s: %s %s", expr, r.ExceptionDetails.Text, r.ExceptionDetails.Exception.Description)
	}
	if result != nil {
		return json.Unmarshal(r.Result.Value, result)
	}
	return nil
}

// waitFor evaluates a JavaScript condition until it is true, for at most
// 30 seconds.
func (tb *tab) waitFor(ctx context.Context, what, cond string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		var ok bool
		err := tb.eval(ctx, "Boolean("+cond+")", &ok)
		if err == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s (%s): %w", what, cond, errors.Join(context.Cause(ctx), err))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// click presses and releases the mouse in the middle of the element the
// CSS selector finds, as a person would: the element must be visible and
// on top there.
func (tb *tab) click(ctx context.Context, selector string) error {
	if err := tb.waitFor(ctx, selector+" visible", fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false;
		e.scrollIntoView({block: "center"}); const r = e.getBoundingClientRect();
		return r.width > 0 && document.elementFromPoint(r.x + r.width/2, r.y + r.height/2) === e; })()`, selector)); err != nil {
		return err
	}
	var at struct{ X, Y float64 }
	if err := tb.eval(ctx, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
		return {x: r.x + r.width/2, y: r.y + r.height/2}; })()`, selector), &at); err != nil {
		return err
	}
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		if err := tb.call(ctx, "Input.dispatchMouseEvent", map[string]any{"type": typ, "x": at.X, "y": at.Y, "button": "left", "clickCount": 1}, nil); err != nil {
			return err
		}
	}
	return nil
}

// typeText clicks the field the selector finds and types text into it.
func (tb *tab) typeText(ctx context.Context, selector, text string) error {
	if err := tb.click(ctx, selector); err != nil {
		return err
	}
	return tb.call(ctx, "Input.insertText", map[string]any{"text": text}, nil)
}

// setFiles chooses files for the file input the selector finds, as the
// file chooser would.
func (tb *tab) setFiles(ctx context.Context, selector string, files ...string) error {
	var doc struct{ Root struct{ NodeID int } }
	if err := tb.call(ctx, "DOM.getDocument", nil, &doc); err != nil {
		return err
	}
	var found struct{ NodeID int }
	if err := tb.call(ctx, "DOM.querySelector", map[string]any{"nodeId": doc.Root.NodeID, "selector": selector}, &found); err != nil {
		return err
	}
	return tb.call(ctx, "DOM.setFileInputFiles", map[string]any{"nodeId": found.NodeID, "files": files}, nil)
}

// screenshot returns the page as PNG.
func (tb *tab) screenshot(ctx context.Context) ([]byte, error) {
	var shot struct{ Data []byte } // base64 in JSON, which []byte decodes
	err := tb.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
	return shot.Data, err
}
