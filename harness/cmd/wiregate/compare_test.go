package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/compare"
)

func TestCompareCLI(t *testing.T) {
	base := filepath.Join("..", "..", "parent", "compare", "testdata", "base.txt")
	head := filepath.Join("..", "..", "parent", "compare", "testdata", "head.txt")

	r := runWiregate(t, "compare", base, head)
	if r.code != 0 || !strings.Contains(r.stdout, "sec/op") || !strings.Contains(r.stdout, "vs base") {
		t.Fatalf("text: %+v", r)
	}

	r = runWiregate(t, "compare", base, head, "--json", "--alpha", "0.01")
	if r.code != 0 {
		t.Fatalf("json: %+v", r)
	}
	var comps []compare.Comparison
	if err := json.Unmarshal([]byte(r.stdout), &comps); err != nil || len(comps) == 0 {
		t.Fatalf("json output: %v\n%s", err, r.stdout)
	}
	if comps[0].P == nil || comps[0].Unit == "" {
		t.Errorf("first comparison incomplete: %+v", comps[0])
	}

	bad := []struct {
		args []string
		want string
	}{
		{[]string{"compare", base}, "want two files"},
		{[]string{"compare", base, "missing.txt"}, "missing.txt: cannot open it"},
		{[]string{"compare", base, head, "--alpha", "2"}, `--alpha is "2": not a significance level`},
		{[]string{"compare", "--bogus", base, head}, "-bogus"},
		{[]string{"compare", base, filepath.Join("..", "..", "parent", "compare", "testdata", "empty.txt")}, "empty.txt is empty"},
	}
	for _, b := range bad {
		wantBadInput(t, runWiregate(t, b.args...), b.want)
	}
}
