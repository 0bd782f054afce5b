package markdown

import (
	"math"
	"testing"
)

// What JavaScript writes, checked in node: (x).toFixed(d), String(x).
func TestNumbersReadAsJavaScriptWritesThem(t *testing.T) {
	for _, c := range []struct {
		x    float64
		d    int
		want string
	}{
		{0.125, 2, "0.13"}, // an exact half rounds away from zero (Go's strconv: 0.12)
		{2.5, 0, "3"},
		{-2.5, 0, "-3"},
		{1.005, 2, "1.00"}, // 1.005 is 1.00499999999999989… in binary
		{-0.04, 1, "-0.0"},
		{0, 1, "0.0"},
		{14.63, 1, "14.6"},
		{5850.0, 0, "5850"},
		{0.0004, 3, "0.000"},
		{123.456, 0, "123"},
	} {
		if got := ToFixed(c.x, c.d); got != c.want {
			t.Errorf("(%v).toFixed(%d) = %s, want %s", c.x, c.d, got, c.want)
		}
	}
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0.05, "0.05"}, {5, "5"}, {math.Copysign(0, -1), "0"}, {1e21, "1e+21"}, {1.5e-7, "1.5e-7"}, {0.000001, "0.000001"},
		{123456789012, "123456789012"}, {math.Inf(1), "Infinity"}, {math.NaN(), "NaN"}, {104.1, "104.1"},
	} {
		if got := NumberString(c.x); got != c.want {
			t.Errorf("String(%v) = %s, want %s", c.x, got, c.want)
		}
	}
	for x, want := range map[float64]float64{2.5: 3, -2.5: -2, 0.49999999999999994: 0, 3784.04: 3784} {
		if got := Round(x); got != want {
			t.Errorf("Math.round(%v) = %v, want %v", x, got, want)
		}
	}
}

func TestLengthsCountUTF16Units(t *testing.T) {
	if n := UTF16Len("é🙂a"); n != 4 {
		t.Errorf("length %d, want 4", n)
	}
	if p := UTF16Prefix("2026-11-24T10:05:00Z", 10); p != "2026-11-24" {
		t.Error(p)
	}
	if p := UTF16Prefix("a🙂b", 2); p != "a" {
		t.Errorf("a prefix does not split a surrogate pair: %q", p)
	}
	if got := TrimEnd("x \u00a0\ufeff\n"); got != "x" {
		t.Errorf("%q", got)
	}
}
