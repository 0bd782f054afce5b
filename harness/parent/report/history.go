package report

// History is main's exact figures for the messages a pull request changes,
// read from the history branch, with the PR's head as the last point; or,
// on a push to the default branch, what was recorded there.
type History struct {
	Branch string `json:"branch"`
	// Points is how many of main's latest points each message shows at
	// most (input history-points), before the PR's head.
	Points int `json:"points"`
	// Recorded is the sha this run appended to the branch (a push to the
	// default branch); Attempts is how many pushes that took.
	Recorded string `json:"recorded,omitempty"`
	Attempts int    `json:"attempts,omitempty"`
	// Note says, in one line, why there is nothing to show: no branch yet,
	// no changed message, a message new in this PR.
	Note     string           `json:"note,omitempty"`
	Messages []HistoryMessage `json:"messages"`
	// Carried are the messages whose figures a push took from the last
	// point instead of measuring them: the same fingerprint, wiregate and
	// Go as then. Unreached are those it could neither carry nor measure
	// within the time budget.
	Carried   []string `json:"carried,omitempty"`
	Unreached []string `json:"unreached,omitempty"`
}

// HistoryMessage is one changed message: its commits, oldest first, the
// last being the PR's head, and one series per exact figure that differs
// base vs head.
type HistoryMessage struct {
	Name    string          `json:"name"`
	Commits []HistoryCommit `json:"commits"`
	Series  []HistorySeries `json:"series"`
}

type HistoryCommit struct {
	Sha  string `json:"sha"`
	Ref  string `json:"ref,omitempty"`  // the branch it was pushed to
	Date string `json:"date,omitempty"` // the commit's date, RFC 3339
	// Head marks the PR's head (the last commit), which is not on main.
	Head bool `json:"head,omitempty"`
}

// HistorySeries is one figure over the commits: Values[i] is its value at
// Commits[i], null where that commit had no such figure.
type HistorySeries struct {
	Format string     `json:"format"`
	Metric string     `json:"metric"` // size, encode, decode
	Unit   string     `json:"unit"`   // B/msg, allocs/op, instr/op
	Values []*float64 `json:"values"`
}
