// Package gate runs every harness stage for one base/head pair and writes
// report.json: schema findings, Avro compatibility, prepare, correctness,
// sizes, interleaved bench rounds, pipeline rounds, comparison and verdict.
// A stage that cannot run is recorded as an error in the report (which is
// written regardless) and the stages that do not depend on it go on.
package gate

import "time"

// Options are the gate's inputs; cmd/wiregate's `gate` flags map onto them
// one to one (the action passes its inputs through).
type Options struct {
	HarnessDir string
	BaseDir    string // base checkout (a git worktree)
	HeadDir    string // head checkout (the working tree)
	Buf        string
	BufInput   string // relative to each side's dir
	Messages   []string
	Samples    string
	Formats    string
	AvroGlobs  []string
	AvroLevel  string

	SizeThreshold, TimeThreshold, ThroughputThreshold string
	Alpha                                             float64
	Count                                             int
	Benchtime                                         time.Duration

	Pipeline  bool
	PipelineN int64
	Broker    string

	FindingsFile string   // buf lint/breaking findings, written by the action
	Allow        []string // "breaking", "regression" (from PR labels)

	BaseRef, BaseSha, HeadRef, HeadSha string
	Out                                string
	CacheDir                           string
	Log                                func(format string, args ...any)
}
