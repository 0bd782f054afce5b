package render

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// Instruction counts and unchanged schemas in the comment. The fixtures
// are real gate output: pass is identical sides (every message
// unchanged), fail adds a repeated field to TelemetryEvent.

// formatRow is the table row of format in message's section.
func formatRow(t *testing.T, out, message, format string) string {
	t.Helper()
	parts := strings.SplitN(out, "### `"+message+"`", 2)
	if len(parts) < 2 {
		t.Fatalf("no section for %s", message)
	}
	section := strings.Split(parts[1], "\n### ")[0]
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "| "+format+" |") || strings.HasPrefix(l, "| "+format+" (aliasing) |") {
			return l
		}
	}
	t.Fatalf("no %s row for %s:\n%s", format, message, section)
	return ""
}

func TestTheTableHasACPUColumnBaseToHead(t *testing.T) {
	r := fixture(t, "fail")
	out := Report(r, Context{})
	counted := 0
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			var cells []string
			for _, x := range f.Metrics {
				if x.Unit != "instr/op" {
					continue
				}
				d := "~"
				switch {
				case x.Base.Center == x.Head.Center:
					d = "="
				case x.Significant:
					d = pct(x.DeltaPct, true).Source()
				}
				// A floor the message's own counts set above its format's shows beside the delta.
				own := ""
				if x.NoiseFloorFrom == "counts" && x.NoiseFloor != nil {
					own = " ±" + pct(x.NoiseFloor, false).Source()
				}
				op := "1"
				if x.Name == "encode" {
					op = "0"
				}
				cells = append(cells, op+instructions(x.Base.Center).Source()+" → "+instructions(x.Head.Center).Source()+" ("+d+own+")")
			}
			if len(cells) != 2 {
				t.Fatalf("%s/%s: %d counts", m.Name, f.Format, len(cells))
			}
			sort.Strings(cells)
			mustContain(t, formatRow(t, out, m.Name, f.Format), "| "+cells[0][1:]+"<br>"+cells[1][1:]+" |")
			counted++
		}
	}
	if counted < 6 {
		t.Errorf("%d rows", counted)
	}
}

func TestACPUViolationReadsInInstrAndLeadsTheReasons(t *testing.T) {
	r := fixture(t, "fail")
	out := Report(r, Context{})
	var cpu []report.Violation
	for _, v := range r.Violations {
		if v.Kind == "cpu" {
			cpu = append(cpu, v)
		}
	}
	if len(cpu) == 0 {
		t.Fatal("no cpu violation in the fixture")
	}
	for _, v := range cpu {
		mustContain(t, out, "| ❌ | cpu | `"+v.Subject+"`<br>`"+v.ID+"` | "+v.Detail+" ("+measure(*v.Base, "instr/op").Source()+" → "+measure(*v.Head, "instr/op").Source()+", "+
			pct(v.DeltaPct, true).Source()+", limit "+pct(v.ThresholdPct, false).Source()+")<br><sub>to approve it: `"+v.ApproveWith+"`</sub> |")
	}
	first := strings.Split(out, "\n")[0]
	mustContain(t, first, "cpu "+pct(cpu[0].DeltaPct, true).Source()+" on "+cpu[0].Subject+" (limit 2.0%)")
	if len(cpu) > 2 {
		mustContain(t, first, itoa(len(cpu)-2)+" more CPU regressions")
	}
}

func TestUnchangedSchemasMeasuredAnywayAreOneFoldedLine(t *testing.T) {
	// measure: all, one message of four changed.
	r := reparse(t, changedReport(4, 1, true, 20))
	out := Report(r, Context{})
	m := regexp.MustCompile(`(?s)<details><summary>(\d+) messages unchanged \(schema identical\): measured \(measure: all\); [^<]*</summary>\n\n(.*?)\n\n</details>`).FindStringSubmatch(out)
	if m == nil || m[1] != "3" {
		t.Fatalf("%v", m)
	}
	for _, name := range []string{messageName(1), messageName(2), messageName(3)} {
		mustContain(t, m[2], "#### `"+name+"`\n\n| format | bytes/msg |")
		if strings.Contains(out, "\n### `"+name+"`") {
			t.Errorf("%s has a section", name)
		}
	}
	if strings.Contains(m[2], "mermaid") {
		t.Error("a chart where base and head do not differ")
	}
	// An older gate's report says unchanged_schema instead of a status: read the same way.
	older := fixture(t, "all")
	older.Change = nil
	for i := range older.Messages {
		older.Messages[i].Status = ""
		if !older.Messages[i].UnchangedSchema {
			t.Fatal("the fixture's messages are not unchanged")
		}
	}
	mustMatch(t, Report(older, Context{}), `<details><summary>`+itoa(len(older.Messages))+` messages unchanged \(schema identical\): measured; `)
}

func TestWithoutCountsNoCPUColumnAndOneLineSayingWhy(t *testing.T) {
	r := fixture(t, "all")
	for i := range r.Messages {
		for j := range r.Messages[i].Formats {
			f := &r.Messages[i].Formats[j]
			var kept []report.Metric
			for _, m := range f.Metrics {
				if m.Unit != "instr/op" {
					kept = append(kept, m)
				}
			}
			f.Metrics = kept
		}
	}
	r.CPUCost = &report.CPUCost{Mode: "auto", Unavailable: "valgrind is not installed (install valgrind to count instructions (apt-get install valgrind)), so CPU cost is time only"}
	out := Report(r, Context{})
	if strings.Contains(out, "CPU instr/op") || strings.Contains(out, "instruction counter") {
		t.Error("a CPU column or counter without counts")
	}
	mustContain(t, out, "| format | bytes/msg | encode | decode | pipeline records/s |\n|---|---|---|---|---|",
		"\n> ℹ️ Instructions not counted: valgrind is not installed (install valgrind to count instructions (apt-get install valgrind)), so CPU cost is time only.\n")
}

func TestAnInstalledCounterSaysSoInTheEnvironment(t *testing.T) {
	r := fixture(t, "all")
	r.CPUCost = &report.CPUCost{Mode: "auto", Tool: "callgrind (Valgrind-3.22.0)", Installed: "installed valgrind with apt-get in 14.2 s"}
	mustContain(t, Report(r, Context{}), "| instruction counter | callgrind (Valgrind-3.22.0), installed valgrind with apt-get in 14.2 s |")
}

func TestWhyInstructionsWereNotCountedIsInert(t *testing.T) {
	r := fixture(t, "all")
	r.CPUCost = &report.CPUCost{Mode: "auto", Unavailable: "<img src=x> @team [x](http://e.vil)"}
	mustContain(t, Report(r, Context{}), "> ℹ️ Instructions not counted: &lt;img src=x&gt; \u200b@\u200bteam \\[x\\](http:/\u200b/e.vil).")
}
