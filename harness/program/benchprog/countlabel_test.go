package benchprog

import "testing"

// A count label reads back as the name and operations it was made of;
// anything else (callgrind's own dumps) is no label.
func TestLabelRoundTrips(t *testing.T) {
	name, ops, ok := ParseCountLabel(CountLabel("BenchmarkDecode/a.v1.B/json", 1024))
	if !ok || name != "BenchmarkDecode/a.v1.B/json" || ops != 1024 {
		t.Fatalf("got %q %d %v", name, ops, ok)
	}
	for _, bad := range []string{"Program termination", "wiregate x ops=0", "wiregate  ops=3", "wiregate x ops=z"} {
		if _, _, ok := ParseCountLabel(bad); ok {
			t.Errorf("%q parsed as a label", bad)
		}
	}
}
