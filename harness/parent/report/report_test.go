package report

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteHasEveryContractFieldEvenWhenEmpty(t *testing.T) {
	r := New()
	r.Errors = []string{"prepare: buf not found"}
	r.Violations = append(r.Violations, Violation{Kind: KindError, Subject: "prepare", Detail: "buf not found"})
	r.Conclude()
	path := filepath.Join(t.TempDir(), "report.json")
	if err := r.Write(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"version", "result", "base", "head", "violations", "messages", "pipeline"} {
		if _, ok := m[k]; !ok {
			t.Errorf("report.json lacks %q", k)
		}
	}
	if m["result"] != "fail" {
		t.Errorf("an unallowed violation must fail, got %v", m["result"])
	}
}

func TestSummaryWithoutIntervalStillEncodes(t *testing.T) {
	b, err := json.Marshal(Summary{Center: 1.5, Lo: math.Inf(-1), Hi: math.Inf(1), N: 3})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); s != `{"center":1.5,"n":3}` {
		t.Errorf("got %s", s)
	}
	b, _ = json.Marshal(Summary{Center: 2, Lo: 1, Hi: 3, N: 10})
	if !strings.Contains(string(b), `"lo":1`) || !strings.Contains(string(b), `"hi":3`) {
		t.Errorf("got %s", b)
	}
}

func TestAllowedViolationsPass(t *testing.T) {
	r := New()
	r.Violations = append(r.Violations, Violation{Kind: KindBreaking, Subject: "a.proto", Allowed: true})
	r.Conclude()
	if r.Result != "pass" {
		t.Errorf("allowed violation failed the gate")
	}
}
