package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite report.schema.json from the Go types")

// The committed schema is what the Go types make: a type changed without
// `go test ./report -update` fails here (and so in CI).
func TestSchemaFileIsFresh(t *testing.T) {
	got, err := GenerateSchema(".")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("report.schema.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, SchemaFile) {
		t.Fatal("report.schema.json is not what the Go types make: run `go test ./report -update` (and `npm run schema` for the action's types)")
	}
}

// A report the gate writes validates; one with an unknown stage name, an
// unknown violation kind or a property the contract lacks does not, with
// one line saying where.
func TestValidateKeepsTheContract(t *testing.T) {
	r := New()
	r.Result = "pass"
	r.Stages = append(r.Stages, Stage{Name: "sizes", Seconds: 1})
	r.Violations = append(r.Violations, Violation{Kind: KindSize, Subject: "a.B/json/size", Detail: "grew"})
	good := marshal(t, r)
	if err := Validate(good); err != nil {
		t.Fatalf("a written report: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"name": "sizes"`, `"name": "sizing"`, "/stages/0/name"},
		{`"kind": "size"`, `"kind": "speed"`, "/violations/0/kind"},
		{`"result": "pass"`, `"result": "maybe"`, "/result"},
		{`"version": 1,`, `"version": 1, "extra": true,`, "extra"},
	} {
		bad := strings.Replace(string(good), c.from, c.to, 1)
		if bad == string(good) {
			t.Fatalf("%s is not in the report", c.from)
		}
		err := Validate([]byte(bad))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s → %s: %v", c.from, c.to, err)
		}
	}
}

func marshal(t *testing.T, r *Report) []byte {
	t.Helper()
	path := t.TempDir() + "/report.json"
	if err := r.Write(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// JSON has no NaN or Infinity, and some encoders write them as strings:
// no number of the schema admits a string, so such a report fails
// validation here and in the action (test/report.test.ts), one line saying
// where.
func TestTheSchemaAdmitsNoNumberWrittenAsAString(t *testing.T) {
	var schema any
	if err := json.Unmarshal(SchemaFile, &schema); err != nil {
		t.Fatal(err)
	}
	numbers := 0
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch x := v.(type) {
		case map[string]any:
			types := []any{x["type"]}
			if list, ok := x["type"].([]any); ok {
				types = list
			}
			hasNumber, hasString := false, false
			for _, ty := range types {
				hasNumber = hasNumber || ty == "number" || ty == "integer"
				hasString = hasString || ty == "string"
			}
			if hasNumber {
				numbers++
				if hasString {
					t.Errorf("%s admits a number and a string", at)
				}
			}
			for k, sub := range x {
				walk(sub, at+"/"+k)
			}
		case []any:
			for i, sub := range x {
				walk(sub, fmt.Sprintf("%s/%d", at, i))
			}
		}
	}
	walk(schema, "")
	if numbers < 40 {
		t.Fatalf("only %d numbers in the schema: the walk missed them", numbers)
	}
	r := New()
	r.Result, r.Seconds = "pass", 12
	good := marshal(t, r)
	for _, s := range []string{`"NaN"`, `"Infinity"`, `"-Infinity"`} {
		bad := strings.Replace(string(good), `"seconds": 12`, `"seconds": `+s, 1)
		if bad == string(good) {
			t.Fatal("no seconds in the report")
		}
		if err := Validate([]byte(bad)); err == nil || !strings.Contains(err.Error(), "/seconds") {
			t.Errorf("seconds %s: %v", s, err)
		}
	}
}
