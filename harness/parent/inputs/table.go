// Package inputs is the one table of wiregate's inputs: every action input
// and `wiregate gate` flag, with its default and meaning written once, and
// the one validation that turns their text into Settings. action.yml repeats
// the defaults for the runner to show users; a test keeps it equal to Table.
package inputs

import (
	"fmt"
	"strings"
)

// Owner says who reads an input.
type Owner int

const (
	// Gate inputs are read and validated by `wiregate gate`.
	Gate Owner = iota
	// Action inputs are read by the action itself (GitHub glue: the token,
	// whether to comment, which base to check out); the gate never sees them.
	Action
	// Flag inputs are `wiregate gate` flags that are not action inputs.
	Flag
)

// Input is one input: an action input and a `wiregate gate` flag of the same name.
type Input struct {
	Name    string
	Default string // as the action and the flag document it
	Doc     string // one sentence, as action.yml and `wiregate gate -h` show it
	Owner   Owner
	parse   func(s *Settings, v value) error
}

// Table is every input, in the order action.yml lists them.
var Table = []Input{
	{Name: "github-token", Default: "${{ github.token }}", Owner: Action,
		Doc: "Token used to post and update the sticky PR comment."},
	{Name: "working-directory", Default: ".", parse: text(func(s *Settings) *string { return &s.WorkingDirectory }),
		Doc: "Repository root to gate (relative to the workspace)."},
	{Name: "buf-input", Default: ".", parse: text(func(s *Settings) *string { return &s.BufInput }),
		Doc: "Directory holding buf.yaml, relative to working-directory."},
	{Name: "messages", Default: "", parse: parseMessages,
		Doc: "Fully qualified proto messages to measure, comma or newline separated. Empty measures every top-level message."},
	{Name: "samples", Default: "", parse: text(func(s *Settings) *string { return &s.Samples }),
		Doc: "Directory of `<full.Message.Name>.jsonl` protojson sample records. Empty generates deterministic records from the schema."},
	{Name: "avro-schemas", Default: "**/*.avsc", parse: parseAvroSchemas,
		Doc: "Glob of Avro schemas to check for compatibility; a record whose full name equals a proto message's is that message's Avro schema, and any other top-level record is measured on its own, in json and avro (Avro-first). The files are read together, so a named type one defines may be used by name in any other."},
	{Name: "avro-compatibility", Default: "BACKWARD", parse: parseAvroCompatibility,
		Doc: "Avro compatibility level — BACKWARD, FORWARD, FULL, their _TRANSITIVE forms, or NONE."},
	{Name: "formats", Default: "json,protobuf,avro", parse: parseFormats,
		Doc: "Formats to measure, comma separated (json, protobuf, avro; opt-in protojson, vtprotobuf, msgpack, cbor, avro-hamba)."},
	{Name: "base-ref", Default: "", Owner: Action,
		Doc: "What head is compared against. Empty uses the pull request's base sha (push — the `before` sha). Publish and approve modes refuse a report whose base is not the pull request's."},
	{Name: "lint", Default: "true", parse: boolean(func(s *Settings) *bool { return &s.Lint }),
		Doc: "Run buf lint on head."},
	{Name: "lint-findings", Default: "new", parse: parseLintFindings,
		Doc: "Which lint findings fail the gate — new (those the pull request adds; findings the base already has are listed as existing debt) or all."},
	{Name: "breaking", Default: "true", parse: boolean(func(s *Settings) *bool { return &s.Breaking }),
		Doc: "Run buf breaking against the base."},
	{Name: "breaking-against", Default: "", parse: parseBreakingAgainst,
		Doc: "Also run buf breaking and Avro compatibility against a release — a tag, branch or sha, or `latest-tag:<glob>` for the newest tag matching the glob in version order (`latest-tag:v*`). Empty checks against the base only."},
	{Name: "history", Default: DefaultHistoryBranch, parse: parseHistory,
		Doc: "Branch of this repository that keeps the default branch's exact figures (a push there appends them; pull requests chart them), or false for no history."},
	{Name: "history-points", Default: "20", parse: parseHistoryPoints,
		Doc: "How many of the default branch's latest commits a pull request charts for each message it changes."},
	{Name: "size-threshold", Default: "5%", parse: percent(func(s *Settings) *float64 { return &s.SizeThreshold }),
		Doc: "Largest allowed growth of bytes/message."},
	{Name: "compression", Default: "zstd", parse: parseCompression,
		Doc: "Also measure bytes per record as a Kafka broker stores them — records in producer batches of batch-bytes, each batch compressed with this codec by franz-go's compressor — gated by compressed-size-threshold: gzip, snappy, lz4 or zstd, a comma list for several (the pipeline's producer uses the first), or none for raw size only."},
	{Name: "batch-bytes", Default: "16384", parse: parseBatchBytes,
		Doc: "Bytes of one producer batch before compression (Kafka's batch.size; 1024 to 1048576) that the compressed size fills with records. The pipeline's producer keeps 1 MiB batches, so no record is too big for one."},
	{Name: "compressed-size-threshold", Default: "5%", parse: percent(func(s *Settings) *float64 { return &s.CompressedSizeThreshold }),
		Doc: "Largest allowed growth of bytes per record after batch compression, for each codec of compression. Gated on a message's samples; on generated records a growth raw size does not also show past size-threshold is stated, not failed."},
	{Name: "time-threshold", Default: "10%", parse: percent(func(s *Settings) *float64 { return &s.TimeThreshold }),
		Doc: "Largest allowed significant slowdown of encode/decode time/op."},
	{Name: "throughput-threshold", Default: "10%", parse: percent(func(s *Settings) *float64 { return &s.ThroughputThreshold }),
		Doc: "Largest allowed significant drop of pipeline records/s."},
	{Name: "cpu-threshold", Default: "2%", parse: percent(func(s *Settings) *float64 { return &s.CPUThreshold }),
		Doc: "Largest allowed growth of instructions/op, counted exactly under Valgrind; a growth also has to clear the count's noise floor (docs/verdicts.md)."},
	{Name: "added-content-threshold", Default: "off", parse: parseAddedContentThreshold,
		Doc: "Largest allowed cost of the content a change adds, when filled (head's records with it against the same records without it; for a message that only adds, also what the added fields cost unset), in bytes, compressed bytes and instructions/op — off (stated in the comment, never failing) or a percentage for every kind; wiregate.yaml sets it per kind and per message (docs/verdicts.md)."},
	{Name: "cpu-cost", Default: "auto", parse: parseCPUCost,
		Doc: "Count instructions/op under Valgrind — auto (where it can be had, on PATH or installed with apt-get on a Linux CI runner; elsewhere time only, and the report says why), on (required; the gate stops where it cannot be had), or off."},
	{Name: "alpha", Default: "0.05", parse: parseAlpha,
		Doc: "Significance level of the base-vs-head comparisons."},
	{Name: "count", Default: "10", parse: parseCount,
		Doc: "The most interleaved benchmark rounds per side; a changed message is timed no further once its timings can show a slowdown of time-threshold at the Holm cutoff, or plainly cannot within count rounds (docs/verdicts.md)."},
	{Name: "unchanged-rounds", Default: "3", parse: parseUnchangedRounds,
		Doc: "Timing rounds (bench and pipeline) for a message whose schema is identical on both sides, at most count; its time cannot fail the gate, so it is timed for information only. count times it like a changed message."},
	{Name: "pipeline", Default: "true", parse: boolean(func(s *Settings) *bool { return &s.Pipeline }),
		Doc: "Run the pipeline (broker throughput) stage."},
	{Name: "pipeline-formats", Default: "auto", parse: parsePipelineFormats,
		Doc: "Formats the pipeline drains each message in — auto (the one it travels in: protobuf for a proto message, avro for an Avro-first record; the first of " + strings.Join(wireOrder, ", ") + " it is measured in), all (every format measured), or a comma list of formats (a message measured in none of them is drained as auto). Bytes, counts and timings cover every format either way."},
	{Name: "pipeline-messages", Default: "200000", parse: parsePipelineMessages,
		Doc: "The most records a pipeline backlog holds; the gate holds fewer when a 250 ms drain needs fewer (docs/pipeline.md)."},
	{Name: "pipeline-bytes", Default: "128MiB", parse: parsePipelineBytes,
		Doc: "Byte budget of one pipeline backlog — a row (message and format) whose pipeline-messages records would exceed it gets fewer (N = budget / its mean record size), which bounds the broker's memory."},
	{Name: "broker", Default: "auto", parse: parseBroker,
		Doc: "Broker for the pipeline stage — auto, redpanda, embedded, or host:port[,host:port…] of an external cluster."},
	{Name: "comment", Default: "true", Owner: Action,
		Doc: "Post or update the sticky PR comment."},
	{Name: "cache", Default: "true", Owner: Action,
		Doc: "Restore and save wiregate's build caches and prepared bench programs with the Actions cache, so a fresh runner reuses what an earlier run built."},
	{Name: "mode", Default: "gate", Owner: Action,
		Doc: "gate runs the gate on this event (the whole change, or with shard one part of it, uploaded for merge) and uploads report.json as the artifact wiregate-report-<job>; plan splits the change over shards and outputs matrix and shards for a matrix of gate jobs; merge makes one report of this run's parts and posts it as gate does; publish (on workflow_run) validates the report artifact of the run in the event and posts its comment and commit status, without running PR code; approve (on issue_comment) decides the PR head's latest report again with the PR's /wiregate approve comments and updates its comment and status, without running PR code."},
	{Name: "measure", Default: "changed", parse: parseMeasure,
		Doc: "Which messages are measured — changed (those whose schema the pull request changes or adds; an unchanged one runs the same code on the same records, so its figures cannot differ) or all."},
	{Name: "time-budget", Default: "10m", parse: parseTimeBudget,
		Doc: "Wall time of the whole step (cache restore and harness build included) the gate ends within; one plan fits every stage into it, cutting timing first (bench rounds, pipeline), then instruction counts (one rotation instead of four, then messages), and the report says what was cut."},
	{Name: "workers", Default: "auto", parse: parseWorkers,
		Doc: "How many processes the exact stages (records, sizes and the correctness check, instruction counts) run at once — auto (the runner's cores) or a number; timed stages (bench rounds, pipeline) always run one at a time."},
	{Name: "shard", Default: "", parse: parseShard,
		Doc: "This job's part of a sharded gate, i/n (mode: plan writes the matrix): every shard finds the same change and measures a deterministic, price-balanced n-th of it; empty measures the whole change."},
	{Name: "max-shards", Default: "8", parse: parseMaxShards,
		Doc: fmt.Sprintf("The most shards mode: plan spreads a change over, each within time-budget (at most %d, a matrix's limit).", MaxShards)},
	{Name: "coverage", Default: "stated", parse: parseCoverage,
		Doc: "What a changed message whose figure the budget cut does to the verdict — stated (the headline says what was judged) or required (the gate fails, kind coverage)."},
	{Name: "cpu-processes", Default: "3", Owner: Flag, parse: parseCPUProcesses,
		Doc: "Processes that count each changed message's instructions on each side (each with its own hash seeds); their spread sets each count's noise floor, and one falls back to the format's."},
	{Name: "counts-beside", Default: "true", Owner: Flag, parse: boolean(func(s *Settings) *bool { return &s.CountsBeside }),
		Doc: "Count instructions beside the bench rounds, on the CPUs the timings (pinned to one CPU) leave, instead of before them: a count is the same on any CPU and whatever runs beside it. Off, or where nothing can be pinned, or with workers 1, the counts run first."},
	{Name: "benchtime", Default: "100ms", Owner: Flag, parse: parseBenchtime,
		Doc: "Target time per benchmark per round."},
}

// Lookup returns the named input.
func Lookup(name string) (Input, bool) {
	for _, in := range Table {
		if in.Name == name {
			return in, true
		}
	}
	return Input{}, false
}

// DefaultOf is the named input's default, for the CLI commands that share
// an input's flag (wiregate sizes --formats, avro-compat --avro-schemas).
func DefaultOf(name string) string {
	in, ok := Lookup(name)
	if !ok {
		panic("inputs: no input " + name)
	}
	return in.Default
}
