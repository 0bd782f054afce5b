package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/shard"
)

// readJSON reads a report.json (or plan.json) written by a command.
func readJSON(t *testing.T, path string, v any) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

// The sharded path on this repo's schemas, two messages changed: plan
// splits them over two shards (priced at ~5 s each by static prices, they
// need two shards of 80s, which hold 8 s each), each shard measures its own part
// and exits 0 though it fails on its own (the merge decides), and merge
// makes one report with both messages whose exit code is the process's.
// A part of another head is refused with a report that still renders.
func TestPlanShardsAndMerge(t *testing.T) {
	base, head := copySchemas(t), copySchemas(t)
	grow := func(file, old, new string) {
		t.Helper()
		p := filepath.Join(head, file)
		b, _ := os.ReadFile(p)
		if !strings.Contains(string(b), old) {
			t.Fatalf("%s: no %q", file, old)
		}
		os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
	}
	grow("schemas/orders/v1/order.proto", "map<string, string> meta = 7;", "map<string, string> meta = 7;\n  repeated string tags = 8;")
	grow("schemas/pingpong/v1/ping_pong.proto", "repeated double doubles = 7;", "repeated double doubles = 7;\n  string note = 8;")
	// count 6: a shard job runs at most count bench rounds, so count prices
	// the two messages past one 80 s shard's capacity.
	// The added fields fail: added-content-threshold 1%.
	flags := []string{"--base-dir", base, "--working-directory", head, "--time-budget", "80s", "--max-shards", "2",
		"--formats", "protobuf", "--count", "6", "--benchtime", "5ms", "--pipeline", "false", "--cpu-cost", "off", "--quiet",
		"--added-content-threshold", "1%"}

	planFile := filepath.Join(t.TempDir(), "plan.json")
	ghOutput := filepath.Join(t.TempDir(), "output")
	r := runWiregate(t, append([]string{"plan", "--plan-out", planFile, "--github-output", ghOutput}, flags...)...)
	if r.code != 0 {
		t.Fatalf("plan: %+v", r)
	}
	var plan struct {
		Shards int `json:"shards"`
		Matrix struct {
			Shard []string `json:"shard"`
		} `json:"matrix"`
		Parts []struct {
			Shard    string   `json:"shard"`
			Artifact string   `json:"artifact"`
			Messages []string `json:"messages"`
		} `json:"parts"`
	}
	if err := shard.ValidatePlan(readJSON(t, planFile, &plan)); err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(ghOutput)
	if plan.Shards != 2 || !slices.Equal(plan.Matrix.Shard, []string{"1/2", "2/2"}) || !strings.Contains(string(out), `matrix={"shard":["1/2","2/2"]}`) {
		t.Fatalf("plan %+v, outputs %s\n%s", plan, out, r.stderr)
	}
	var dirs []string
	measured := map[string]int{}
	for i, shard := range plan.Matrix.Shard {
		dir := t.TempDir()
		r := runWiregate(t, append([]string{"gate", "--shard", shard, "--out", dir}, flags...)...)
		var part report.Report
		readJSON(t, filepath.Join(dir, "report.json"), &part)
		if r.code != part.ExitCode || r.code != 0 || part.Shard == nil || part.Result != "fail" || !strings.Contains(part.ExitReason, "the merge decides") {
			t.Fatalf("shard %s: exit %d, report %d %s %q, shard %+v\n%s", shard, r.code, part.ExitCode, part.Result, part.ExitReason, part.Shard, r.stderr)
		}
		// The names are decided once, in Go, and carried: the plan's part and
		// the part's report name the shard and its artifact alike.
		if want := fmt.Sprintf("wiregate-part-%d-of-2", i+1); plan.Parts[i].Shard != shard || plan.Parts[i].Artifact != want ||
			part.Shard.Name != shard || part.Shard.Artifact != want {
			t.Fatalf("shard %s: plan part %+v, report shard name %q artifact %q, want %s", shard, plan.Parts[i], part.Shard.Name, part.Shard.Artifact, want)
		}
		for _, m := range part.Messages {
			measured[m.Name]++
		}
		dirs = append(dirs, dir)
	}
	if len(measured) != 2 || measured["orders.v1.Order"] != 1 || measured["pingpong.v1.PingPong"] != 1 {
		t.Fatalf("the shards measured %v, want each changed message once", measured)
	}
	merged := t.TempDir()
	r = runWiregate(t, append([]string{"merge", "--out", merged}, dirs...)...)
	var m report.Report
	b := readJSON(t, filepath.Join(merged, "report.json"), &m)
	if r.code != m.ExitCode || r.code != 1 || m.Result != "fail" || len(m.Messages) != 2 || m.Merged == nil || len(m.Merged.Parts) != 2 || m.Shard != nil {
		t.Fatalf("merge: exit %d, report %d %s, %d messages, merged %+v\n%s", r.code, m.ExitCode, m.Result, len(m.Messages), m.Merged, r.stderr)
	}
	if err := report.Validate(b); err != nil {
		t.Fatal(err)
	}

	// A part of another head: refused, one line, and a report that renders.
	var other report.Report
	readJSON(t, filepath.Join(dirs[1], "report.json"), &other)
	other.Head.Sha = strings.Repeat("f", 40)
	if err := other.Write(filepath.Join(dirs[1], "report.json")); err != nil {
		t.Fatal(err)
	}
	refused := t.TempDir()
	r = runWiregate(t, "merge", "--out", refused, dirs[0], dirs[1])
	wantBadInput(t, r, "are parts of different gates: their head differs")
	readJSON(t, filepath.Join(refused, "report.json"), &m)
	if m.ExitCode != 2 || len(m.Errors) != 1 || !strings.Contains(m.Errors[0], "their head differs") {
		t.Fatalf("refused merge's report: %d %q", m.ExitCode, m.Errors)
	}
	wantBadInput(t, runWiregate(t, "merge", "--out", t.TempDir()), "no parts to merge")
	if r := runWiregate(t, append([]string{"gate", "--shard", "3/2", "--out", t.TempDir()}, flags...)...); r.code != 2 || !strings.Contains(r.stderr, `--shard is "3/2": want i/n`) {
		t.Fatalf("a bad shard: exit %d, %s", r.code, r.stderr)
	}
}

// The shard input has one owner, the gate's inputs: a flag or the
// action's INPUT_SHARD past inputs.MaxShards is the gate's one-line input
// error, exit 2, with a report.json saying so; plan reads it the same way,
// exits 2 with it, and still writes a plan of one shard whose note names
// it, in a plan.json the schema takes.
func TestShardInputHasOneOwner(t *testing.T) {
	head := copySchemas(t)
	gateRefuses := func(where string, args ...string) {
		t.Helper()
		out := t.TempDir()
		r := runWiregate(t, append([]string{"gate", "--working-directory", head, "--out", out, "--quiet"}, args...)...)
		want := where + ` is "257/300": want i/n with 1 <= i <= n <= 256`
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code != 2 || !strings.HasPrefix(lines[len(lines)-1], "wiregate gate: inputs: "+want) {
			t.Fatalf("exit %d, want 2 and the last line to be the input error %s…:\n%s", r.code, want, r.stderr)
		}
		var rep report.Report
		readJSON(t, filepath.Join(out, "report.json"), &rep)
		if rep.ExitCode != 2 || rep.Shard != nil || len(rep.Errors) != 1 || !strings.HasPrefix(rep.Errors[0], "inputs: "+want) || strings.Contains(rep.Errors[0], "\n") {
			t.Fatalf("report: exit %d, shard %+v, errors %q", rep.ExitCode, rep.Shard, rep.Errors)
		}
	}
	gateRefuses("--shard", "--shard", "257/300")
	t.Setenv("INPUT_SHARD", "257/300")
	gateRefuses("input 'shard'", "--inputs-from-env")

	planFile := filepath.Join(t.TempDir(), "plan.json")
	if r := runWiregate(t, "plan", "--working-directory", head, "--inputs-from-env", "--plan-out", planFile, "--quiet"); r.code != 2 || !strings.Contains(r.stderr, `input 'shard' is "257/300"`) {
		t.Fatalf("plan: exit %d, want 2 and the input error: %+v", r.code, r)
	}
	var plan shard.Split
	b := readJSON(t, planFile, &plan)
	if err := shard.ValidatePlan(b); err != nil {
		t.Fatal(err)
	}
	if plan.Shards != 1 || !strings.Contains(plan.Note, `input 'shard' is "257/300"`) {
		t.Fatalf("plan: %d shards, note %q", plan.Shards, plan.Note)
	}
}

// A time-budget that leaves a shard nothing to measure (1m: a job spends
// 1m10s outside measuring) is an input error wherever a shard's capacity
// is used: plan exits 2 naming the smallest budget that holds the dearest
// message, and still writes a one-shard plan saying so; a shard run exits
// 2 with a report that says it in one line. A whole gate at 1m still runs.
func TestATimeBudgetTooSmallForAShard(t *testing.T) {
	base, head := copySchemas(t), copySchemas(t)
	p := filepath.Join(head, "schemas/pingpong/v1/ping_pong.proto")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), "repeated double doubles = 7;", "repeated double doubles = 7;\n  string note = 8;", 1)), 0o644)
	flags := []string{"--base-dir", base, "--working-directory", head, "--time-budget", "1m", "--max-shards", "4",
		"--formats", "protobuf", "--count", "6", "--benchtime", "5ms", "--pipeline", "false", "--cpu-cost", "off", "--quiet"}
	want := regexp.MustCompile(`input 'time-budget' is 1m: a shard spends 1m10s outside measuring, which leaves it nothing for pingpong\.v1\.PingPong, priced at \d+s \(static prices: [^)]*\); the smallest time-budget that holds it is (\d+)m$`)

	planFile := filepath.Join(t.TempDir(), "plan.json")
	r := runWiregate(t, append([]string{"plan", "--plan-out", planFile}, flags...)...)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	m := want.FindStringSubmatch(strings.TrimPrefix(lines[len(lines)-1], "wiregate plan: "))
	if r.code != 2 || m == nil {
		t.Fatalf("plan: exit %d, want 2 and the last line to match %s:\n%s", r.code, want, r.stderr)
	}
	var plan shard.Split
	if err := shard.ValidatePlan(readJSON(t, planFile, &plan)); err != nil {
		t.Fatal(err)
	}
	if plan.Shards != 1 || !want.MatchString(plan.Note) {
		t.Fatalf("plan: %d shards, note %q", plan.Shards, plan.Note)
	}
	// The budget it names holds a shard: planning at it splits, exit 0.
	at := slices.Clone(flags)
	at[slices.Index(at, "1m")] = m[1] + "m"
	if r := runWiregate(t, append([]string{"plan", "--plan-out", planFile}, at...)...); r.code != 0 {
		t.Fatalf("plan at the budget it named (%sm): %+v", m[1], r)
	}

	out := t.TempDir()
	r = runWiregate(t, append([]string{"gate", "--shard", "1/2", "--out", out}, flags...)...)
	var part report.Report
	readJSON(t, filepath.Join(out, "report.json"), &part)
	if r.code != 2 || part.ExitCode != 2 || len(part.Errors) != 1 || !want.MatchString(strings.TrimPrefix(part.Errors[0], "shards: ")) {
		t.Fatalf("shard at 1m: exit %d, report %d, errors %q", r.code, part.ExitCode, part.Errors)
	}
	whole := t.TempDir()
	if r := runWiregate(t, append([]string{"gate", "--out", whole}, flags...)...); r.code == 2 {
		t.Fatalf("a whole gate at 1m: exit 2\n%s", r.stderr)
	}
}
