package benchprog

import "testing"

// A count label reads back as the name, operations and records it was
// made of (an added-content loop is told apart from the same-content loop
// of its name); anything else (callgrind's own dumps) is no label.
func TestLabelRoundTrips(t *testing.T) {
	for _, added := range []bool{false, true} {
		name, ops, gotAdded, ok := ParseCountLabel(CountLabel("BenchmarkDecode/a.v1.B/json", 1024, added))
		if !ok || name != "BenchmarkDecode/a.v1.B/json" || ops != 1024 || gotAdded != added {
			t.Fatalf("added %v: got %q %d %v %v", added, name, ops, gotAdded, ok)
		}
	}
	if CountLabel("BenchmarkDecode/a.v1.B/json", 8, true) == CountLabel("BenchmarkDecode/a.v1.B/json", 8, false) {
		t.Fatal("an added-content loop's dump has the same label as the same-content loop's")
	}
	for _, bad := range []string{"Program termination", "wiregate x ops=0", "wiregate  ops=3", "wiregate x ops=z", "wiregate-added  ops=2"} {
		if _, _, _, ok := ParseCountLabel(bad); ok {
			t.Errorf("%q parsed as a label", bad)
		}
	}
}
