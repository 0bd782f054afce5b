package gate

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// The profile tests count one small message (cpucost's shop.v1.Receipt)
// in one process a side, decode only: what a schema change adds to a
// decode, and which functions say so.

// receipt copies cpucost's test module and applies edits (old → new) to
// its Receipt.
func receipt(t *testing.T, edits ...string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", "../cpucost/testdata/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	proto := filepath.Join(dir, "shop", "v1", "receipt.proto")
	b, _ := os.ReadFile(proto)
	for i := 0; i < len(edits); i += 2 {
		if !strings.Contains(string(b), edits[i]) {
			t.Fatalf("receipt.proto has no %q", edits[i])
		}
		b = []byte(strings.Replace(string(b), edits[i], edits[i+1], 1))
	}
	if err := os.WriteFile(proto, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// profiledCount counts Receipt's decode in formats under dir, with
// profiles, in one process (the bench program prepared in the default
// cache, as the gate tests do).
func profiledCount(t *testing.T, dir string, formats ...string) []cpucost.Result {
	t.Helper()
	if testing.Short() {
		t.Skip("counts under Valgrind")
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		if os.Getenv("WIREGATE_SKIP_VALGRIND") == "1" {
			t.Skip("valgrind not installed and WIREGATE_SKIP_VALGRIND=1")
		}
		t.Fatal("valgrind not installed: apt-get install valgrind, or set WIREGATE_SKIP_VALGRIND=1")
	}
	ctx := context.Background()
	msgs := []string{"shop.v1.Receipt"}
	p, err := prepare.Prepare(ctx, prepare.Options{BufInput: dir, HarnessDir: "../..", Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	sel := benchprog.Selection{Messages: msgs, Formats: formats}
	saved := t.TempDir()
	if _, err := (&benchprog.Program{Binary: p.Binary}).Sizes(ctx, benchprog.SizesFlags{Selection: sel, Save: saved}); err != nil {
		t.Fatal(err)
	}
	sel.Saved = saved
	c, err := cpucost.Count(ctx, p.Binary, sel, cpucost.Options{Ops: []string{"decode"}, Profiles: true, Parallel: 1})
	if err != nil || c.Unavailable != "" {
		t.Fatalf("count: %v %s", err, c.Unavailable)
	}
	return c.Results
}

// movedBy is each decode metric's named functions, by format, as the gate
// reports them.
func movedBy(t *testing.T, base, head []cpucost.Result) map[string]formatMetric {
	t.Helper()
	out := map[string]formatMetric{}
	for _, m := range countMetrics(base, head) {
		out[m.format] = m
		for _, f := range m.Functions {
			t.Logf("%s %s %.0f → %.0f: %s (%s) self %.1f → %.1f, inclusive %.1f → %.1f, explains most %v", m.format, m.Name,
				m.Base.Center, m.Head.Center, f.Name, f.Kind, f.SelfBase, f.SelfHead, f.InclusiveBase, f.InclusiveHead, f.ExplainsMost)
		}
	}
	return out
}

func names(m formatMetric) []string {
	var out []string
	for _, f := range m.Functions {
		out = append(out, f.Name)
	}
	return out
}

// A/A: the same program counted twice names no function in any format:
// none moves past its count's noise floor.
func TestProfileAANamesNoFunction(t *testing.T) {
	dir := receipt(t)
	a := profiledCount(t, dir, "protobuf", "json")
	b := profiledCount(t, dir, "protobuf", "json")
	for format, m := range movedBy(t, a, b) {
		if len(m.Functions) > 0 {
			t.Errorf("%s: A/A named %v", format, names(m))
		}
	}
}

// A string field added: protobuf-go validates a proto3 string's UTF-8 on
// decode, and that check is among the functions that grew.
func TestProfileStringFieldShowsUTF8Validation(t *testing.T) {
	base := profiledCount(t, receipt(t), "protobuf")
	head := profiledCount(t, receipt(t, "int32 items = 7;", "int32 items = 7;\n  string cashier_name = 8;"), "protobuf")
	m := movedBy(t, base, head)["protobuf"]
	if !m.Significant {
		t.Fatalf("a string field did not move protobuf decode past its floor: %+v", m.Metric)
	}
	found := false
	for _, f := range m.Functions {
		if strings.HasPrefix(f.Name, "utf8.") && f.SelfHead > f.SelfBase {
			found = true
		}
	}
	if !found {
		t.Errorf("no UTF-8 validation among the functions that grew: %v", names(m))
	}
}

// A map<string,string> added: the map decode path leads. What it does
// itself is less than the allocation its entries need, so self cost ranks
// allocation first; with what it calls, protobuf-go's map decode is the
// named function that grew most.
func TestProfileMapFieldLeadsWithTheMapPath(t *testing.T) {
	base := profiledCount(t, receipt(t), "protobuf")
	head := profiledCount(t, receipt(t, "int32 items = 7;", "int32 items = 7;\n  map<string, string> labels = 8;"), "protobuf")
	m := movedBy(t, base, head)["protobuf"]
	if len(m.Functions) == 0 {
		t.Fatalf("a map field named no function: %+v", m.Metric)
	}
	lead := slices.MaxFunc(m.Functions, func(a, b report.FunctionCost) int { return cmp.Compare(a.InclusiveDelta, b.InclusiveDelta) })
	if !strings.Contains(strings.ToLower(lead.Name), "map") {
		t.Errorf("%q grew most with what it calls, not the map path: %v", lead.Name, names(m))
	}
	if grew := m.Head.Center - m.Base.Center; lead.InclusiveDelta < grew/2 {
		t.Errorf("the map path and what it calls grew %+.0f of %+.0f instr/op, want most of it", lead.InclusiveDelta, grew)
	}
}

// A JSON key renamed: encoding/json's field lookup grows in JSON decode
// (here its key handling: scanning and unquoting the longer key it looks
// the field up by; the map lookup itself moves less than JSON's floor),
// and protobuf, whose bytes are the same, names no function.
func TestProfileJSONRenameGrowsJSONsFieldLookupOnly(t *testing.T) {
	base := profiledCount(t, receipt(t), "protobuf", "json")
	head := profiledCount(t, receipt(t, "string note = 6;", "string note_printed_under_the_total_for_the_customer = 6;"), "protobuf", "json")
	ms := movedBy(t, base, head)
	if fs := ms["protobuf"].Functions; len(fs) > 0 {
		t.Errorf("protobuf named functions for a JSON-only rename: %v", names(ms["protobuf"]))
	}
	grew := false
	for _, f := range ms["json"].Functions {
		if strings.HasPrefix(f.Name, "json.") && f.SelfHead > f.SelfBase {
			grew = true
		}
	}
	if !grew {
		t.Errorf("no encoding/json function grew in JSON decode: %v", names(ms["json"]))
	}
}

// Each side's figure is the median of its processes (one process's
// outlier does not name a function), only changes past the floor are
// named, the largest first, at most maxFunctions, and the first explains
// most only when its change is more than half the count's.
func TestFunctionsMovedByTheMedianPastTheFloor(t *testing.T) {
	side := func(grow float64, outlier bool) []cpucost.Profile {
		var out []cpucost.Profile
		for i := range 3 {
			p := cpucost.Profile{"steady": {Kind: "function", Self: 100, Inclusive: 100}, "noisy": {Kind: "function", Self: 50, Inclusive: 50}}
			if outlier && i == 1 {
				p["noisy"] = cpucost.FuncCost{Kind: "function", Self: 500, Inclusive: 500}
			}
			for j := range 7 {
				name := fmt.Sprintf("grew%d", j)
				p[name] = cpucost.FuncCost{Kind: "group", Self: 10 + grow*float64(j+1), Inclusive: 20 + grow*float64(j+1)}
			}
			out = append(out, p)
		}
		return out
	}
	got := functionsMoved(side(0, false), side(5, true), 12, 140)
	var names []string
	for _, f := range got {
		names = append(names, f.Name)
	}
	// grew0 (+5) and grew1 (+10) are within the floor; noisy's one process is not its median.
	if want := []string{"grew6", "grew5", "grew4", "grew3", "grew2"}; !slices.Equal(names, want) {
		t.Fatalf("named %v, want %v", names, want)
	}
	if f := got[0]; f.SelfBase != 10 || f.SelfHead != 45 || f.SelfDelta != 35 || f.InclusiveDelta != 35 || f.Kind != "group" || f.ExplainsMost {
		t.Errorf("first %+v (35 of 140 explains no most)", f)
	}
	if got := functionsMoved(side(0, false), side(5, false), 12, 60); !got[0].ExplainsMost {
		t.Errorf("35 of 60 instr/op: the first explains most: %+v", got[0])
	}
	if got := functionsMoved(side(0, false), side(0, true), 12, 0); len(got) != 0 {
		t.Errorf("A/A named %+v", got)
	}
}
