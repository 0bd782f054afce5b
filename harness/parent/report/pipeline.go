package report

type Pipeline struct {
	Message      string   `json:"message"` // contract
	Format       string   `json:"format"`  // contract
	Broker       string   `json:"broker"`  // contract: redpanda | embedded | external
	BrokerReason string   `json:"broker_reason,omitempty"`
	Base         *Summary `json:"base" jsonschema:"nullable"`      // contract: records/s
	Head         *Summary `json:"head" jsonschema:"nullable"`      // contract: records/s
	DeltaPct     *float64 `json:"delta_pct" jsonschema:"nullable"` // contract
	P            *float64 `json:"p" jsonschema:"nullable"`         // contract
	Significant  bool     `json:"significant"`
	BaseNsPerMsg float64  `json:"base_ns_per_msg,omitempty"`
	HeadNsPerMsg float64  `json:"head_ns_per_msg,omitempty"`
	RawNsPerMsg  float64  `json:"raw_ns_per_msg,omitempty"`
	NoiseFloor   *float64 `json:"noise_floor_pct,omitempty"`
	// MDE is the smallest fall of records/s the row's base rounds could
	// show at the Holm cutoff of the pipeline family; nil with MDEReason
	// when none could.
	MDE       *float64 `json:"mde_pct,omitempty"`
	MDEReason string   `json:"mde_reason,omitempty"`
	// StoppedNoFall is the decoded rounds a side after which the row
	// stopped because its spread gave the rounds planned the power its
	// threshold needs and head showed no fall of a quarter of it (a fall
	// would have kept it draining); its MDE is then at the rounds planned,
	// the power its decision had. 0: it did not stop so.
	StoppedNoFall int      `json:"stopped_no_fall,omitempty"`
	Backlog       *Backlog `json:"backlog,omitempty"`
	// Compression is the producer's batch codec (the first of the
	// compression input; none when it is off): the consumer's figures
	// include decompressing it.
	Compression string `json:"compression,omitempty"`
}

// Backlog is how many records each side's backlog of a pipeline row held,
// and why: the count asked for (env.pipeline_n), or fewer when that many of
// the row's records would exceed the byte budget (env.pipeline_bytes) or
// outlast the drain target. Each row (message and format) has its own.
type Backlog struct {
	N int64 `json:"n"`
	// BudgetBytes is the byte budget when it decided N: N is BudgetBytes /
	// MeanBytes. 0: N is the count asked for, or the drain target decided.
	BudgetBytes int64   `json:"budget_bytes,omitempty"`
	MeanBytes   float64 `json:"mean_bytes"` // the row's mean record, the larger side's
	Format      string  `json:"format"`     // the row's format (kept for readers of the per-message backlog)
	// DrainSeconds is the drain target when it decided N: N records make
	// a decoded drain that long at the row's faster side.
	DrainSeconds float64 `json:"drain_seconds,omitempty"`
}
