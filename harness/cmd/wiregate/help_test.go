package main

import (
	"strings"
	"testing"
)

// Help, on the program or on any command, prints to stdout and
// exits 0.
func TestHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"help"}, {"gate", "--help"}, {"pipeline", "-h"}, {"compare", "-h"}, {"sizes", "--help"}} {
		r := runWiregate(t, args...)
		if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, "usage: wiregate") {
			t.Errorf("%q: exit %d, stdout %.80q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
}
