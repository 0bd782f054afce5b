package valgrind

import "testing"

func TestNotRunningNatively(t *testing.T) {
	if Running() {
		t.Skip("under Valgrind")
	}
}
