package proc

import (
	"fmt"
	"strings"
	"testing"
)

// A child that writes megabytes keeps the parent at 2 × Keep, with its
// first and last lines and the count of what was left out.
func TestCaptureKeepsBothEndsOfAFlood(t *testing.T) {
	var c Capture
	c.Write([]byte("fatal: the first error\n"))
	total := len("fatal: the first error\n")
	for i := range 100_000 {
		n, _ := fmt.Fprintf(&c, "line %d of noise\n", i)
		total += n
	}
	c.Write([]byte("the last word\n"))
	total += len("the last word\n")

	s := c.String()
	if got := c.FirstLine(); got != "fatal: the first error" {
		t.Errorf("FirstLine %q", got)
	}
	if got := c.LastLine(); got != "the last word" {
		t.Errorf("LastLine %q", got)
	}
	kept := len(c.head) + Keep
	marker := fmt.Sprintf("\n[%d bytes left out]\n", total-kept)
	if !strings.Contains(s, marker) {
		t.Errorf("no %q in what was kept", marker)
	}
	if len(s) != kept+len(marker) {
		t.Errorf("kept %d bytes of %d, want %d", len(s)-len(marker), total, kept)
	}
	if len(c.tail) > 2*Keep {
		t.Errorf("tail holds %d bytes, want at most %d", len(c.tail), 2*Keep)
	}
}

func TestCaptureUnderTheBoundIsWhole(t *testing.T) {
	var c Capture
	c.Write([]byte("\n  hint: first\nerror: second \n\n"))
	if c.String() != "\n  hint: first\nerror: second \n\n" || c.FirstLine() != "hint: first" || c.LastLine() != "error: second" {
		t.Errorf("String %q FirstLine %q LastLine %q", c.String(), c.FirstLine(), c.LastLine())
	}
}
