package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/internal/fixture/wgplain"
	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
)

// sometimes allocates 64 bytes for every record whose value is divisible
// by every, and nothing for the others.
// With stray set, its call number stray also allocates once more, as
// another goroutine might during a counting window.
type sometimes struct {
	every int
	stray int
	calls *int
}

var sink, straySink []byte

func (s sometimes) encode(v any) ([]byte, error) {
	if v.(int)%s.every == 0 {
		sink = make([]byte, 64)
	}
	if *s.calls++; *s.calls == s.stray {
		straySink = make([]byte, 8)
	}
	return nil, nil
}

func (s sometimes) decode(b []byte, v any) error { return nil }

func (s sometimes) codec() codec.Codec { return codec.Plain(s.encode, s.decode) }

func sometimesCase(every int) *cases.Case {
	return sometimesCaseOf(sometimes{every: every, calls: new(int)})
}

func sometimesCaseOf(s sometimes) *cases.Case {
	subs := wgplain.Subjects()
	c := &cases.Case{Subject: &subs[0], Format: codec.Format{Name: "sometimes"}, Codec: s.codec(),
		Values: make([]any, 256), Encoded: make([][]byte, 256)}
	for i := range c.Values {
		c.Values[i] = i
	}
	return c
}

// A pool where a third of the records allocate reads as the fraction it is:
// 86 of 256 records (0, 3, …, 255) allocate one 64-byte object.
func TestCountAllocsIsTheExactFraction(t *testing.T) {
	c := sometimesCase(3)
	a, err := CountAllocs(c, "encode", AllocRotations)
	if err != nil {
		t.Fatal(err)
	}
	if a.PerOp != 86.0/256 || a.BytesPerOp != 86.0*64/256 {
		t.Fatalf("allocs/op %v B/op %v, want %v and %v", a.PerOp, a.BytesPerOp, 86.0/256, 86.0*64/256)
	}
	none, err := CountAllocs(sometimesCase(1000), "encode", AllocRotations)
	if err != nil || none.PerOp != 1.0/256 {
		t.Fatalf("one allocating record in 256: %v allocs/op (%v)", none.PerOp, err)
	}
}

// An allocation that is not the codec's, inside the first window (two
// warm-up rotations, then the windows of 4 rotations each), does not
// change the figure.
func TestCountAllocsIgnoresAStrayAllocation(t *testing.T) {
	s := sometimes{every: 3, stray: 2*256 + 100, calls: new(int)}
	c := sometimesCaseOf(s)
	a, err := CountAllocs(c, "encode", AllocRotations)
	if err != nil {
		t.Fatal(err)
	}
	if a.PerOp != 86.0/256 || a.BytesPerOp != 86.0*64/256 {
		t.Fatalf("allocs/op %v B/op %v, want %v and %v", a.PerOp, a.BytesPerOp, 86.0/256, 86.0*64/256)
	}
	if *s.calls != (2+allocWindows*AllocRotations)*256 { // two warm-up rotations, then the windows
		t.Fatalf("%d encodes: the stray was not in a window of its own", *s.calls)
	}
}

// The benchfmt lines carry the exact fractions, and benchstat's library
// (harness/parent/compare) compares them: 0.3359375 → 0.5 allocs/op is +48.8%,
// where integer means would read 0 → 0.
func TestBenchLinesCarryExactAllocsThatCompareReads(t *testing.T) {
	var base, head bytes.Buffer
	for _, w := range []struct {
		buf   *bytes.Buffer
		every int
	}{{&base, 3}, {&head, 2}} {
		Header(w.buf)
		if err := Run(w.buf, cases.Fixed([]*cases.Case{sometimesCase(w.every)}), Options{Count: 2, Benchtime: 5 * time.Millisecond, Ops: []string{"encode"}}); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(base.String(), "\t0.3359375 allocs/op") || !strings.Contains(base.String(), "\t21.5 B/op") {
		t.Fatalf("base lines:\n%s", base.String())
	}
	res, err := compare.Files(&base, &head, "base.txt", "head.txt", 0.05)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Comparisons {
		if c.Unit != "allocs/op" {
			continue
		}
		if c.Base.Center != 86.0/256 || c.Head.Center != 128.0/256 || c.DeltaPct == nil || *c.DeltaPct < 48 || *c.DeltaPct > 49 {
			t.Fatalf("allocs/op comparison %+v", c)
		}
		return
	}
	t.Fatalf("no allocs/op comparison in\n%s", res.Text)
}

// With SkipAllocs no line carries allocations, and the allocation pass
// does not run (the case's loop would allocate: its count would show).
func TestSkipAllocsWritesTimesOnly(t *testing.T) {
	var out bytes.Buffer
	if err := Run(&out, cases.Fixed([]*cases.Case{sometimesCase(2)}), Options{Count: 2, Benchtime: 5 * time.Millisecond, Ops: []string{"encode"}, SkipAllocs: true}); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(out.String(), " ns/op"); lines != 2 || strings.Contains(out.String(), "allocs/op") || strings.Contains(out.String(), " B/op") {
		t.Fatalf("%d timed lines, want 2 without allocations:\n%s", lines, out.String())
	}
}
