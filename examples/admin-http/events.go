package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/installer"
)

// broker fans installer events out to the clients of the events stream:
// skill_install_progress {name, step, percent, message} then
// skill_install_done {name, success, error} for installs, updates,
// uninstalls and agent-written skills; skill_deps_progress then
// skill_deps_done for dependency installs. A slow client misses events
// rather than slowing an install down.
type broker struct {
	mu   sync.Mutex
	subs map[chan sse]struct{}
}

type sse struct {
	name string
	data []byte
}

func newBroker() *broker { return &broker{subs: map[chan sse]struct{}{}} }

// publish is the Progress hook of installs and dependency installs: it must
// return at once.
func (b *broker) publish(e installer.Event) {
	kind := "install"
	if e.Op == deps.OpDeps {
		kind = "deps"
	}
	name := "skill_" + kind + "_progress"
	var payload any = progressEvent{Name: e.Skill, Op: string(e.Op), Source: e.Source, Step: string(e.Step), Percent: e.Percent, Message: e.Message}
	if e.Done {
		name = "skill_" + kind + "_done"
		done := doneEvent{Name: e.Skill, Op: string(e.Op), Success: e.Err == nil}
		if e.Err != nil {
			done.Error = e.Err.Error()
		}
		payload = done
	}
	data, err := json.Marshal(payload)
	if err != nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs {
		select {
		case ch <- sse{name, data}:
		default: // the client is behind; it misses this event
		}
	}
}

func (b *broker) subscribe() (chan sse, func()) {
	ch := make(chan sse, 64)
	b.mu.Lock()
	b.subs[ch] = struct{}{}
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		delete(b.subs, ch)
		b.mu.Unlock()
	}
}

// stream serves the events as Server-Sent Events until the client leaves.
func (s *server) stream(w http.ResponseWriter, r *http.Request) {
	flusher, canFlush := w.(http.Flusher)
	if !canFlush {
		fail(w, http.StatusInternalServerError, fmt.Errorf("streaming is not supported"))
		return
	}
	ch, cancel := s.events.subscribe()
	defer cancel()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": connected\n\n")
	flusher.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case e := <-ch:
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, e.data)
			flusher.Flush()
		}
	}
}
