package report

// Cut is what the gate cut to fit its time budget (package budget).
type Cut struct {
	BudgetSeconds float64 `json:"budget_seconds"`
	// ShardsNeeded is how many shards of time-budget each measure the
	// whole change, by the prices mode: plan splits by (package shard).
	ShardsNeeded int          `json:"shards_needed,omitempty"`
	Bench        *BenchCut    `json:"bench,omitempty"`
	Pipeline     *PipelineCut `json:"pipeline,omitempty"`
	CPU          *CPUCut      `json:"cpu,omitempty"`
	Exact        *ExactCut    `json:"exact,omitempty"`
}

// CPUCut is what the budget cut of the instruction counts: messages
// counted in fewer processes than asked, and messages not counted at all.
type CPUCut struct {
	Uncounted []string `json:"uncounted,omitempty"` // messages not counted
	// FewerProcesses are messages counted in fewer processes per side than
	// asked; with one, their floor is the format's global one.
	FewerProcesses []string `json:"fewer_processes,omitempty"`
	Note           string   `json:"note,omitempty"`
}

// ExactCut is what the budget cut of the exact stage (correctness and
// sizes): messages it had no time left for. Nothing is cut here before
// every timing stage is.
type ExactCut struct {
	Unmeasured []string `json:"unmeasured,omitempty"`
	Note       string   `json:"note,omitempty"`
}

// PipelineCut is what the budget cut of the pipeline rounds.
type PipelineCut struct {
	Untimed []string `json:"untimed,omitempty"` // rows (message/format) not measured
	Note    string   `json:"note,omitempty"`    // what was cut; empty when nothing was
}

// BenchCut is the bench rounds the run did.
type BenchCut struct {
	Rounds    int      `json:"count"`
	Benchtime string   `json:"benchtime"`
	Untimed   []string `json:"untimed,omitempty"` // messages whose time was not measured
	Note      string   `json:"note,omitempty"`    // what was cut and why; empty when nothing was
}
