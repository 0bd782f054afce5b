package render

// The collapsed detail at the end of the report, and the one way a list
// of names is shown: a count, with the names folded.

import (
	"strings"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// folded is a line that counts names, with the names in a collapsed list
// (one a line, literal, copyable); once the budget cuts names, the count
// alone. line is the count's sentence: "60 messages unchanged …".
func folded(line md.Md, names []string) Part {
	if len(names) == 0 {
		return Part{}
	}
	return Part{Md: md.Details(line, md.CodeBlock("text", strings.Join(names, "\n"))), Cut: cutNames, Compact: &Part{Md: line}}
}

func benchstatDetails(r *report.Report) Part {
	if r.Benchstat == "" {
		return Part{}
	}
	return Part{Md: md.Details(md.F("benchstat (base vs head)"), md.CodeBlock("text", r.Benchstat)), Cut: cutBenchstat}
}

// noiseDetails lists the smallest change each metric could tell from
// noise in this run, and for a timing the smallest it could show at the
// run's strictest Holm cutoff (its minimum detectable effect).
func noiseDetails(r *report.Report) Part {
	var rows [][]md.Md
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			for _, metric := range f.Metrics {
				if metric.NoiseFloor == nil {
					continue
				}
				mde := mdeCell(metric.MDE, metric.MDEReason)
				// Timed no further with no slowdown: its MDE is the planned rounds' (report.Metric.StoppedNoSlowdown).
				if metric.StoppedNoSlowdown != 0 {
					mde = md.F("{} (timed {} rounds: no slowdown)", mde, metric.StoppedNoSlowdown)
				}
				rows = append(rows, []md.Md{md.Code(m.Name + "/" + f.Format + "/" + metric.Name), md.Text(metric.Unit), md.F("±{}", pct(metric.NoiseFloor, false)), mde})
			}
		}
	}
	for _, p := range r.Pipeline {
		if p.NoiseFloor == nil && p.MDE == nil && p.MDEReason == "" {
			continue
		}
		floor := md.F("—")
		if p.NoiseFloor != nil {
			floor = md.F("±{}", pct(p.NoiseFloor, false))
		}
		mde := mdeCell(p.MDE, p.MDEReason)
		// A row stopped early with no fall: its MDE is the planned rounds' (report.Pipeline.StoppedNoFall).
		if p.StoppedNoFall != 0 {
			mde = md.F("{} (stopped after {} rounds: no fall)", mde, p.StoppedNoFall)
		}
		rows = append(rows, []md.Md{md.Code(p.Message + "/" + p.Format + "/pipeline"), md.F("records/s"), floor, mde})
	}
	if len(rows) == 0 {
		return Part{}
	}
	header := []md.Md{md.F("metric"), md.F("unit"), md.F("noise floor"), md.F("smallest detectable at the Holm cutoff")}
	return Part{Md: md.Details(md.F("noise floor"), md.Table(header, rows)), Cut: cutNoise}
}

// mdeCell is a timed figure's minimum detectable effect, or why it has none.
func mdeCell(mde *float64, reason string) md.Md {
	switch {
	case mde != nil:
		return md.F("{}", pct(mde, false))
	case reason != "":
		return md.F("none: {}", md.Text(reason))
	}
	return md.F("—")
}

func environmentDetails(r *report.Report) Part {
	e := r.Env
	// An item's value is a string or a number shown as it is (escaped), or
	// markdown; nil and "" are left out.
	type item struct {
		key   md.Md
		value any
	}
	var broker, cpu, rounds, backlog, counter any
	if e.Broker != "" {
		reason := md.Empty
		if e.BrokerReason != "" {
			reason = md.F(" ({})", e.BrokerReason)
		}
		broker = md.F("{}{}", e.Broker, reason)
	}
	if e.CPU != "" {
		cpu = e.CPU
		if e.Cores != 0 {
			cpu = md.F("{} × {} cores", e.CPU, e.Cores)
		}
	}
	if e.Rounds != 0 {
		rounds = e.Rounds
	}
	if e.UnchangedRounds != 0 {
		asked := md.Empty
		if e.Rounds != 0 {
			asked = md.F("{} ", e.Rounds)
		}
		rounds = md.F("{}(unchanged schemas: {})", asked, e.UnchangedRounds)
	}
	if e.PipelineN != 0 {
		records := md.F("≤ {} records", integer(float64(e.PipelineN)))
		backlog = records
		if e.PipelineBytes != 0 {
			backlog = md.F("{} and ≤ {} each", records, mebibytes(float64(e.PipelineBytes)))
		}
	}
	if c := r.CPUCost; c != nil && c.Tool != "" {
		counter = md.Text(c.Tool)
		if c.Installed != "" {
			counter = md.F("{}, {}", c.Tool, c.Installed)
		}
	}
	rss := func(b int64) any {
		if b == 0 {
			return nil
		}
		return mebibytes(float64(b))
	}
	var alpha any
	if e.Alpha != 0 {
		alpha = e.Alpha
	}
	items := []item{
		{md.F("runner"), e.Runner},
		{md.F("Go"), e.GoVersion},
		{md.F("OS"), e.OS},
		{md.F("CPU"), cpu},
		{md.F("rounds per side"), rounds},
		{md.F("alpha"), alpha},
		{md.F("broker"), broker},
		{md.F("pipeline backlog"), backlog},
		{md.F("consumer cap"), e.ConsumerCap},
		{md.F("peak RSS (the gate and any one child)"), rss(e.PeakRSSBytes)},
		{md.F("broker peak RSS"), rss(e.BrokerPeakRSSBytes)},
		{md.F("consumer peak RSS"), rss(e.ConsumerPeakRSSBytes)},
		{md.F("instruction counter"), counter},
	}
	var rows [][]md.Md
	for _, it := range items {
		if it.value == nil || it.value == "" {
			continue
		}
		rows = append(rows, []md.Md{it.key, md.F("{}", it.value)})
	}
	if len(rows) == 0 {
		return Part{}
	}
	return Part{Md: md.Details(md.F("environment"), md.Table([]md.Md{md.Empty, md.Empty}, rows)), Cut: cutEnvironment}
}

func stagesDetails(r *report.Report) Part {
	if len(r.Stages) == 0 {
		return Part{}
	}
	var rows [][]md.Md
	sum := 0.0
	for _, s := range r.Stages {
		name := md.Text(s.Name)
		if s.Shard != "" {
			name = md.F("{} (shard {})", md.Text(s.Name), s.Shard)
		}
		note := md.Text(s.Note)
		if s.Error != "" {
			note = md.F("❌ {}", s.Error)
		}
		rows = append(rows, []md.Md{name, wallSeconds(s.Seconds), note})
		sum += s.Seconds
	}
	// The run's own wall time when it says it: stages that ran at once (the
	// counts beside the bench rounds) add up to more.
	total := r.Seconds
	if total == 0 {
		total = sum
	}
	rows = append(rows, []md.Md{md.F("**total**"), wallSeconds(total), md.Empty})
	return Part{Md: md.Details(md.F("stage timings"), md.Table([]md.Md{md.F("stage"), md.F("time"), md.Empty}, rows)), Cut: cutStages}
}

func ignoredDetails(r *report.Report) Part {
	if len(r.Ignored) == 0 {
		return Part{}
	}
	rows := make([][]md.Md, len(r.Ignored))
	for i, x := range r.Ignored {
		rows[i] = []md.Md{md.Code(x.Subject), md.Text(x.Reason)}
	}
	return Part{Md: md.Details(md.F("ignored by wiregate.yaml ({})", len(r.Ignored)), md.Table([]md.Md{md.F("subject"), md.F("reason")}, rows)), Cut: cutIgnored}
}

// errorsDetails lists the stages that could not run: never cut.
func errorsDetails(r *report.Report) Part {
	if len(r.Errors) == 0 {
		return Part{}
	}
	lines := make([]md.Md, len(r.Errors))
	for i, e := range r.Errors {
		lines[i] = md.F("- {}", e)
	}
	return Part{Md: md.Details(md.F("errors"), md.Join(lines, md.F("\n")))}
}
