package render

import (
	"sort"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// violationsTable lists what fails, allowed ones marked as such: one row
// per schema element (its findings, however many of buf's rules they
// trip, with one id), then one per other violation. Each measured one
// (size, cpu, time, throughput) is also in its message's verdict line, so
// when the budget is short the table keeps the others only: schema checks
// and errors, which have no other place.
func violationsTable(r *report.Report) Part {
	unmeasured := violationsWhere(r.Violations, func(v report.Violation) bool { return !report.Measured(v.Kind) })
	all := violationRows(r, r.Violations)
	if len(unmeasured) == len(r.Violations) {
		return Part{Md: all}
	}
	return Part{Md: all, Cut: cutViolationRows, Compact: &Part{Md: violationRows(r, unmeasured)}}
}

func violationRows(r *report.Report, vs []report.Violation) md.Md {
	if len(vs) == 0 {
		return md.Empty
	}
	byID := map[string]report.Violation{}
	for _, v := range r.Violations {
		byID[v.ID] = v
	}
	grouped := map[string]bool{}
	var rows [][]md.Md
	for _, e := range r.Elements {
		var on []report.Violation
		for _, id := range e.Violations {
			if v, ok := byID[id]; ok {
				on = append(on, v)
			}
		}
		if len(on) == 0 {
			continue
		}
		for _, id := range e.Violations {
			grouped[id] = true
		}
		rows = append(rows, elementRow(r, e, on))
	}
	for _, v := range vs {
		if v.ID == "" || !grouped[v.ID] {
			rows = append(rows, violationRow(r, v))
		}
	}
	return md.Table([]md.Md{md.Empty, md.F("kind"), md.F("subject"), md.F("detail")}, rows)
}

func violationRow(r *report.Report, v report.Violation) []md.Md {
	var numbers []md.Md
	if v.Unit != "" && v.Base != nil && v.Head != nil {
		numbers = append(numbers, md.F("{} → {}", measure(*v.Base, v.Unit), measure(*v.Head, v.Unit)))
	}
	if v.DeltaPct != nil {
		numbers = append(numbers, pct(v.DeltaPct, true))
	}
	if v.ThresholdPct != nil {
		numbers = append(numbers, md.F("limit {}", pct(v.ThresholdPct, false)))
	}
	numbers = append(numbers, pValue(v.P))
	if v.BaseN != 0 && v.HeadN != 0 {
		numbers = append(numbers, md.F("n={}+{}", v.BaseN, v.HeadN))
	}
	figures := md.Join(numbers, md.F(", "))
	detail := md.F("{}", v.Detail)
	if !figures.Empty() {
		detail = md.F("{} ({})", v.Detail, figures)
	}
	subject := md.Code(v.Subject)
	if v.ID != "" {
		subject = md.F("{}<br>{}", md.Code(v.Subject), md.Code(v.ID))
	}
	return []md.Md{mark([]report.Violation{v}), kindCell(v, r), subject, md.Join([]md.Md{detail, approvalLine(v)}, md.F("<br>"))}
}

// elementRow is one schema element: where it is, what changed in words,
// the rules in small print, and the one id and line that approve it.
func elementRow(r *report.Report, e report.Element, vs []report.Violation) []md.Md {
	changes := append([]report.ElementChange(nil), e.Changes...)
	sort.SliceStable(changes, func(i, j int) bool { return rank(changes[i]) < rank(changes[j]) })
	said := make([]md.Md, len(changes))
	for i, c := range changes {
		said[i] = changeWords(c)
	}
	// The rules, each with its finding's own id: what an approval note or
	// an earlier approval names.
	rules := md.Empty
	if len(e.Rules) > 0 || len(vs) > 1 {
		names := make([]md.Md, len(e.Rules))
		for i, rule := range e.Rules {
			names[i] = md.Text(rule)
		}
		ids := md.Empty
		if len(vs) > 1 {
			codes := make([]md.Md, len(vs))
			for i, v := range vs {
				codes[i] = md.Code(v.ID)
			}
			ids = md.F(" ({})", md.Join(codes, md.F(" ")))
		}
		rules = md.F("<sub>{}{}</sub>", md.Join(names, md.F(" · ")), ids)
	}
	lines := []md.Md{md.Join(said, md.F(", ")), rules}
	// One line per approving comment, for the last of its violations.
	var urls []string
	byURL := map[string]report.Violation{}
	isBlocking := false
	for _, v := range vs {
		isBlocking = isBlocking || v.Blocking()
		if v.Approved == nil {
			continue
		}
		if _, ok := byURL[v.Approved.URL]; !ok {
			urls = append(urls, v.Approved.URL)
		}
		byURL[v.Approved.URL] = v
	}
	for _, u := range urls {
		lines = append(lines, approvalLine(byURL[u]))
	}
	if isBlocking && e.ApproveWith != "" {
		lines = append(lines, md.F("<sub>to approve it: {}</sub>", md.Code(e.ApproveWith)))
	}
	return []md.Md{mark(vs), kindCell(vs[0], r), md.F("{}<br>{}<br>{}", md.Code(e.File), where(e), md.Code(e.ID)), md.Join(lines, md.F("<br>"))}
}

// where names the element: "field 7 `profile_id` of message `Sample`".
func where(e report.Element) md.Md {
	container := md.Empty
	if e.Container != "" {
		container = md.F("{} {}", md.Text(e.ContainerKind), md.Code(e.Container))
	}
	if e.Member == "" {
		if container.Empty() {
			return md.F("the file")
		}
		return container
	}
	name := md.Empty
	if e.Name != "" {
		name = md.F(" {}", md.Code(e.Name))
	}
	return md.F("{} {}{} of {}", md.Text(e.Member), md.Text(e.Number), name, container)
}

// ranks are the order a change is said in: what a reader knows the field by first.
var ranks = []string{"name", "json_name", "type", "cardinality"}

func rank(c report.ElementChange) int {
	for i, w := range ranks {
		if c.What == w {
			return i
		}
	}
	return len(ranks)
}

// changeWords says one change: "renamed `a` → `b`", "JSON name `a` →
// `b`", "type int32 → bytes", "deleted"; buf's own words otherwise.
func changeWords(c report.ElementChange) md.Md {
	switch c.What {
	case "name":
		return md.F("renamed {} → {}", md.Code(c.From), md.Code(c.To))
	case "json_name":
		return md.F("JSON name {} → {}", md.Code(c.From), md.Code(c.To))
	case "deleted":
		return md.F("deleted")
	case "other":
		return md.Text(c.Text)
	}
	if c.From != "" || c.To != "" {
		return md.F("{} {} → {}", md.Text(c.What), md.Text(c.From), md.Text(c.To))
	}
	if c.Text != "" {
		return md.F("{}: {}", md.Text(c.What), c.Text)
	}
	return md.Text(c.What)
}

// rowState is what a row's violations come to together.
type rowState int

const (
	rowBlocks   rowState = iota // any of them blocks
	rowApproved                 // every one is approved
	rowAllowed                  // none blocks, and a label allows one or more
)

// markState is the state of a row of violations: blocking while any
// blocks, approved only when every one is, otherwise allowed (a label
// allows at least one).
func markState(vs []report.Violation) rowState {
	all := true
	for _, v := range vs {
		if v.Blocking() {
			return rowBlocks
		}
		all = all && v.Approved != nil
	}
	if all {
		return rowApproved
	}
	return rowAllowed
}

// mark is a row's state: ❌ while any of its violations blocks.
func mark(vs []report.Violation) md.Md {
	switch markState(vs) {
	case rowBlocks:
		return md.F("❌")
	case rowApproved:
		return md.F("✅ approved")
	}
	return md.F("⚠️ allowed")
}

// approvalLine says who approved a violation, when, up to what and why,
// linking their comment; or, for one that fails, the line that approves it.
func approvalLine(v report.Violation) md.Md {
	if a := v.Approved; a != nil {
		upTo, reason := md.Empty, md.Empty
		if a.UpToPct != nil {
			upTo = md.F(" up to {}", pct(a.UpToPct, true))
		}
		if a.Reason != "" {
			reason = md.F(": {}", a.Reason)
		}
		return md.F("<sub>approved by {} on {}{}{}</sub>", md.CommentLink(md.F("@{}", a.By), a.URL), md.UTF16Prefix(a.At, 10), upTo, reason)
	}
	if v.Blocking() && v.ApproveWith != "" {
		return md.F("<sub>to approve it: {}</sub>", md.Code(v.ApproveWith))
	}
	return md.Empty
}

// kindCell says what a schema violation breaks when a release was checked too.
func kindCell(v report.Violation, r *report.Report) md.Md {
	switch {
	case v.Against != "":
		return md.F("{}: breaks release {}", v.Kind, md.Code(v.Against))
	case r.BreakingAgainst != nil && (v.Kind == report.KindBreaking || v.Kind == report.KindAvro):
		return md.F("{}: breaks the base", v.Kind)
	}
	return md.F("{}", v.Kind)
}
