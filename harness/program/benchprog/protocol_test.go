package benchprog

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/pipeline"
)

var sel = Selection{Messages: []string{"a.v1.A", "b.v1.B"}, Formats: []string{"json", "avro"},
	Samples: "/s", Avro: []string{"/x/a.avsc", "/y/b.avsc"}}

// What the parent renders, the program parses back to the same value:
// the two sides cannot disagree on a flag.
func TestArgsParseRoundTrip(t *testing.T) {
	spec := pipeline.ConsumerSpec{Brokers: []string{"h:1", "h:2"}, Topic: "wiregate-t", N: 7, Raw: true, Timeout: time.Minute, Idle: 2 * time.Second}
	for _, tc := range []struct {
		sub       string
		sent, got Flags
	}{
		{CmdCheck, &CheckFlags{Selection: sel}, &CheckFlags{}},
		{CmdSizes, &SizesFlags{Selection: Selection{}, Batching: Batching{BatchBytes: 16384}}, &SizesFlags{}},
		{CmdSizes, &SizesFlags{Selection: sel, Batching: Batching{Compression: []string{"zstd", "lz4"}, BatchBytes: 4096}}, &SizesFlags{}},
		{CmdBench, &BenchFlags{Selection: sel, Timing: Timing{Count: 3, Benchtime: 150 * time.Millisecond, Op: "decode"}, Header: false}, &BenchFlags{}},
		{CmdBench, &BenchFlags{Selection: sel, Timing: Timing{Count: 1, Benchtime: time.Second}, Header: true}, &BenchFlags{}},
		{CmdBench, &BenchFlags{Selection: sel, Timing: Timing{Count: 1, Benchtime: time.Second}, Header: true, SkipAllocs: true}, &BenchFlags{}},
		{CmdBench, &BenchFlags{Selection: sel, Timing: Timing{Count: 1, Benchtime: 36 * time.Millisecond}, SkipAllocs: true,
			IterationsFile: "/tmp/round/iterations.txt"}, &BenchFlags{}},
		{CmdFill, &FillFlags{Selection: sel, Brokers: []string{"h:1"}, N: 5000, TopicPrefix: "wiregate-0123-head-"}, &FillFlags{}},
		{CmdFill, &FillFlags{Selection: sel, Brokers: []string{"h:1"}, N: 5000, TopicPrefix: "wiregate-0123-head-", Compression: "zstd"}, &FillFlags{}},
		{CmdConsume, &ConsumeFlags{Selection: sel.Only("a.v1.A", "json"), Spec: spec}, &ConsumeFlags{}},
	} {
		if err := Parse(tc.sub, tc.got, tc.sent.Args()); err != nil {
			t.Errorf("%s %q: %v", tc.sub, tc.sent.Args(), err)
			continue
		}
		if !reflect.DeepEqual(tc.got, tc.sent) {
			t.Errorf("%s: sent %+v, parsed %+v", tc.sub, tc.sent, tc.got)
		}
	}
}

func TestParseRefusesWhatTheProgramCannotRun(t *testing.T) {
	for _, tc := range []struct {
		sub  string
		f    Flags
		args []string
		want string
	}{
		{CmdBench, &BenchFlags{}, []string{"--count", "0"}, "--count 0: use 1 to 1000"},
		{CmdBench, &BenchFlags{}, []string{"--benchtime", "0s"}, "--benchtime 0s: must be positive"},
		{CmdBench, &BenchFlags{}, []string{"--op", "both"}, `--op "both"`},
		{CmdFill, &FillFlags{}, []string{"--n", "5", "--topic-prefix", "wiregate-x-"}, "--brokers"},
		{CmdFill, &FillFlags{}, []string{"--brokers", "h:1", "--n", "5", "--topic-prefix", "other-"}, `--topic-prefix "other-"`},
		{CmdFill, &FillFlags{}, []string{"--brokers", "h:1", "--n", "0", "--topic-prefix", "wiregate-x-"}, "--pipeline-messages 0"},
		{CmdConsume, &ConsumeFlags{}, append(sel.Args(), pipeline.ConsumerSpec{Brokers: []string{"h:1"}, Topic: "t", N: 1}.Args()...), "exactly one message and one format"},
		{CmdConsume, &ConsumeFlags{}, sel.Only("a.v1.A", "json").Args(), "want --brokers, --topic and --n > 0"},
		{CmdCheck, &CheckFlags{}, []string{"--bogus"}, "run `wiregate-bench check -h`"},
		{CmdFill, &FillFlags{}, []string{"--brokers", "h:1", "--n", "5", "--topic-prefix", "wiregate-x-", "--compression", "xz"}, `--compression: "xz" is not a codec`},
		{CmdSizes, &SizesFlags{}, []string{"--compression", "zstd,brotli"}, `--compression: "brotli" is not a codec; valid codecs: none, gzip, snappy, lz4, zstd`},
		{CmdSizes, &SizesFlags{}, []string{"--compression", "zstd", "--batch-bytes", "512"}, "--batch-bytes: 512 bytes is outside 1024 to 1048576"},
	} {
		err := Parse(tc.sub, tc.f, tc.args)
		if err == nil || exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: %v (code %d), want exit 2 saying %q", tc.sub, tc.args, err, exitcode.Code(err), tc.want)
		}
	}
}

func TestSplitList(t *testing.T) {
	got := SplitList(" a.v1.A, b.v1.B\n\n,c ")
	if !reflect.DeepEqual(got, []string{"a.v1.A", "b.v1.B", "c"}) {
		t.Fatalf("%q", got)
	}
}
