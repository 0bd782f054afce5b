package inputs

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/wiregate/wiregate/harness/parent/avrocompat"
	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func TestDefaults(t *testing.T) {
	s := Defaults()
	want := Settings{WorkingDirectory: ".", BufInput: ".", AvroSchemas: []string{"**/*.avsc"},
		AvroCompatibility: avrocompat.Backward, Formats: []string{"json", "protobuf", "avro"}, Lint: true, Breaking: true,
		SizeThreshold: 5, TimeThreshold: 10, ThroughputThreshold: 10, CPUThreshold: 2, CPUCost: cpucost.Auto, Alpha: 0.05, Rounds: 10, UnchangedRounds: 3,
		Benchtime: 100 * time.Millisecond, TimeBudget: 10 * time.Minute, Pipeline: true, PipelineMessages: 200000, PipelineBytes: 128 << 20, Broker: "auto",
		BreakingAgainst: Against{Where: "input 'breaking-against'"}, History: "wiregate-data", HistoryPoints: 20, Measure: "changed",
		Workers: runtime.NumCPU(), CountsBeside: true, MaxShards: 8, CPUProcesses: 3,
		Compression: []string{"zstd"}, BatchBytes: 16384, CompressedSizeThreshold: 5}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("defaults\n got %+v\nwant %+v", s, want)
	}
}

func TestValuesAreNormalised(t *testing.T) {
	s, err := Parse(Map(map[string]string{
		"messages":           "telemetry.v1.TelemetryEvent,\n orders.v1.Order\n",
		"formats":            "JSON, protobuf, json",
		"size-threshold":     "2.5",
		"avro-compatibility": "full_transitive",
		"broker":             "localhost:9092, 127.0.0.1:9093",
		"pipeline":           "False",
		"count":              " 3 ",
		"cpu-threshold":      "1.5%",
		"cpu-cost":           "OFF",
		"pipeline-bytes":     "500MB",
		"unchanged-rounds":   "5",
		"workers":            "3",
		"shard":              " 2/8",
		"coverage":           "Required",
		"compression":        "ZSTD, lz4,zstd",
		"batch-bytes":        "65536",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Messages, []string{"telemetry.v1.TelemetryEvent", "orders.v1.Order"}) ||
		!reflect.DeepEqual(s.Formats, []string{"json", "protobuf"}) || s.SizeThreshold != 2.5 ||
		s.AvroCompatibility != avrocompat.FullTransitive || s.Broker != "localhost:9092,127.0.0.1:9093" ||
		s.Pipeline || s.Rounds != 3 || s.CPUThreshold != 1.5 || s.CPUCost != cpucost.Off || s.PipelineBytes != 500_000_000 ||
		s.RoundsFor(true) != 3 || s.RoundsFor(false) != 3 || s.UnchangedRounds != 5 ||
		s.Workers != 3 || s.Shard != (Shard{2, 8}) || s.Shard.String() != "2/8" || !s.CoverageRequired ||
		!reflect.DeepEqual(s.Compression, []string{"zstd", "lz4"}) || s.BatchBytes != 65536 {
		t.Fatalf("%+v", s)
	}
	off, err := Parse(Map(map[string]string{"compression": "None"}))
	if err != nil || off.Compression != nil || off.ProducerCompression() != "none" {
		t.Fatalf("compression none: %v %v", off.Compression, err)
	}
	if s.ProducerCompression() != "zstd" {
		t.Errorf("the producer compresses with %q, not the first codec", s.ProducerCompression())
	}
}

// Each bad input is one line naming the input, exit code 2 (these were the
// action's TypeScript input tests; the gate owns validation now).
func TestBadInputsNameTheInput(t *testing.T) {
	for _, c := range []struct{ name, value string }{
		{"size-threshold", "abc"},
		{"size-threshold", "-5%"},
		{"time-threshold", "10%%"},
		{"throughput-threshold", "ten"},
		{"cpu-threshold", "-1%"},
		{"cpu-threshold", "two"},
		{"cpu-cost", "yes"},
		{"compression", "brotli"},
		{"compression", "zstd,xz"},
		{"compression", "none,zstd"},
		{"compression", " , "},
		{"compressed-size-threshold", "lots"},
		{"batch-bytes", "16KiB"},
		{"batch-bytes", "1023"},
		{"batch-bytes", "1048577"},
		{"batch-bytes", "-1"},
		{"cpu-cost", "true"},
		{"formats", "json,xml"},
		{"formats", " , "},
		{"avro-compatibility", "SIDEWAYS"},
		{"alpha", "1.5"},
		{"alpha", "x"},
		{"count", "0"},
		{"count", "1"},
		{"count", "2.5"},
		{"count", "101"},
		{"unchanged-rounds", "0"},
		{"unchanged-rounds", "101"},
		{"unchanged-rounds", "three"},
		{"workers", "0"},
		{"workers", "65"},
		{"workers", "all"},
		{"shard", "3"},
		{"shard", "0/4"},
		{"shard", "5/4"},
		{"shard", "1/257"},
		{"shard", "a/b"},
		{"max-shards", "0"},
		{"max-shards", "257"},
		{"coverage", "full"},
		{"cpu-processes", "0"},
		{"cpu-processes", "6"},
		{"pipeline-formats", "xml"},
		{"pipeline-formats", "cbor"}, // not among the formats measured
		{"pipeline-formats", " , "},
		{"pipeline-messages", "-1"},
		{"pipeline-messages", "1e9"},
		{"pipeline-bytes", "100"},
		{"pipeline-bytes", "128 MB/s"},
		{"pipeline-bytes", "1TiB"},
		{"pipeline-bytes", "99999999999999999999GiB"},
		{"pipeline-bytes", "-1MiB"},
		{"pipeline-bytes", "60000000000GiB"},
		{"pipeline", "yes"},
		{"lint", "maybe"},
		{"breaking", "1"},
		{"broker", "kafka"},
		{"broker", "host:99999"},
		{"messages", "not a name"},
		{"benchtime", "-1s"},
		{"time-budget", "10"},
		{"time-budget", "30s"},
		{"time-budget", "7h"},
		{"breaking-against", "latest-tag:"},
		{"breaking-against", "latest-tag:v[1"},
		{"breaking-against", "--upload-pack=x"},
		{"breaking-against", "v1 v2"},
		{"history", "no such/branch"},
		{"history", "../main"},
		{"history", "data.lock"},
		{"history-points", "0"},
		{"history-points", "201"},
		{"history-points", "ten"},
	} {
		_, err := Parse(func(name string) (string, string) {
			if name == c.name {
				return c.value, "input '" + name + "'"
			}
			return "", ""
		})
		if err == nil || exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "'"+c.name+"'") ||
			strings.Contains(err.Error(), "\n") {
			t.Errorf("%s=%q: %v", c.name, c.value, err)
		}
	}
}

func TestBreakingAgainstAndHistoryForms(t *testing.T) {
	for _, c := range []struct {
		in      map[string]string
		against Against
		history string
	}{
		{map[string]string{"breaking-against": "latest-tag: v*", "history": "false"},
			Against{TagGlob: "v*", Text: "latest-tag: v*", Where: "--breaking-against"}, ""},
		{map[string]string{"breaking-against": "release/1.x", "history": "true"},
			Against{Ref: "release/1.x", Text: "release/1.x", Where: "--breaking-against"}, "wiregate-data"},
		{map[string]string{"history": "perf/history"}, Against{Where: "--breaking-against"}, "perf/history"},
	} {
		s, err := Parse(Map(c.in))
		if err != nil {
			t.Fatal(err)
		}
		if s.BreakingAgainst != c.against || s.History != c.history {
			t.Errorf("%v: against %+v, history %q", c.in, s.BreakingAgainst, s.History)
		}
	}
}

func TestFromEnvReadsWhatTheRunnerSets(t *testing.T) {
	t.Setenv("INPUT_SIZE-THRESHOLD", "7%")
	if v, where := FromEnv("size-threshold"); v != "7%" || where != "input 'size-threshold'" {
		t.Fatalf("%q %q", v, where)
	}
}

// action.yml repeats every default for the runner to show users; it must
// say what Table says, input for input.
func TestActionYamlEqualsTable(t *testing.T) {
	b, err := os.ReadFile("../../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
			Default     string `yaml:"default"`
		} `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, in := range Table {
		if in.Owner == Flag {
			if _, ok := action.Inputs[in.Name]; ok {
				t.Errorf("%s is a gate flag only, but action.yml has it", in.Name)
			}
			continue
		}
		seen[in.Name] = true
		a, ok := action.Inputs[in.Name]
		if !ok {
			t.Errorf("action.yml lacks input %s", in.Name)
			continue
		}
		if a.Default != in.Default {
			t.Errorf("%s: action.yml default %q, Table %q", in.Name, a.Default, in.Default)
		}
		if a.Description != in.Doc {
			t.Errorf("%s: action.yml description\n  %q\nTable\n  %q", in.Name, a.Description, in.Doc)
		}
	}
	for name := range action.Inputs {
		if !seen[name] {
			t.Errorf("action.yml input %s is not in Table", name)
		}
	}
}

var update = flag.Bool("update", false, "rewrite the inputs table in docs/action.md")

// docs/action.md shows Markdown() between its inputs markers.
func TestDocsShowTheTable(t *testing.T) {
	const path, begin, end = "../../../docs/action.md", "<!-- inputs:begin -->\n", "<!-- inputs:end -->"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q … %q markers", path, begin, end)
	}
	if got := doc[i+len(begin) : j]; got != Markdown() {
		if *update {
			if err := os.WriteFile(path, []byte(doc[:i+len(begin)]+Markdown()+doc[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s's inputs table is not inputs.Markdown(): run `go test ./inputs -update`", path)
	}
}

// A shard of one is a shard: it names itself (in errors, in the report),
// as the gate and the action treat it; only no shard input is the whole.
// The range is MaxShards, here and nowhere else: 256/256 is a shard, 257 is
// the one-line error naming the input and the range, exit 2.
func TestShardOfOneIsAShard(t *testing.T) {
	for _, c := range []struct {
		in    string
		whole bool
		str   string
	}{{"", true, ""}, {"1/1", false, "1/1"}, {"2/3", false, "2/3"}, {"256/256", false, "256/256"}} {
		s, err := Parse(Map(map[string]string{"shard": c.in}))
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if s.Shard.Whole() != c.whole || s.Shard.String() != c.str {
			t.Errorf("%q: whole %v, %q; want %v, %q", c.in, s.Shard.Whole(), s.Shard.String(), c.whole, c.str)
		}
	}
	for _, in := range []string{"257/300", "1/257"} {
		_, err := Parse(Map(map[string]string{"shard": in}))
		want := fmt.Sprintf(`--shard is %q: want i/n with 1 <= i <= n <= %d`, in, MaxShards)
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") || exitcode.Code(err) != exitcode.Unusable {
			t.Errorf("%q: %v (exit %d), want %s…, exit 2", in, err, exitcode.Code(err), want)
		}
	}
	if MaxShards != 256 {
		t.Errorf("MaxShards is %d: a matrix makes at most 256 jobs", MaxShards)
	}
}
