package gate

import "testing"

// A stage note counts things in English: "6 processs" read in every
// report's cpu note until this test.
func TestPluralCountsInEnglish(t *testing.T) {
	for _, c := range []struct {
		n    int
		what string
		want string
	}{{1, "process", "1 process"}, {6, "process", "6 processes"}, {2, "worker", "2 workers"}, {0, "message", "0 messages"}} {
		if got := plural(c.n, c.what); got != c.want {
			t.Errorf("plural(%d, %q) = %q, want %q", c.n, c.what, got, c.want)
		}
	}
}
