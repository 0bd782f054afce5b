package main

import (
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/program/codec"
)

// Every format round-trips every generated record of a message with every
// proto shape (the repo's own schemas have no enums or oneofs).
func TestEveryFormatCarriesEveryProtoShape(t *testing.T) {
	r := runWiregate(t, "check", "-v", "--buf-input", "testdata/kitchen", "--formats", strings.Join(codec.Names(), ","))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, f := range codec.Names() {
		if !strings.Contains(r.stdout, "ok shop.v1.Kitchen/"+f+" ") {
			t.Errorf("no ok line for %s in %q", f, r.stdout)
		}
	}
}
