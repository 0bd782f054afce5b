package report

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// The results a report can have (contract).
const (
	ResultPass = "pass"
	ResultFail = "fail"
	// ResultError is the minimal report's (Unencodable): the run's own
	// report could not be written, which is wiregate's bug.
	ResultError = "error"
)

// SubjectReport is the subject of the error violation of a report that
// could not be encoded.
const SubjectReport = "report.json"

// NotANumber is a report holding figures JSON cannot hold (NaN, ±Inf):
// where they are, and the stage that made the first.
type NotANumber struct {
	Paths []string
	Stage string
}

func (e *NotANumber) Error() string {
	more := ""
	if len(e.Paths) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(e.Paths)-1)
	}
	return fmt.Sprintf("the %s stage made %s not a number%s", e.Stage, e.Paths[0], more)
}

// Unencodable is the minimal report of a run whose report r could not be
// encoded (err: NotANumber, or the encoder's own error): result error,
// exit code 2, and one error violation saying it is wiregate's bug, not
// the user's input, with what failed. It keeps what names the run (base,
// head, the stages' journal) and the schema checks' findings and
// violations (words, decided from no figure: the checks table must not
// read "ok" where they found some), and no figure.
func Unencodable(r *Report, err error) *Report {
	stage := "report"
	if nan, ok := err.(*NotANumber); ok {
		stage = nan.Stage
	}
	detail := fmt.Sprintf("report.json could not be encoded, a wiregate bug and not your input (%v); please report it with this line", err)
	m := New()
	m.Result, m.ExitCode, m.ExitReason = ResultError, exitcode.Unusable, "wiregate bug: report.json could not be encoded in the "+stage+" stage"
	m.Base, m.Head, m.Env = r.Base, r.Head, Env{GoVersion: r.Env.GoVersion, OS: r.Env.OS, Cores: r.Env.Cores, Runner: r.Env.Runner}
	for _, s := range r.Stages {
		if len(NonFinite(s)) == 0 {
			m.Stages = append(m.Stages, s)
		}
	}
	if len(NonFinite(r.Findings)) == 0 {
		m.Findings = append(m.Findings, r.Findings...)
	}
	m.Errors = []string{detail}
	m.Violations = []Violation{{Kind: KindError, Subject: SubjectReport, Detail: detail}}
	for _, v := range r.Violations {
		if slices.Contains(schemaKinds, v.Kind) && len(NonFinite(v)) == 0 {
			m.Violations = append(m.Violations, v)
		}
	}
	return m
}

// schemaKinds are the violations the schema checks decide, from findings
// alone.
var schemaKinds = []string{KindLint, KindBreaking, KindAvro, KindAvroMismatch}

// stageFields says which stage made a figure, by the first field of its
// path that names one (the most specific first): what Unencodable names.
var stageFields = []struct{ field, stage string }{
	{"functions", "cpu"}, {"noise_floor_from", "cpu"},
	{"compressed", "sizes"}, {"size", "sizes"}, {"records", "records"},
	{"sizes_seconds", "sizes"}, {"count_seconds", "cpu"}, {"round_seconds", "bench"}, {"noise", "bench"},
	{"pipeline_pass_seconds", "pipeline"}, {"pipeline", "pipeline"},
	{"history", "history"}, {"plan", "budget"}, {"approvals", "verdict"}, {"violations", "verdict"},
	{"stages", "journal"}, {"env", "inputs"}, {"seconds", "verdict"},
}

var pathIndex = regexp.MustCompile(`\[[^\]]*\]`)

// StageOf is the stage that made the figure at path (a NonFinite path) in
// r: a metric's by its unit (instr/op: cpu; the bench's others), else by
// the fields the path goes through.
func StageOf(r *Report, path string) string {
	fields := strings.Split(pathIndex.ReplaceAllString(path, ""), ".")
	if len(fields) >= 4 && fields[0] == "messages" && fields[2] == "metrics" && fields[3] != "functions" {
		if m := metricAt(r, path); m != nil {
			if m.Unit == "instr/op" {
				return "cpu"
			}
			return "bench"
		}
	}
	for _, sf := range stageFields {
		for _, f := range fields {
			if f == sf.field {
				return sf.stage
			}
		}
	}
	return "report"
}

var metricPath = regexp.MustCompile(`^messages\[(\d+)\]\.formats\[(\d+)\]\.metrics\[(\d+)\]`)

// metricAt is the metric a path under messages[i].formats[j].metrics[k]
// is in, or nil.
func metricAt(r *Report, path string) *Metric {
	m := metricPath.FindStringSubmatch(path)
	if m == nil {
		return nil
	}
	i, _ := strconv.Atoi(m[1])
	j, _ := strconv.Atoi(m[2])
	k, _ := strconv.Atoi(m[3])
	if i >= len(r.Messages) || j >= len(r.Messages[i].Formats) || k >= len(r.Messages[i].Formats[j].Metrics) {
		return nil
	}
	return &r.Messages[i].Formats[j].Metrics[k]
}
