package shard

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
)

var update = flag.Bool("update", false, "rewrite plan.schema.json from the Go types")

// The committed schema is what the Go types make: a type changed without
// `go test ./parent/shard -update` fails here (and so in CI).
func TestPlanSchemaFileIsFresh(t *testing.T) {
	got, err := GeneratePlanSchema(".")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("plan.schema.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, PlanSchemaFile) {
		t.Fatal("plan.schema.json is not what the Go types make: run `go test ./parent/shard -update` (and `npm run schema` for the action's types)")
	}
}

// A plan as `wiregate plan` writes it validates, the one-shard plan of a
// gate that could not start too; a plan with more shards than a shard input
// may name, parts written as null, a property the contract lacks, or a
// shard or part name not of the contract's pattern (whose writers are
// tested against it below) does not, with one line saying where.
func TestPlanSchemaTakesWhatPlanWrites(t *testing.T) {
	m := MatrixOf(2)
	plans := map[string]Split{
		"split": {Shards: 2, Matrix: m, Needed: 3, MaxShards: 2, PriceSeconds: 900, CapacitySeconds: 300,
			Parts: []Part{{Shard: m.Shard[0], Artifact: PartName(inputs.Shard{Index: 1, Count: 2}), Messages: []string{"a.V1"}, PriceSeconds: 500},
				{Shard: m.Shard[1], Artifact: PartName(inputs.Shard{Index: 2, Count: 2}), Messages: []string{"b.V1"}, PriceSeconds: 400}},
			Change: &report.Change{Measure: report.MeasureChanged, Changed: []string{"a.V1", "b.V1"}, New: []string{}, Removed: []string{}, Unchanged: []string{}},
			Note:   "2 messages to measure"},
		"bad inputs": {Shards: 1, Matrix: MatrixOf(1), Needed: 1, Parts: []Part{}, Note: "--time-budget is \"1s\": want a duration"},
	}
	for name, p := range plans {
		if err := ValidatePlan(encode(t, p)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	good := string(encode(t, plans["split"]))
	for _, c := range []struct{ from, to, want string }{
		{`"shards":2,`, fmt.Sprintf(`"shards":%d,`, inputs.MaxShards+1), "/shards"},
		{`"shards":2,`, `"shards":0,`, "/shards"},
		{`"parts":[`, `"parts":null,"was":[`, "/parts"},
		{`"note":`, `"extra":true,"note":`, "extra"},
		{`"shard":["1/2"`, `"shard":["x"`, "/matrix/shard/0"},
		{`"artifact":"wiregate-part-1-of-2"`, `"artifact":"../x"`, "/parts/0/artifact"},
		{`"shard":"2/2"`, `"shard":"2 of 2"`, "/parts/1/shard"},
	} {
		bad := strings.Replace(good, c.from, c.to, 1)
		if bad == good {
			t.Fatalf("%s is not in the plan", c.from)
		}
		err := ValidatePlan([]byte(bad))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s → %s: %v", c.from, c.to, err)
		}
	}
}

func encode(t *testing.T, p Split) []byte {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The names' writers write what the contract's patterns take: a matrix of
// 1 to MaxShards shards, each named by inputs.Shard.String and its part by
// PartName.
func TestNameWritersMatchTheContractsPatterns(t *testing.T) {
	shardName, partName := regexp.MustCompile(report.ShardNamePattern), regexp.MustCompile(report.PartNamePattern)
	for _, n := range []int{1, 2, 8, inputs.MaxShards} {
		for i, name := range MatrixOf(n).Shard {
			s := inputs.Shard{Index: i + 1, Count: n}
			if !shardName.MatchString(name) || name != s.String() || !partName.MatchString(PartName(s)) {
				t.Errorf("shard %d of %d: %q, part %q", i+1, n, name, PartName(s))
			}
		}
	}
}
