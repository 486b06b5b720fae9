package executor

import (
	"io"
	"slices"
	"sync"
)

// capture keeps a bounded part of a stream: the first limit bytes (head) or
// the last limit bytes (tail). Everything else is counted and dropped, so a
// program writing without end costs at most 2*limit bytes of memory. Once
// sealed it drops every write, so a reader goroutine that outlives Run can
// never change a returned Result.
type capture struct {
	mu        sync.Mutex
	limit     int
	tail      bool
	buf       []byte
	truncated bool
	sealed    bool
}

func newCapture(limit int64, tail bool) *capture {
	return &capture{limit: int(limit), tail: tail}
}

// Write never fails, so the copying goroutine keeps draining the pipe and the
// program never blocks on a full pipe.
func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sealed {
		return len(p), nil
	}
	switch {
	case !c.tail:
		room := c.limit - len(c.buf)
		if len(p) > room {
			c.truncated = true
			c.buf = append(c.buf, p[:max(room, 0)]...)
		} else {
			c.buf = append(c.buf, p...)
		}
	case len(p) >= c.limit:
		c.truncated = c.truncated || len(p) > c.limit || len(c.buf) > 0
		c.buf = append(c.buf[:0], p[len(p)-c.limit:]...)
	default:
		c.buf = append(c.buf, p...)
		if len(c.buf) > 2*c.limit {
			c.truncated = true
			n := copy(c.buf, c.buf[len(c.buf)-c.limit:])
			c.buf = c.buf[:n]
		}
	}
	return len(p), nil
}

// seal stops the capture and returns what it kept.
func (c *capture) seal() (data []byte, truncated bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sealed = true
	data = c.buf
	if c.tail && len(data) > c.limit {
		data = data[len(data)-c.limit:]
		c.truncated = true
	}
	c.buf = nil
	return slices.Clip(data), c.truncated
}

// copyBuffer size for draining pipes: small, since most output is dropped.
const copyBuffer = 32 << 10

func drain(dst io.Writer, src io.Reader) error {
	_, err := io.CopyBuffer(dst, src, make([]byte, copyBuffer))
	return err
}
