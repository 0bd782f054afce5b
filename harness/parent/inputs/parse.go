package inputs

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/parent/avrocompat"
	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/batch"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/broker"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/pipeline"
)

// Getter returns an input's raw text and where it came from ("input
// 'count'" from the action, "--count" from the command line), for errors.
// Empty text means the default.
type Getter func(name string) (text, where string)

// value is one input's text and where it came from.
type value struct {
	text, where string
}

// bad is the one-line error for an input: where it came from, what it was,
// and what is wanted.
func (v value) bad(format string, args ...any) error {
	return exitcode.BadInput("%s is %q: %s", v.where, v.text, fmt.Sprintf(format, args...))
}

// Parse validates every gate input: empty text takes the default from Table.
// The first bad input is the error, naming it.
func Parse(get Getter) (Settings, error) {
	var s Settings
	for _, in := range Table {
		if in.parse == nil {
			continue
		}
		text, where := get(in.Name)
		text = strings.TrimSpace(text)
		if text == "" {
			text = in.Default
		}
		if where == "" {
			where = "input '" + in.Name + "'"
		}
		if err := in.parse(&s, value{text: text, where: where}); err != nil {
			return s, err
		}
	}
	return s, nil
}

// FromEnv reads inputs the way the action runner passes them: INPUT_<NAME>,
// upper-cased with the hyphens kept (as @actions/core's getInput does).
func FromEnv(name string) (string, string) {
	return os.Getenv("INPUT_" + strings.ToUpper(strings.ReplaceAll(name, " ", "_"))), "input '" + name + "'"
}

func parseBool(v value) (bool, error) {
	switch strings.ToLower(v.text) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, v.bad("want true or false")
}

// text, boolean and percent make the parser of an input that sets one field.
func text(field func(*Settings) *string) func(*Settings, value) error {
	return func(s *Settings, v value) error {
		*field(s) = v.text
		return nil
	}
}

func boolean(field func(*Settings) *bool) func(*Settings, value) error {
	return func(s *Settings, v value) (err error) {
		*field(s), err = parseBool(v)
		return err
	}
}

func percent(field func(*Settings) *float64) func(*Settings, value) error {
	return func(s *Settings, v value) (err error) {
		*field(s), err = config.ParsePercent(v.where, v.text)
		return err
	}
}

func parseAddedContentThreshold(s *Settings, v value) error {
	pct, err := config.ParseAddedPercent(v.where, v.text)
	if err != nil {
		return err
	}
	s.AddedContentThreshold = nil
	if pct >= 0 {
		s.AddedContentThreshold = &pct
	}
	return nil
}

var messageName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

func parseMessages(s *Settings, v value) error {
	for _, n := range benchprog.SplitList(v.text) {
		if !messageName.MatchString(n) {
			return value{text: n, where: v.where}.bad("want fully qualified message names such as telemetry.v1.TelemetryEvent")
		}
		s.Messages = append(s.Messages, n)
	}
	return nil
}

func parseAvroSchemas(s *Settings, v value) error {
	s.AvroSchemas = benchprog.SplitList(v.text)
	return nil
}

func parseAvroCompatibility(s *Settings, v value) error {
	l, err := avrocompat.ParseLevel(v.text)
	if err != nil {
		names := make([]string, len(avrocompat.Levels))
		for i, l := range avrocompat.Levels {
			names[i] = string(l)
		}
		return v.bad("want one of %s", strings.Join(names, ", "))
	}
	s.AvroCompatibility = l
	return nil
}

func parseFormats(s *Settings, v value) error {
	known := codec.Names()
	s.Formats = nil
	for _, f := range benchprog.SplitList(v.text) {
		f = strings.ToLower(f)
		if !slices.Contains(known, f) {
			return value{text: f, where: v.where}.bad("not a format; valid formats: %s", strings.Join(known, ", "))
		}
		if !slices.Contains(s.Formats, f) {
			s.Formats = append(s.Formats, f)
		}
	}
	if len(s.Formats) == 0 {
		return v.bad("no format given; valid formats: %s", strings.Join(known, ", "))
	}
	return nil
}

// parseCompression reads the codecs: none alone turns the figure off; in a
// list it would be a figure nobody asked to gate (framing only), so it is
// refused there.
func parseCompression(s *Settings, v value) error {
	s.Compression = nil
	codecs := benchprog.SplitList(strings.ToLower(v.text))
	if len(codecs) == 1 && codecs[0] == "none" {
		return nil
	}
	valid := strings.Join(slices.DeleteFunc(slices.Clone(batch.Codecs), func(c string) bool { return c == "none" }), ", ")
	for _, c := range codecs {
		if _, err := batch.Codec(c); err != nil || c == "none" {
			return value{text: c, where: v.where}.bad("not a codec; want %s, a comma list of them, or none alone", valid)
		}
		if !slices.Contains(s.Compression, c) {
			s.Compression = append(s.Compression, c)
		}
	}
	if len(s.Compression) == 0 {
		return v.bad("no codec given; want %s, or none", valid)
	}
	return nil
}

func parseBatchBytes(s *Settings, v value) error {
	n, err := strconv.Atoi(v.text)
	if err == nil {
		err = batch.CheckBatchBytes(n)
	}
	if err != nil {
		return v.bad("want a whole number of bytes from %d to %d (%d is Kafka's batch.size)", batch.MinBatchBytes, batch.MaxBatchBytes, batch.DefaultBatchBytes)
	}
	s.BatchBytes = n
	return nil
}

func parseCPUCost(s *Settings, v value) error {
	m, ok := cpucost.ParseMode(v.text)
	if !ok {
		return v.bad("want auto, on or off")
	}
	s.CPUCost = m
	return nil
}

func parseLintFindings(s *Settings, v value) error {
	switch strings.ToLower(v.text) {
	case "new":
		s.LintAll = false
	case "all":
		s.LintAll = true
	default:
		return v.bad("want new (findings the pull request adds) or all")
	}
	return nil
}

func parseMeasure(s *Settings, v value) error {
	switch m := strings.ToLower(v.text); m {
	case report.MeasureChanged, report.MeasureAll:
		s.Measure = m
	default:
		return v.bad("want %s (what the pull request changes) or %s", report.MeasureChanged, report.MeasureAll)
	}
	return nil
}

func parseAlpha(s *Settings, v value) (err error) {
	s.Alpha, err = config.ParseAlpha(v.where, v.text)
	return err
}

// Statistics need at least 2 samples per side; past 100 rounds a gate takes
// hours for no practical gain in sensitivity.
const minCount, maxCount = 2, 100

func parseCount(s *Settings, v value) error {
	n, err := strconv.Atoi(v.text)
	if err != nil || n < minCount || n > maxCount {
		return v.bad("want a whole number of rounds from %d to %d (statistics need at least %d per side)", minCount, maxCount, minCount)
	}
	s.Rounds = n
	return nil
}

func parseUnchangedRounds(s *Settings, v value) error {
	n, err := strconv.Atoi(v.text)
	if err != nil || n < 1 || n > maxCount {
		return v.bad("want a whole number of rounds from 1 to %d", maxCount)
	}
	s.UnchangedRounds = n
	return nil
}

func parsePipelineMessages(s *Settings, v value) error {
	n, err := strconv.ParseInt(v.text, 10, 64)
	if err != nil || n < 1 || n > pipeline.MaxN {
		return v.bad("want a backlog of 1 to %d records", pipeline.MaxN)
	}
	s.PipelineMessages = n
	return nil
}

func parsePipelineBytes(s *Settings, v value) (err error) {
	s.PipelineBytes, err = pipeline.ParseBytes(v.where, v.text)
	return err
}

func parseBroker(s *Settings, v value) error {
	switch v.text {
	case "auto", "redpanda", "embedded":
		s.Broker = v.text
		return nil
	}
	addrs, err := broker.ParseAddrs(v.text)
	if err != nil {
		return v.bad("want auto, redpanda, embedded, or host:port[,host:port…]")
	}
	s.Broker = strings.Join(addrs, ",")
	return nil
}

func parseBenchtime(s *Settings, v value) error {
	d, err := time.ParseDuration(v.text)
	if err != nil || d <= 0 {
		return v.bad("want a positive duration such as 100ms")
	}
	s.Benchtime = d
	return nil
}

// Map is a Getter over input names, as a test or a caller with flags gives
// them; errors name them as flags.
func Map(m map[string]string) Getter {
	return func(name string) (string, string) { return m[name], "--" + name }
}

// latestTagPrefix starts a breaking-against value naming a tag glob.
const latestTagPrefix = "latest-tag:"

func parseBreakingAgainst(s *Settings, v value) error {
	s.BreakingAgainst = Against{Text: v.text, Where: v.where}
	switch {
	case v.text == "":
	case strings.HasPrefix(v.text, latestTagPrefix):
		glob := strings.TrimSpace(strings.TrimPrefix(v.text, latestTagPrefix))
		if _, err := path.Match(glob, ""); glob == "" || err != nil {
			return v.bad("want %s<glob> with a glob such as v* (the newest matching tag is checked)", latestTagPrefix)
		}
		s.BreakingAgainst.TagGlob = glob
	case strings.HasPrefix(v.text, "-") || strings.ContainsAny(v.text, " \t\n"):
		return v.bad("want a tag, branch or commit, or %sv*", latestTagPrefix)
	default:
		s.BreakingAgainst.Ref = v.text
	}
	return nil
}

// branchName is what history accepts as a branch: git's rules, narrowed to
// the names people use.
var branchName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._/-]*$`)

// DefaultHistoryBranch is the history input's default, and what `true` means.
const DefaultHistoryBranch = "wiregate-data"

func parseHistory(s *Settings, v value) error {
	switch strings.ToLower(v.text) {
	case "false":
		s.History = ""
		return nil
	case "true":
		s.History = DefaultHistoryBranch
		return nil
	}
	if !branchName.MatchString(v.text) || strings.Contains(v.text, "..") || strings.Contains(v.text, "//") ||
		strings.HasSuffix(v.text, "/") || strings.HasSuffix(v.text, ".lock") {
		return v.bad("want a branch name such as wiregate-data, or false")
	}
	s.History = v.text
	return nil
}

// One point of main and the PR's head make the smallest chart; past 200
// the x-axis is unreadable.
const minHistoryPoints, maxHistoryPoints = 1, 200

func parseHistoryPoints(s *Settings, v value) error {
	n, err := strconv.Atoi(v.text)
	if err != nil || n < minHistoryPoints || n > maxHistoryPoints {
		return v.bad("want a whole number of commits from %d to %d", minHistoryPoints, maxHistoryPoints)
	}
	s.HistoryPoints = n
	return nil
}

// A budget under a minute cannot hold even the exact stages of a small
// schema set on a cold runner; over six hours is longer than a GitHub job.
const minBudget, maxBudget = time.Minute, 6 * time.Hour

func parseTimeBudget(s *Settings, v value) error {
	d, err := time.ParseDuration(v.text)
	if err != nil || d < minBudget || d > maxBudget {
		return v.bad("want a duration from %s to %s such as 10m", minBudget, "6h")
	}
	s.TimeBudget = d
	return nil
}

// MaxShards is the most shards a gate may be split into: a matrix makes at
// most 256 jobs.
const MaxShards = 256

// maxWorkers bounds workers: each is a process holding a message's records
// (and, counting, a Valgrind), so a typo of 1000 must not start 1000.
const maxWorkers = 64

func parseWorkers(s *Settings, v value) error {
	if strings.EqualFold(v.text, "auto") {
		s.Workers = runtime.NumCPU()
		return nil
	}
	n, err := strconv.Atoi(v.text)
	if err != nil || n < 1 || n > maxWorkers {
		return v.bad("want auto (the runner's cores) or a whole number from 1 to %d", maxWorkers)
	}
	s.Workers = n
	return nil
}

func parseShard(s *Settings, v value) error {
	if v.text == "" {
		s.Shard = Shard{}
		return nil
	}
	i, n, ok := strings.Cut(v.text, "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || count < 1 || count > MaxShards || index < 1 || index > count {
		return v.bad("want i/n with 1 <= i <= n <= %d, such as 2/8 (mode: plan's matrix gives each job its shard)", MaxShards)
	}
	s.Shard = Shard{Index: index, Count: count}
	return nil
}

func parseMaxShards(s *Settings, v value) error {
	n, err := strconv.Atoi(v.text)
	if err != nil || n < 1 || n > MaxShards {
		return v.bad("want a whole number of shards from 1 to %d", MaxShards)
	}
	s.MaxShards = n
	return nil
}

func parseCoverage(s *Settings, v value) error {
	switch strings.ToLower(v.text) {
	case "stated":
		s.CoverageRequired = false
	case "required":
		s.CoverageRequired = true
	default:
		return v.bad("want stated (the headline says what was judged) or required (a cut figure fails the gate)")
	}
	return nil
}

// maxCPUProcesses bounds cpu-processes: past five, a spread says little
// more, and each costs a whole count.
const maxCPUProcesses = 5

func parseCPUProcesses(s *Settings, v value) error {
	n, err := strconv.Atoi(v.text)
	if err != nil || n < 1 || n > maxCPUProcesses {
		return v.bad("want a whole number of processes from 1 to %d", maxCPUProcesses)
	}
	s.CPUProcesses = n
	return nil
}
