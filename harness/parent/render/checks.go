package render

import (
	"strconv"
	"strings"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// checks are the schema checks' rows: their kind, title and stage.
var checks = []struct {
	kind  string
	title md.Md
	stage string
}{
	{report.KindLint, md.F("buf lint"), "buf lint"},
	{report.KindBreaking, md.F("buf breaking"), "buf breaking"},
	{report.KindAvro, md.F("Avro compatibility"), "avro-compatibility"},
	{report.KindAvroMismatch, md.F(".avsc against its proto message"), "schemas"},
}

// releaseStages are the gate's stage names for the checks against a release.
var releaseStages = map[string]string{
	report.KindBreaking: "buf breaking (release)",
	report.KindAvro:     "avro-compatibility (release)",
}

const shownPerCheck = 5

// checksTable is one row per schema check: its status and its first
// findings the pull request brings (a lint finding the base already has is
// debt, listed apart: existingDebt). With a release (breaking-against), buf
// breaking and Avro compatibility have a row each for "breaks the base"
// and "breaks release X".
func checksTable(r *report.Report) md.Md {
	var rows [][]md.Md
	release := r.BreakingAgainst
	for _, c := range checks {
		if release == nil || c.kind == report.KindLint || c.kind == report.KindAvroMismatch {
			rows = append(rows, checkRow(r, c.kind, c.title, c.stage, ""))
			continue
		}
		rows = append(rows, checkRow(r, c.kind, md.F("{} vs the base", c.title), c.stage, ""))
		releaseTitle := md.F("{} vs release {}", c.title, md.Code(release.Ref))
		if release.SameAsBase {
			rows = append(rows, []md.Md{releaseTitle, md.F("= the base (same commit)"), md.Empty})
		} else {
			rows = append(rows, checkRow(r, c.kind, releaseTitle, releaseStages[c.kind], release.Ref))
		}
	}
	return md.Table([]md.Md{md.F("check"), md.F("result"), md.F("findings")}, rows)
}

func checkRow(r *report.Report, kind string, title md.Md, stage, against string) []md.Md {
	var findings []report.Finding
	for _, f := range r.Findings {
		if f.Kind == kind && f.Against == against && !f.Existing {
			findings = append(findings, f)
		}
	}
	violations := violationsWhere(r.Violations, func(v report.Violation) bool { return v.Kind == kind && v.Against == against })
	var ran *report.Stage
	for i := range r.Stages {
		if r.Stages[i].Name == stage {
			ran = &r.Stages[i]
			break
		}
	}
	n := max(len(findings), len(violations))
	var status md.Md
	switch {
	case ran == nil:
		status = md.F("— not run")
	case ran.Error != "":
		status = md.F("⛔ could not run")
	case strings.HasPrefix(ran.Note, "skipped: "):
		status = md.F("— {}", ran.Note)
	case n == 0:
		status = md.F("✅ ok")
	case len(violations) == 0:
		status = md.F("ℹ️ {} (not gating)", len(findings))
	default:
		// The row's state is the violations table's (markState).
		switch markState(violations) {
		case rowApproved:
			status = md.F("✅ {} (approved)", n)
		case rowAllowed:
			status = md.F("⚠️ {} (allowed)", n)
		default:
			status = md.F("❌ {}", n)
		}
	}
	var shown []md.Md
	for _, f := range findings[:min(shownPerCheck, len(findings))] {
		shown = append(shown, findingText(f))
	}
	if len(findings) > shownPerCheck {
		shown = append(shown, md.F("… {} more", len(findings)-shownPerCheck))
	}
	return []md.Md{title, status, md.Join(shown, md.F("<br>"))}
}

// existingDebt lists, collapsed, the lint findings the base already has:
// debt the pull request did not add. Whether they fail is the gate's
// verdict (input lint-findings), shown in the checks table.
func existingDebt(r *report.Report) Part {
	var lines []md.Md
	for _, f := range r.Findings {
		if f.Existing {
			lines = append(lines, md.F("- {}", findingText(f)))
		}
	}
	if len(lines) == 0 {
		return Part{}
	}
	line := md.F("{} the base already has (existing debt)", count(len(lines), "lint finding", "lint findings"))
	return Part{Md: md.Details(line, md.Join(lines, md.F("\n"))), Cut: cutNames, Compact: &Part{Md: line}}
}

func findingText(f report.Finding) md.Md {
	var where []string
	if f.File != "" {
		where = append(where, f.File)
	}
	for _, n := range []int{f.Line, f.Column} {
		if n != 0 {
			where = append(where, strconv.Itoa(n))
		}
	}
	rule := md.Empty
	if f.Rule != "" {
		rule = md.F(" {}", f.Rule)
	}
	return md.F("{}{}: {}", md.Code(strings.Join(where, ":")), rule, f.Message)
}
