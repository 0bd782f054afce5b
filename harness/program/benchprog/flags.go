package benchprog

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/program/batch"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/pipeline"
)

// CheckFlags are check's: the correctness gate over the selection.
type CheckFlags struct{ Selection }

// SizesFlags are sizes': exact bytes per message of the selection, and
// with Batching, bytes per record as a broker stores them.
type SizesFlags struct {
	Selection
	Batching
	// Save is a directory to save every sized case's encoded records in,
	// for the processes that only run loops over them (Selection.Saved).
	// Absolute.
	Save string
}

// Batching asks sizes for bytes per record after a producer's batch
// compression (package batch), one figure per codec.
type Batching struct {
	Compression []string // codecs of batch.Codecs; empty: not measured
	BatchBytes  int      // a producer batch's bytes before compression
}

// Args renders the flags for Parse.
func (f SizesFlags) Args() []string {
	args := f.Selection.Args()
	if len(f.Compression) > 0 {
		args = append(args, "--compression", strings.Join(f.Compression, ","), "--batch-bytes", fmt.Sprint(f.BatchBytes))
	}
	if f.Save != "" {
		args = append(args, "--save", f.Save)
	}
	return args
}

// Validate checks the codecs and, when there are any, the batch size.
func (f *SizesFlags) Validate() error {
	if f.Saved != "" {
		return exitcode.BadInput("--saved: sizes builds and checks its records (it saves them with --save); drop --saved")
	}
	for _, c := range f.Compression {
		if _, err := batch.Codec(c); err != nil {
			return exitcode.BadInput("--compression: %v", err)
		}
	}
	if len(f.Compression) > 0 {
		if err := batch.CheckBatchBytes(f.BatchBytes); err != nil {
			return exitcode.BadInput("--batch-bytes: %v", err)
		}
	}
	return nil
}

func (f *SizesFlags) define(fs *flag.FlagSet) {
	f.Selection.define(fs)
	fs.Var((*list)(&f.Compression), "compression", "also measure bytes per record after batch compression with these codecs: "+strings.Join(batch.Codecs, ", "))
	fs.IntVar(&f.BatchBytes, "batch-bytes", batch.DefaultBatchBytes, "a producer batch's bytes before compression")
	fs.StringVar(&f.Save, "save", "", "save every case's encoded records in this directory, for count and bench to load (--saved)")
}

// BenchFlags are bench's: encode/decode benchmarks of the selection.
type BenchFlags struct {
	Selection
	Timing
	Header bool // write the goos/goarch/cpu lines first (the first round of a file)
	// SkipAllocs leaves B/op and allocs/op out of every line: they are
	// exact, so the parent counts them once a side (its warm-up round)
	// rather than every round.
	SkipAllocs bool
	// IterationsFile names a file of the operations a run of each named
	// benchmark does instead of calibrating to Benchtime
	// (bench.Options.Iterations; WriteIterations writes it). A file, not a
	// flag's value: a round of hundreds of messages names thousands.
	IterationsFile string
}

// Timing is how long and how often bench measures; the CLI's bench takes
// the same flags with the same defaults (DefineTiming).
type Timing struct {
	Count     int           // repetitions of every benchmark, 1 to 1000
	Benchtime time.Duration // target time per benchmark run
	Op        string        // "encode" or "decode"; empty: both
}

// DefineTiming registers --count, --benchtime and --op with their defaults.
func (t *Timing) DefineTiming(fs *flag.FlagSet) {
	fs.IntVar(&t.Count, "count", 1, "repetitions of every benchmark (1 to 1000)")
	fs.DurationVar(&t.Benchtime, "benchtime", time.Second, "target time per benchmark run")
	fs.StringVar(&t.Op, "op", "", "encode or decode only (default both)")
}

// Validate refuses a count, benchtime or op bench cannot run with.
func (t *Timing) Validate() error {
	switch {
	case t.Count < 1 || t.Count > 1000:
		return exitcode.BadInput("--count %d: use 1 to 1000", t.Count)
	case t.Benchtime <= 0:
		return exitcode.BadInput("--benchtime %s: must be positive, e.g. 200ms", t.Benchtime)
	case t.Op != "" && t.Op != "encode" && t.Op != "decode":
		return exitcode.BadInput("--op %q: use encode or decode (or leave it out for both)", t.Op)
	}
	return nil
}

// Args renders the flags for Parse.
func (f BenchFlags) Args() []string {
	args := append(f.Selection.Args(), "--count", fmt.Sprint(f.Count), "--benchtime", f.Benchtime.String(), fmt.Sprintf("--header=%t", f.Header),
		fmt.Sprintf("--allocs=%t", !f.SkipAllocs))
	if f.Op != "" {
		args = append(args, "--op", f.Op)
	}
	if f.IterationsFile != "" {
		args = append(args, "--iterations-file", f.IterationsFile)
	}
	return args
}

// Validate checks the timing (the selection is the program's to check).
func (f *BenchFlags) Validate() error { return f.Timing.Validate() }

func (f *BenchFlags) define(fs *flag.FlagSet) {
	f.Selection.define(fs)
	f.DefineTiming(fs)
	fs.BoolVar(&f.Header, "header", true, "write the goos/goarch/cpu header")
	fs.StringVar(&f.IterationsFile, "iterations-file", "", "file of name=N lines: run each named benchmark N operations, not calibrated to --benchtime (N from an earlier run's ns/op)")
	fs.BoolFunc("allocs", "count B/op and allocs/op, exactly, the first time each benchmark is reached (default true)", func(v string) error {
		b, err := strconv.ParseBool(v)
		f.SkipAllocs = !b
		return err
	})
}

// FillFlags are pipeline-fill's: one backlog of N records per case of the
// selection, in topics whose names start with TopicPrefix.
type FillFlags struct {
	Selection
	Brokers []string // seed brokers, host:port
	N       int64    // records per backlog
	// TopicPrefix starts every topic the fill creates. The parent picks it
	// per run, so it can delete the run's topics even when a fill is
	// interrupted before it reports them.
	TopicPrefix string
	// Compression is the producer's batch codec; empty: franz-go's default.
	Compression string
}

// Args renders the flags for Parse.
func (f FillFlags) Args() []string {
	args := append(f.Selection.Args(), "--brokers", strings.Join(f.Brokers, ","), "--n", fmt.Sprint(f.N), "--topic-prefix", f.TopicPrefix)
	if f.Compression != "" {
		args = append(args, "--compression", f.Compression)
	}
	return args
}

// Validate checks the brokers, N and the prefix.
func (f *FillFlags) Validate() error {
	if len(f.Brokers) == 0 {
		return exitcode.BadInput("--brokers: no broker address given")
	}
	if !strings.HasPrefix(f.TopicPrefix, pipeline.TopicPrefix) {
		return exitcode.BadInput("--topic-prefix %q: must start with %q (wiregate deletes only the topics it named)", f.TopicPrefix, pipeline.TopicPrefix)
	}
	if f.Compression != "" {
		if _, err := batch.Codec(f.Compression); err != nil {
			return exitcode.BadInput("--compression: %v", err)
		}
	}
	return pipeline.CheckN(f.N)
}

func (f *FillFlags) define(fs *flag.FlagSet) {
	f.Selection.define(fs)
	fs.Var((*list)(&f.Brokers), "brokers", "seed brokers host:port,… of a running broker")
	fs.Int64Var(&f.N, "n", 0, "records per backlog")
	fs.StringVar(&f.TopicPrefix, "topic-prefix", "", "prefix of every topic created (starts with "+pipeline.TopicPrefix+")")
	fs.StringVar(&f.Compression, "compression", "", "the producer's batch codec: "+strings.Join(batch.Codecs, ", ")+" (default franz-go's, snappy)")
}

// ConsumeFlags are pipeline-consume's: drain one backlog as the capped
// consumer, decoding with the one message and format selected.
type ConsumeFlags struct {
	Selection
	Spec pipeline.ConsumerSpec
}

// Args renders the flags for Parse.
func (f ConsumeFlags) Args() []string { return append(f.Selection.Args(), f.Spec.Args()...) }

// Validate wants exactly one message and one format, and a whole spec.
func (f *ConsumeFlags) Validate() error {
	if len(f.Messages) != 1 || len(f.Formats) != 1 {
		return exitcode.BadInput("select exactly one message and one format, got --messages %q --formats %q", f.Messages, f.Formats)
	}
	return f.Spec.Validate()
}

func (f *ConsumeFlags) define(fs *flag.FlagSet) {
	f.Selection.define(fs)
	f.Spec.Define(fs)
}

// ConsumerFlags are pipeline-consumer's: the side's whole selection (its
// samples, record pools and Avro schemas), of which each drain request
// names one message and format.
type ConsumerFlags struct{ Selection }

// CountFlags are count's: each op's measured loop of each case of the
// selection, counted under callgrind (package cpucost runs it).
type CountFlags struct {
	Selection
	Ops []string // "encode", "decode"
	// Lengths are what each case's loops count and warm, by case
	// ("message/format"): every case counted has one (the parent always
	// says), so the messages of one process each count at their own length.
	Lengths Lengths
	// Added is a directory a sizes run saved head's records with their
	// added content in (absolute): each message saved there is counted on
	// them too, at the same length, after every same-content loop of the
	// process, its dumps labelled apart (CountLabel's added). Empty: none.
	Added string
	// AddedMessages, when set, are the only messages whose added content
	// this process counts (the parent spreads them over a batch's
	// processes).
	AddedMessages []string
}

// CountLength is what one case's loops count: the first First records of
// the pool (0: all of them), Passes times, after Warm operations run
// uninstrumented.
type CountLength struct {
	First, Passes, Warm int
}

// Lengths are the count lengths by case; as a flag,
// "a.v1.A/json=128:1:516,a.v1.A/protobuf=0:5:8241"
// (message/format=first:passes:warm).
type Lengths map[string]CountLength

func (l Lengths) String() string {
	var parts []string
	for _, f := range slices.Sorted(maps.Keys(l)) {
		c := l[f]
		parts = append(parts, fmt.Sprintf("%s=%d:%d:%d", f, c.First, c.Passes, c.Warm))
	}
	return strings.Join(parts, ",")
}

func (l *Lengths) Set(v string) error {
	*l = Lengths{}
	for _, part := range strings.Split(v, ",") {
		if part == "" {
			continue
		}
		var c CountLength
		name, spec, ok := strings.Cut(part, "=")
		if n, err := fmt.Sscanf(spec, "%d:%d:%d", &c.First, &c.Passes, &c.Warm); !ok || err != nil || n != 3 || !strings.Contains(name, "/") {
			return fmt.Errorf("%q: want message/format=first:passes:warm", part)
		}
		(*l)[name] = c
	}
	return nil
}

// Args renders the flags for Parse.
func (f CountFlags) Args() []string {
	args := append(f.Selection.Args(), "--ops", strings.Join(f.Ops, ","), "--lengths", f.Lengths.String())
	if f.Added != "" {
		args = append(args, "--added", f.Added)
	}
	if len(f.AddedMessages) > 0 {
		args = append(args, "--added-messages", strings.Join(f.AddedMessages, ","))
	}
	return args
}

// Validate checks ops and lengths (one for every selected format), and
// that the records to count were saved: count loads, it never builds.
func (f *CountFlags) Validate() error {
	if f.Saved == "" {
		return exitcode.BadInput("--saved is required: count loads the records a sizes run saved (sizes --save DIR)")
	}
	for _, op := range f.Ops {
		if op != "encode" && op != "decode" {
			return exitcode.BadInput("--ops: unknown op %q (encode, decode)", op)
		}
	}
	for _, m := range f.Messages {
		for _, format := range f.Formats {
			if _, ok := f.Lengths[m+"/"+format]; !ok {
				return exitcode.BadInput("--lengths has none for %s/%s (message/format=first:passes:warm)", m, format)
			}
		}
	}
	for name, c := range f.Lengths {
		switch {
		case c.Passes < 1 || c.Passes > 1000:
			return exitcode.BadInput("--lengths %s: passes %d, use 1 to 1000", name, c.Passes)
		case c.First < 0:
			return exitcode.BadInput("--lengths %s: first %d must not be negative (0 is the whole pool)", name, c.First)
		case c.Warm < 0:
			return exitcode.BadInput("--lengths %s: warm %d must not be negative", name, c.Warm)
		}
	}
	return nil
}

func (f *CountFlags) define(fs *flag.FlagSet) {
	f.Selection.define(fs)
	fs.Var((*list)(&f.Ops), "ops", "ops to count: encode, decode (default both)")
	fs.Var(&f.Lengths, "lengths", "what each case's loops count: message/format=first:passes:warm, comma separated (first 0: the whole pool; the parent always says)")
	fs.StringVar(&f.Added, "added", "", "also count each message whose records with their added content a sizes run saved in this directory, after every other loop")
	fs.Var((*list)(&f.AddedMessages), "added-messages", "with --added: only these messages' added content (default every one saved there)")
}

// NoFlags are the flags of list and embedded-broker: none (-h still works).
type NoFlags struct{}

// Args is empty.
func (NoFlags) Args() []string { return nil }

// Validate accepts.
func (*NoFlags) Validate() error         { return nil }
func (*NoFlags) define(fs *flag.FlagSet) {}
