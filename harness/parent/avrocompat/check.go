package avrocompat

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/twmb/avro"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/avroschema"
)

// Check checks head (the new version of file, read alone) against the
// earlier versions (oldest first; the last is the base) at level.
func Check(file string, head []byte, earlier [][]byte, level Level) ([]report.Finding, error) {
	headSchema, err := avroschema.Parse(file, head)
	if err != nil {
		return nil, err
	}
	olds := make([]*avro.Schema, len(earlier))
	for i, e := range earlier {
		label := fmt.Sprintf("%s (earlier version %d of %d)", file, i+1, len(earlier))
		if olds[i], err = avroschema.Parse(label, e); err != nil {
			return nil, err
		}
	}
	return CheckSchemas(file, head, headSchema, olds, level), nil
}

// CheckSchemas checks headSchema (the new version of file, whose text src
// findings point into) against the earlier versions (oldest first; the
// last is the base) at level. Non-transitive levels look at the last
// earlier version only; no earlier version (a new file) passes. Each
// schema is self-contained: a named type another file of its set defines
// is part of it.
func CheckSchemas(file string, src []byte, headSchema *avro.Schema, earlier []*avro.Schema, level Level) []report.Finding {
	if level == None || len(earlier) == 0 {
		return nil
	}
	first := len(earlier) - 1
	if level.Transitive() {
		first = 0
	}
	type problem struct {
		msg      string
		versions []string
	}
	var problems []*problem
	byMsg := map[string]*problem{}
	for i := len(earlier) - 1; i >= first; i-- { // newest first: the base leads
		old := earlier[i]
		var msgs []string
		if level.Backward() {
			msgs = append(msgs, directed(headSchema, old, newReadsOld)...)
		}
		if level.Forward() {
			msgs = append(msgs, directed(old, headSchema, oldReadsNew)...)
		}
		for _, m := range msgs {
			p := byMsg[m]
			if p == nil {
				p = &problem{msg: m}
				byMsg[m] = p
				problems = append(problems, p)
			}
			p.versions = append(p.versions, fmt.Sprint(i+1))
		}
	}
	var out []report.Finding
	for _, p := range problems {
		msg := p.msg
		if level.Transitive() {
			slices.Reverse(p.versions) // collected newest first
			noun := "version"
			if len(p.versions) > 1 {
				noun = "versions"
			}
			msg += fmt.Sprintf(" (against earlier %s %s of %d)", noun, strings.Join(p.versions, ", "), len(earlier))
		}
		out = append(out, report.Finding{Kind: report.KindAvro, File: file, Line: lineOf(src, msg), Rule: string(level), Message: msg})
	}
	return out
}

// directed checks that reader can read writer's data and words every reason
// it cannot.
func directed(reader, writer *avro.Schema, s side) []string {
	reader, err := specReader(reader)
	if err != nil {
		return []string{s.prefix() + ": " + err.Error()}
	}
	err = compatible(reader, writer)
	if err == nil {
		return nil
	}
	reasons := explain(reader, writer, s)
	if len(reasons) == 0 {
		// The walker found nothing twmb/avro did: its own words then.
		reasons = []string{err.Error()}
	}
	out := make([]string, len(reasons))
	for i, r := range reasons {
		out[i] = s.prefix() + ": " + r
	}
	return out
}

var fieldInMessage = regexp.MustCompile("field `([^`]+)`")

// lineOf finds the line of the field a message names in the new file, so
// the annotation lands on it; 0 when the field is not there (removed).
func lineOf(src []byte, msg string) int {
	m := fieldInMessage.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	path := strings.NewReplacer("[]", "", "{}", "").Replace(m[1])
	name := path[strings.LastIndex(path, ".")+1:]
	re := regexp.MustCompile(`"name"\s*:\s*"` + regexp.QuoteMeta(name) + `"`)
	loc := re.FindIndex(src)
	if loc == nil {
		return 0
	}
	return 1 + strings.Count(string(src[:loc[0]]), "\n")
}
