package report

import (
	"fmt"
	"strings"
)

// AddedFields are the fields whose values are a message's added content:
// its new fields head does not require, and its new oneof members. Each
// has its FieldNote; the split itself is decided where records are paired.
func (rs *Records) AddedFields() []FieldNote {
	if rs == nil {
		return nil
	}
	var out []FieldNote
	for _, n := range rs.NewFields {
		if !n.Required {
			out = append(out, n)
		}
	}
	return append(out, rs.NewOneofMembers...)
}

// AddedWords says what a message's added content is, one element each:
// "`tags` (new repeated string, 3.2 entries a record as generated)". The
// verdict's details and the comment say it the same way.
func (rs *Records) AddedWords() []string {
	how := "as generated"
	if rs != nil && rs.FromSamples {
		how = "in the samples"
	}
	var out []string
	for _, n := range rs.AddedFields() {
		what := "new " + n.To
		if isMember(rs, n) {
			what = "new oneof member, " + n.To
		}
		if n.Entries != nil {
			what += fmt.Sprintf(", %.1f entries a record %s", *n.Entries, how)
		}
		out = append(out, fmt.Sprintf("`%s` (%s)", n.Field, strings.TrimSpace(what)))
	}
	return out
}

func isMember(rs *Records, n FieldNote) bool {
	for _, m := range rs.NewOneofMembers {
		if m.Number == n.Number {
			return true
		}
	}
	return false
}
