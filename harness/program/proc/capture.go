package proc

import (
	"fmt"
	"strings"
	"sync"
)

// Keep is how much of a child's output a Capture keeps at each end.
const Keep = 32 << 10

// Capture keeps the first and the last Keep bytes written to it (a
// child's stderr): a chatty child cannot grow this process, and both its
// first error line (buf, git) and its last (a program's own error, a
// Valgrind abort) survive. Safe for concurrent writes.
type Capture struct {
	mu      sync.Mutex
	head    []byte
	tail    []byte // the bytes after head; only its last Keep are kept
	dropped int64  // bytes between head and the kept tail
}

func (c *Capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	if room := Keep - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	c.tail = append(c.tail, p...)
	if over := len(c.tail) - Keep; over > Keep { // trim in batches, not on every write
		c.dropped += int64(over)
		c.tail = append(c.tail[:0], c.tail[over:]...)
	}
	return n, nil
}

// String is what was kept, with a line saying how much was left out
// between the two ends.
func (c *Capture) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	tail, dropped := c.tail, c.dropped
	if over := len(tail) - Keep; over > 0 {
		tail, dropped = tail[over:], dropped+int64(over)
	}
	if dropped == 0 {
		return string(c.head) + string(tail)
	}
	return fmt.Sprintf("%s\n[%d bytes left out]\n%s", c.head, dropped, tail)
}

// FirstLine is the first non-empty line kept, trimmed.
func (c *Capture) FirstLine() string { return FirstLine(c.String()) }

// LastLine is the last non-empty line kept, trimmed.
func (c *Capture) LastLine() string { return LastLine(c.String()) }

// FirstLine is s's first non-empty line, trimmed.
func FirstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// LastLine is s's last non-empty line, trimmed.
func LastLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.TrimSpace(s[strings.LastIndexByte(s, '\n')+1:])
}
