package gate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/bufcheck"
	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/merge"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
)

// golden holds the golden comments' reports: the renderer turns each into
// a committed report.md (test/golden.test.ts). Most are derived from the
// fail fixture (a real gate run) and real buf runs, and decided by this
// verdict; the rest are real gate runs of a few seconds each. Regenerate
// them with scripts/golden.sh.
const golden = "../../../test/golden"

// goldenReports are the golden reports derived from the fail fixture, by
// name:
//
//   - release: the fail fixture plus buf breaking on testdata/golden (a
//     release's worth of findings on few fields of two files);
//   - fail-cuts: the fail fixture whose TelemetryEvent the budget left
//     untimed and undrained: a failure next to cut figures;
//   - pass-cuts: the same without its schema findings and with thresholds
//     its deltas fit: a pass that rests on what was measured;
//   - approved: the fail fixture with the pull request's comments: its
//     author's own approval (refused: self-approve is off), then a
//     writer's posting the comment's "approve everything" block;
//   - unencodable: the fail fixture with a figure that is not a number:
//     the minimal report Write writes instead, a wiregate bug said so;
//   - added-fails: the added run below judged at added-content-threshold
//     1%.
func goldenReports(t *testing.T) map[string]*report.Report {
	t.Helper()
	fail := func() *report.Report { return readReport(t, filepath.Join(fixtures, "fail.json")) }
	release := fail()
	release.Findings = append(release.Findings, goldenFindings(t)...)
	verdict.Decide(release)

	failCuts := fail()
	cutTimings(failCuts, "telemetry.v1.TelemetryEvent")
	verdict.Decide(failCuts)

	passCuts := fail()
	cutTimings(passCuts, "telemetry.v1.TelemetryEvent")
	passCuts.Findings = []report.Finding{}
	th := &passCuts.Rules.Config.Thresholds
	th.SizePct, th.CompressedSizePct, th.CPUPct = 100, 100, 100
	verdict.Decide(passCuts)

	approved := fail()
	verdict.Decide(approved)
	approveAll(t, approved)
	verdict.Decide(approved)
	// unencodable: the fail fixture with one figure that is not a number,
	// written: what report.json and the comment become then.
	unencodable := fail()
	f := &unencodable.Messages[0].Formats[0]
	nan := math.NaN()
	f.Metrics[0].MDE = &nan
	if err := unencodable.Write(filepath.Join(t.TempDir(), "report.json")); err != nil {
		t.Fatal(err)
	}
	reports := map[string]*report.Report{"release": release, "fail-cuts": failCuts, "pass-cuts": passCuts, "approved": approved, "unencodable": unencodable}
	// added-fails: the added run (goldenRuns) judged at
	// added-content-threshold 1%, as a repository that budgets growth.
	if added, err := storedGolden(filepath.Join(golden, "added.json")); err == nil {
		one := 1.0
		added.Rules.Config.Thresholds.Added = config.AllAdded(&one)
		verdict.Decide(added)
		reports["added-fails"] = added
	}
	return reports
}

// approveAll gives r the comments of a pull request whose failure was
// approved: its author approves the first schema element (refused), then
// a writer posts the lines the comment offers to approve everything, with
// a reason on the first.
func approveAll(t *testing.T, r *report.Report) {
	t.Helper()
	if len(r.ApproveAll) < 2 || len(r.Elements) == 0 {
		t.Fatalf("the fail fixture offers %d approve-all lines and %d elements, want a failure to approve", len(r.ApproveAll), len(r.Elements))
	}
	lines := slices.Clone(r.ApproveAll)
	lines[0] += " planned: Order.price is renumbered in v3"
	comment := func(id int64, author, body, at string) report.Comment {
		return report.Comment{ID: id, URL: fmt.Sprintf("https://example.test/pull/1#issuecomment-%d", id), Author: author, Body: body, CreatedAt: at, UpdatedAt: at}
	}
	r.Rules.Approvals = report.Approvals{
		Comments: []report.Comment{
			comment(101, "feature-author", "/wiregate approve "+r.Elements[0].ID, "2026-11-24T10:00:00Z"),
			comment(102, "schema-owner", strings.Join(lines, "\n"), "2026-11-24T11:00:00Z"),
		},
		Authors:  []report.Author{{Login: "feature-author", Permission: "write"}, {Login: "schema-owner", Permission: "write"}},
		PRAuthor: "feature-author",
	}
}

// goldenFindings are buf breaking's findings on testdata/golden, as if the
// module sat under schemas/.
func goldenFindings(t *testing.T) []report.Finding {
	t.Helper()
	buf, err := prepare.FindBuf(context.Background(), "", "../..", "")
	if err != nil {
		t.Skip("buf not found:", err)
	}
	dir, err := filepath.Abs("testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	side := func(name string) bufcheck.Check {
		conf, err := os.ReadFile(filepath.Join(dir, name, "buf.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return bufcheck.Check{Buf: buf, Dir: filepath.Join(dir, name), Input: ".", FileRoot: "schemas", Config: string(conf), Name: name}
	}
	fs, err := side("head").Breaking(context.Background(), side("base"))
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) < 10 {
		t.Fatalf("buf found %d breaking changes on testdata/golden, want a release's worth", len(fs))
	}
	return fs
}

// cutTimings leaves message untimed and undrained, as the budget does
// when it runs short: no sec/op, no pipeline rows, the plan saying so.
func cutTimings(r *report.Report, message string) {
	for i := range r.Messages {
		if r.Messages[i].Name != message {
			continue
		}
		for j := range r.Messages[i].Formats {
			f := &r.Messages[i].Formats[j]
			f.Metrics = slices.DeleteFunc(f.Metrics, func(m report.Metric) bool { return m.Unit == "sec/op" })
		}
	}
	var untimed []string
	r.Pipeline = slices.DeleteFunc(r.Pipeline, func(p report.Pipeline) bool {
		if p.Message == message {
			untimed = append(untimed, p.Message+"/"+p.Format)
		}
		return p.Message == message
	})
	r.Cut.Bench.Untimed = []string{message}
	r.Cut.Bench.Note = "to fit 10m0s: 1 of 2 messages not timed"
	r.Cut.Pipeline = &report.PipelineCut{Untimed: untimed, Note: "to fit 10m0s: 3 rows not timed"}
}

// goldenRuns are the golden reports that real gate runs make, by name:
//
//   - added: one int32 field added to TelemetryEvent (only additions: the
//     addition stated, its same content's deltas its unset cost) and
//     Order's user_id retyped string → int64 (regenerated: changed
//     content, judged at the usual thresholds);
//   - avro-first: an Avro-only repository (avrofirst_test.go's two
//     records) whose Order gains a field with a default and renames qty
//     with an alias, and whose shared Address gains a field: records
//     measured from the .avsc alone, in json and avro;
//   - sharded: this repo's schemas with two messages grown, planned over
//     two shards, each shard gated on its own, the parts merged.
//
// Their timings differ from run to run, so a run's report is kept while a
// rerun measures the same (goldenExact): scripts/golden.sh rewrites one
// only when what the gate measures or writes for it changed.
var goldenRuns = map[string]func(t *testing.T) *report.Report{
	"added": func(t *testing.T) *report.Report {
		base, head := checkouts(t)
		addRSSI(t, head)
		replaceIn(t, filepath.Join(head, "schemas/orders/v1/order.proto"), "string user_id = 4;", "int64 user_id = 4;")
		r := run(t, base, head, func(in map[string]string, o *gate.Options) {
			in["messages"], in["cpu-cost"] = "telemetry.v1.TelemetryEvent,orders.v1.Order", "off"
			o.BaseLabel, o.HeadLabel, o.HeadSha = "main", "feature", strings.Repeat("b", 40)
		})
		return goldenRun(t, r, base, head)
	},
	"avro-first": func(t *testing.T) *report.Report {
		base := avroRepo(t, orderAvsc, invoiceAvsc)
		country := func(s string) string {
			return strings.Replace(s, `{"name": "zip", "type": "string"}]`, `{"name": "zip", "type": "string"}, {"name": "country", "type": "string", "default": "NL"}]`, 1)
		}
		order := strings.NewReplacer(
			`{"name": "price", "type": "double"},`, `{"name": "price", "type": "double"}, {"name": "channel", "type": "string", "default": "web"},`,
			`{"name": "qty", "type": "int"}`, `{"name": "quantity", "aliases": ["qty"], "type": "int"}`).Replace(orderAvsc)
		head := avroRepo(t, country(order), country(invoiceAvsc))
		r := run(t, base, head, func(in map[string]string, o *gate.Options) {
			in["working-directory"], in["messages"], in["cpu-cost"] = head, "", "off"
			o.BaseLabel, o.HeadLabel, o.HeadSha = "main", "feature", strings.Repeat("b", 40)
		})
		return goldenRun(t, r, base, head)
	},
	"sharded": func(t *testing.T) *report.Report {
		base, head := checkouts(t)
		replaceIn(t, filepath.Join(head, "schemas/orders/v1/order.proto"), "map<string, string> meta = 7;", "map<string, string> meta = 7;\n  repeated string tags = 8;")
		replaceIn(t, filepath.Join(head, "schemas/pingpong/v1/ping_pong.proto"), "repeated double doubles = 7;", "repeated double doubles = 7;\n  string note = 8;")
		var parts []merge.Part
		for _, shard := range []string{"1/2", "2/2"} {
			r := run(t, base, head, func(in map[string]string, o *gate.Options) {
				in["messages"], in["cpu-cost"], in["shard"], in["max-shards"], in["time-budget"] = "", "off", shard, "2", "80s"
				o.BaseLabel, o.HeadLabel, o.HeadSha = "main", "feature", strings.Repeat("b", 40)
			})
			r.Base.Sha = strings.Repeat("a", 40)
			parts = append(parts, merge.Part{From: "shard " + shard, Report: r})
		}
		r, err := merge.Parts(parts)
		if err != nil {
			t.Fatal(err)
		}
		if r.Merged == nil || len(r.Merged.Parts) != 2 || len(r.Messages) != 2 {
			t.Fatalf("merged %+v with %d messages, want both shards' one each", r.Merged, len(r.Messages))
		}
		return goldenRun(t, r, base, head)
	},
}

// goldenRun is r as the fixtures are written: the sides' temporary
// directories named /tmp/base and /tmp/head, the base's sha a's.
func goldenRun(t *testing.T, r *report.Report, base, head string) *report.Report {
	t.Helper()
	if len(r.Errors) != 0 {
		t.Fatalf("errors %q", r.Errors)
	}
	if r.Base.Sha == "" {
		r.Base.Sha = strings.Repeat("a", 40)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out report.Report
	if err := json.Unmarshal([]byte(strings.NewReplacer(base, "/tmp/base", head, "/tmp/head").Replace(string(b))), &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// goldenExact is what a golden run's report says that any rerun says
// again: the change set, the schema findings, each message's records and
// exact bytes per format with the metrics it has, the shards merged and
// the stages run; not timings, stage times, notes or the machine, nor the
// order formats finished in.
func goldenExact(r *report.Report) string {
	type format struct {
		Format   string
		Size     *report.Size
		Aliasing bool
		Metrics  []string
	}
	type message struct {
		Name, Status string
		Unchanged    bool
		Records      *report.Records
		Formats      []format
	}
	var v struct {
		Change   *report.Change
		Findings []report.Finding
		Skipped  []report.Skipped
		Messages []message
		Merged   *report.Merged
		Stages   []string
		Errors   []string
	}
	v.Change, v.Findings, v.Skipped, v.Merged, v.Errors = r.Change, r.Findings, r.Skipped, r.Merged, r.Errors
	for _, m := range r.Messages {
		x := message{Name: m.Name, Status: m.Status, Unchanged: m.UnchangedSchema, Records: m.Records}
		for _, f := range m.Formats {
			y := format{Format: f.Format, Size: f.Size, Aliasing: f.Aliasing}
			for _, mt := range f.Metrics {
				y.Metrics = append(y.Metrics, mt.Name+" "+mt.Unit)
			}
			x.Formats = append(x.Formats, y)
		}
		slices.SortFunc(x.Formats, func(a, b format) int { return strings.Compare(a.Format, b.Format) })
		v.Messages = append(v.Messages, x)
	}
	slices.SortFunc(v.Messages, func(a, b message) int { return strings.Compare(a.Name, b.Name) })
	for _, s := range r.Stages {
		v.Stages = append(v.Stages, strings.TrimSpace(s.Name+" "+s.Shard))
	}
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}

// storedGolden reads a golden report as report.json is read, with no
// unknown field; an error when it would not encode back byte for byte, or
// errOtherVerdict with the report decided again when this verdict decides
// it otherwise.
func storedGolden(path string) (*report.Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r report.Report
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, err
	}
	if !bytes.Equal(encode(&r), b) {
		return nil, errors.New("it is not what report.Write writes")
	}
	verdict.Decide(&r)
	if !bytes.Equal(encode(&r), b) {
		return &r, errOtherVerdict
	}
	return &r, nil
}

var errOtherVerdict = errors.New("this verdict decides it otherwise")

func encode(r *report.Report) []byte {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// firstDiff is the first line where a and b differ, for a failure.
func firstDiff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(x), len(y)) {
		if x[i] != y[i] {
			return fmt.Sprintf("line %d: %q, a rerun %q", i+1, strings.TrimSpace(x[i]), strings.TrimSpace(y[i]))
		}
	}
	return fmt.Sprintf("%d lines, a rerun %d", len(x), len(y))
}

// The golden reports must be what the fixture and this verdict make, and
// the golden runs what a rerun measures and this verdict decides.
func TestGoldenReportsAreFresh(t *testing.T) {
	for name, r := range goldenReports(t) {
		out := encode(r)
		path := filepath.Join(golden, name+".json")
		if *update {
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, out) {
			t.Errorf("%s is not what the fail fixture and this verdict make: run scripts/golden.sh", path)
		}
	}
	for name, runGolden := range goldenRuns {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(golden, name+".json")
			stored, err := storedGolden(path)
			if err != nil && !*update {
				t.Fatalf("%s: %v: run scripts/golden.sh", path, err)
			}
			fresh := runGolden(t)
			if !*update {
				if a, b := goldenExact(stored), goldenExact(fresh); a != b {
					t.Errorf("%s is not what the gate measures now (%s): run scripts/golden.sh", path, firstDiff(a, b))
				}
				return
			}
			// Keep the stored run, decided by this verdict, while it is what
			// report.Write writes and a rerun measures the same: its
			// timings then change only with what they time.
			if stored == nil || goldenExact(stored) != goldenExact(fresh) {
				// Decided as the check decides it (a merged run's lists
				// follow the order the merge found, not the verdict's).
				stored = fresh
				verdict.Decide(stored)
			}
			if err := os.WriteFile(path, encode(stored), 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}
