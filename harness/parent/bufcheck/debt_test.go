package bufcheck

import (
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

func TestMarkExistingExcusesOneHeadFindingPerBaseFinding(t *testing.T) {
	f := func(file, rule string, line int) report.Finding {
		return report.Finding{Kind: report.KindLint, File: file, Rule: rule, Line: line, Message: rule + " in " + file}
	}
	base := []report.Finding{f("a.proto", "FIELD_LOWER_SNAKE_CASE", 3), f("b.proto", "ENUM_ZERO_VALUE_SUFFIX", 9)}
	head := []report.Finding{
		f("a.proto", "FIELD_LOWER_SNAKE_CASE", 7),  // moved down 4 lines: still the base's
		f("a.proto", "FIELD_LOWER_SNAKE_CASE", 12), // a second one: new
		f("c.proto", "ENUM_ZERO_VALUE_SUFFIX", 9),  // same rule, other file: new
	}
	got := MarkExisting(head, base)
	want := []bool{true, false, false}
	for i := range got {
		if got[i].Existing != want[i] {
			t.Errorf("finding %d (%s:%d): existing %v, want %v", i, got[i].File, got[i].Line, got[i].Existing, want[i])
		}
	}
	if head[0].Existing {
		t.Error("MarkExisting changed its input")
	}
}
