package report

// BufRules say which buf rules judged buf lint and buf breaking. Rules
// are policy, read from the base as wiregate.yaml is: head's files are
// checked by the base's rules, and where head's buf config changes them,
// the change is stated and takes effect once merged.
type BufRules struct {
	// From names the rules that judged each module buf checked: the
	// base's config file (as `buf config migrate` translates a v1 one
	// where head's is v2), or buf's defaults where the base has none.
	From []string `json:"from"`
	// Change is how head's buf config changes the rules, in one line;
	// empty when head's rules are the base's.
	Change string `json:"change,omitempty"`
	// HeadOnly are the findings head's own rules raise that the base's
	// do not: they judge nothing now and apply once merged.
	HeadOnly []Finding `json:"head_only,omitempty"`
}
