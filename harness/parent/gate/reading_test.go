package gate

import (
	"math"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/program/benchprog"
)

func pct(x float64) *float64 { return &x }

// The words for raw and compressed size: said only when the two move
// apart, and saying which way.
func TestReadingSaysWhyRawAndCompressedDisagree(t *testing.T) {
	for _, c := range []struct {
		raw, comp float64
		want      string
	}{
		{31, 2, "+31.0% raw, +2.0% after zstd: the growth is mostly repeated bytes"},
		{2, 10, "+2.0% raw, +10.0% after zstd: the new bytes are hard to compress"},
		{-20, -1, "-20.0% raw, -1.0% after zstd: what was removed was mostly repeated bytes"},
		{-1, -9, "-1.0% raw, -9.0% after zstd: what was removed was hard to compress"},
		{5, 4, ""},
		{0, 0, ""},
	} {
		if got := reading(pct(c.raw), pct(c.comp), "zstd"); (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("raw %+.0f%%, zstd %+.0f%%: %q, want %q…", c.raw, c.comp, got, c.want)
		}
	}
	if reading(nil, pct(10), "zstd") != "" || reading(pct(10), nil, "zstd") != "" {
		t.Error("words without both figures")
	}
}

// Each codec's head figure is paired with the base's figure of the same
// codec; a new message (no base) has head's alone.
func TestCompressedSizesPairByCodec(t *testing.T) {
	base := &benchprog.Size{Compressed: []benchprog.Compressed{{Codec: "lz4", BytesPerRecord: 90}, {Codec: "zstd", BytesPerRecord: 60}}}
	head := &benchprog.Size{Compressed: []benchprog.Compressed{{Codec: "zstd", BytesPerRecord: 66, BatchBytes: 16384}, {Codec: "lz4", BytesPerRecord: 90}}}
	cs := compressedSizes(base, head, pct(2))
	if len(cs) != 2 || cs[0].Codec != "zstd" || *cs[0].Base != 60 || cs[0].Head != 66 || math.Abs(*cs[0].DeltaPct-10) > 1e-9 || cs[0].BatchBytes != 16384 ||
		!strings.Contains(cs[0].Reading, "hard to compress") || *cs[1].Base != 90 || *cs[1].DeltaPct != 0 || cs[1].Reading != "" {
		t.Fatalf("%+v", cs)
	}
	if cs := compressedSizes(nil, head, nil); cs[0].Base != nil || cs[0].DeltaPct != nil {
		t.Fatalf("new message: %+v", cs)
	}
}
