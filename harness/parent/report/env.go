package report

// CPUCost is the cpu stage's outcome (input cpu-cost).
type CPUCost struct {
	Mode string `json:"mode"`           // auto | on | off, as the input says
	Tool string `json:"tool,omitempty"` // the counter, when instructions were counted
	// Installed says that the gate installed Valgrind on the runner, and
	// how long it took.
	Installed string `json:"installed,omitempty"`
	// Unavailable says in one line why CPU cost is time only.
	Unavailable string `json:"unavailable,omitempty"`
}

// Against is the release named by the breaking-against input.
type Against struct {
	Input string `json:"input"` // as given: "latest-tag:v*", "v1.4.0", "release/1.x"
	Ref   string `json:"ref"`   // what it resolved to: the tag, or the ref itself
	Sha   string `json:"sha"`
	// SameAsBase is true when the release is the base commit: its checks
	// would repeat the base's, so they did not run.
	SameAsBase bool `json:"same_as_base,omitempty"`
}

type Env struct {
	GoVersion string `json:"go_version,omitempty"`
	OS        string `json:"os,omitempty"`
	CPU       string `json:"cpu,omitempty"`
	Cores     int    `json:"cores,omitempty"`
	// Workers is how many processes the exact stages ran at once (input
	// workers).
	Workers int `json:"workers,omitempty"`
	Rounds  int `json:"count,omitempty"` // the timing rounds asked for (input count)
	// UnchangedRounds are the timing rounds of the unchanged-schema
	// messages when fewer than Rounds (input unchanged-rounds); 0: as Rounds.
	UnchangedRounds int     `json:"unchanged_rounds,omitempty"`
	Alpha           float64 `json:"alpha,omitempty"`
	Broker          string  `json:"broker,omitempty"`
	BrokerReason    string  `json:"broker_reason,omitempty"`
	ConsumerCap     string  `json:"consumer_cap,omitempty"`
	BenchPin        string  `json:"bench_pin,omitempty"`      // where the bench processes ran
	PipelineN       int     `json:"pipeline_n,omitempty"`     // the most records per backlog (input pipeline-messages)
	PipelineBytes   int64   `json:"pipeline_bytes,omitempty"` // the byte budget of a backlog (input pipeline-bytes)
	// Peak resident memory of the pipeline's processes: the embedded broker
	// (0 for one in a container or elsewhere) and the largest consumer's.
	BrokerPeakRSSBytes   int64  `json:"broker_peak_rss_bytes,omitempty"`
	ConsumerPeakRSSBytes int64  `json:"consumer_peak_rss_bytes,omitempty"`
	Runner               string `json:"runner,omitempty"`
	// PeakRSSBytes is the largest resident memory of the gate and any one
	// of its children (bench programs, Valgrind, consumers, the broker).
	PeakRSSBytes int64 `json:"peak_rss_bytes,omitempty"`
}

// MeasuringTime is what measuring one message cost in this run, one figure for each
// stage, in wall time on this run's runner (0: the stage did not measure
// it). A push's run keeps them on the history branch, and a later plan
// prices the message by them instead of by its schema alone
// (docs/action.md, "Prices").
type MeasuringTime struct {
	Message string `json:"message"`
	// SizesSeconds is sizing it on one side: its part of its chunk's
	// processes.
	SizesSeconds float64 `json:"sizes_seconds,omitempty"`
	// CountSeconds is one count process on one side, every format: the
	// mean of its processes.
	CountSeconds float64 `json:"count_seconds,omitempty"`
	// RoundSeconds is one bench round on one side at the shortest
	// benchtime (10ms), building its records included: the warm-up
	// round's.
	RoundSeconds float64 `json:"round_seconds,omitempty"`
	// PipelinePassSeconds is one pass of its backlog through the pipeline
	// on one side, every format added, its producer's or consumer's start
	// included.
	PipelinePassSeconds float64 `json:"pipeline_pass_seconds,omitempty"`
	// Noise is each timing's samples, one per round, relative to their
	// median, by "format/op": the base's (head's where only head was
	// timed). A later plan predicts from them, before timing anything,
	// whether a timing can reach its threshold at all (docs/verdicts.md,
	// "Timings planned before they run").
	Noise map[string][]float64 `json:"noise,omitempty"`
}

// Stage is one step of the run with its wall time.
type Stage struct {
	Name string `json:"name"`
	// Shard is the shard that ran the stage, in a merged report ("2/8").
	Shard   string  `json:"shard,omitempty"`
	Seconds float64 `json:"seconds"`
	Error   string  `json:"error,omitempty"`
	// Note says what the stage did where that varies: restored or built,
	// reused or rebuilt, what the plan cut.
	Note string `json:"note,omitempty"`
}
