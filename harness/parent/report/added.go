package report

import (
	"fmt"
	"strings"
)

// AddedFields are the fields whose values are a message's added content:
// its new fields head does not require, and the new oneof members its
// samples hold. Each
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
	// A new oneof member of paired records is held by none (each keeps
	// the member it had): only the samples can hold one.
	if rs.FromSamples {
		out = append(out, rs.NewOneofMembers...)
	}
	return out
}

// AddedElement is one added field and what it is in words: "new
// repeated string, 3.2 entries a record as generated".
type AddedElement struct {
	Field, What string
}

// AddedElements say what a message's added content is, one element each.
// The verdict's details (AddedWords) and the comment say it the same way.
func (rs *Records) AddedElements() []AddedElement {
	how := "as generated"
	if rs != nil && rs.FromSamples {
		how = "in the samples"
	}
	var out []AddedElement
	for _, n := range rs.AddedFields() {
		what := "new " + n.To
		if isMember(rs, n) {
			what = "new oneof member, " + n.To
		}
		if n.Entries != nil {
			what += fmt.Sprintf(", %.1f entries a record %s", *n.Entries, how)
		}
		out = append(out, AddedElement{Field: n.Field, What: strings.TrimSpace(what)})
	}
	return out
}

// AddedWords are AddedElements as plain words: "`tags` (new repeated
// string, 3.2 entries a record as generated)".
func (rs *Records) AddedWords() []string {
	var out []string
	for _, e := range rs.AddedElements() {
		out = append(out, fmt.Sprintf("`%s` (%s)", e.Field, e.What))
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

// Format is a's figures in format name, or nil (a nil a: none).
func (a *AddedContent) Format(name string) *AddedFormat {
	if a == nil {
		return nil
	}
	for i := range a.Formats {
		if a.Formats[i].Format == name {
			return &a.Formats[i]
		}
	}
	return nil
}
