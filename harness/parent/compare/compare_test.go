package compare

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/perf/benchmath"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// alpha is benchstat's default significance level, which these tests
// reproduce (the gate's own default is the inputs package's).
const alpha = 0.05

func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func filesIn(t *testing.T, dir, base, head string) (*Result, error) {
	t.Helper()
	return Files(open(t, filepath.Join(dir, base)), open(t, filepath.Join(dir, head)), base, head, alpha)
}

var (
	benchstatOnce sync.Once
	benchstatBin  string
	benchstatErr  error
)

// realBenchstat builds cmd/benchstat from the x/perf version go.mod pins.
func realBenchstat(t *testing.T) string {
	t.Helper()
	benchstatOnce.Do(func() {
		dir, err := os.MkdirTemp("", "wiregate-benchstat")
		if err != nil {
			benchstatErr = err
			return
		}
		benchstatBin = filepath.Join(dir, "benchstat")
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-o", benchstatBin, "golang.org/x/perf/cmd/benchstat")
		cmd.Dir = "../.." // the harness module
		if out, err := cmd.CombinedOutput(); err != nil {
			benchstatErr = errors.New(string(out) + err.Error())
		}
	})
	if benchstatErr != nil {
		t.Fatalf("build benchstat: %v", benchstatErr)
	}
	return benchstatBin
}

func runBenchstat(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(realBenchstat(t), args...)
	cmd.Dir = dir
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		t.Fatalf("benchstat %v: %v", args, err)
	}
	return stdout.String()
}

// TestTextIsBenchstat proves the table is the real benchstat's, byte for
// byte: on wiregate's fixtures, at a non-default alpha, and on benchstat's
// own test inputs.
func TestTextIsBenchstat(t *testing.T) {
	perfDir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/perf").Output()
	if err != nil {
		t.Fatalf("locate x/perf: %v", err)
	}
	upstream := filepath.Join(strings.TrimSpace(string(perfDir)), "cmd", "benchstat", "testdata")
	cases := []struct {
		dir, base, head string
		alpha           float64
	}{
		{"testdata", "base.txt", "head.txt", alpha},
		{"testdata", "base.txt", "head.txt", 0.01},
		{upstream, "old.txt", "new.txt", alpha},
		{upstream, "crc-old.txt", "crc-new.txt", alpha},
	}
	for _, c := range cases {
		want := runBenchstat(t, c.dir, "-alpha", strconv.FormatFloat(c.alpha, 'g', -1, 64), c.base, c.head)
		res, err := Files(open(t, filepath.Join(c.dir, c.base)), open(t, filepath.Join(c.dir, c.head)), c.base, c.head, c.alpha)
		if err != nil {
			t.Fatalf("%s vs %s: %v", c.base, c.head, err)
		}
		if res.Text != want {
			t.Errorf("%s vs %s at alpha %v: text differs from benchstat\n--- benchstat\n%s\n--- wiregate\n%s", c.base, c.head, c.alpha, want, res.Text)
		}
	}
}

func TestComparisons(t *testing.T) {
	res, err := filesIn(t, "testdata", "base.txt", "head.txt")
	if err != nil {
		t.Fatal(err)
	}
	get := func(op, format, unit string) Comparison {
		for _, c := range res.Comparisons {
			if c.Op == op && c.Format == format && c.Unit == unit {
				return c
			}
		}
		t.Fatalf("no comparison %s/%s %s in %+v", op, format, unit, res.Comparisons)
		return Comparison{}
	}
	dec := get("decode", "protobuf", "sec/op")
	if !dec.Significant || dec.DeltaPct == nil || *dec.DeltaPct < 10 || !strings.HasPrefix(dec.Delta, "+") {
		t.Errorf("protobuf decode should be a significant slowdown, got %+v", dec)
	}
	if dec.Message != "telemetry.v1.TelemetryEvent" || dec.Base.N != 10 || dec.Head.N != 10 {
		t.Errorf("name or n not parsed: %+v", dec)
	}
	if dec.NoiseFloorPct == nil || *dec.NoiseFloorPct <= 0 || *dec.NoiseFloorPct > 20 {
		t.Errorf("noise floor of a ~5%% spread sample should be a few percent, got %v (%s)", dec.NoiseFloorPct, dec.NoiseFloorReason)
	}
	if avro := get("decode", "avro", "sec/op"); avro.Significant || avro.Delta != "~" {
		t.Errorf("avro decode is unchanged noise, got %+v", avro)
	}
	size := get("encode", "protobuf", "B/msg")
	if size.DeltaPct == nil || *size.DeltaPct < 0.9 || *size.DeltaPct > 1 {
		t.Errorf("B/msg delta: %+v", size)
	}
	if m := dec.Metric("decode"); m.Base.Center != dec.Base.Center || m.NoiseFloor != dec.NoiseFloorPct || m.Unit != "sec/op" {
		t.Errorf("Metric: %+v", m)
	}
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		base, head string
		want       []string
	}{
		{"empty.txt", "head.txt", []string{"empty.txt is empty"}},
		{"base.txt", "nobench.txt", []string{"nobench.txt has no benchmark results"}},
		{"base.txt", "other.txt", []string{"base.txt and other.txt have no benchmark names in common"}},
		{"base.txt", "short.txt", []string{"Decode/telemetry.v1.TelemetryEvent/protobuf-2", "n=10 in base.txt vs n=9 in short.txt"}},
	}
	for _, c := range cases {
		_, err := filesIn(t, "testdata", c.base, c.head)
		if exitcode.Code(err) != exitcode.Unusable {
			t.Errorf("%s vs %s: want bad input, got %v", c.base, c.head, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s vs %s: error %q does not say %q", c.base, c.head, err, w)
			}
		}
	}
	_, err := Files(failingReader{}, open(t, "testdata/head.txt"), "base.txt", "head.txt", alpha)
	if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "base.txt: cannot read") {
		t.Errorf("unreadable: %v", err)
	}
	_, err = Files(open(t, "testdata/base.txt"), open(t, "testdata/head.txt"), "b", "h", 1.5)
	if exitcode.Code(err) != exitcode.Unusable {
		t.Errorf("alpha 1.5: %v", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("input/output error") }

func TestSamples(t *testing.T) {
	base := []float64{1000, 1010, 990, 1005, 995, 1002, 998, 1007, 993, 1001}
	var slower, same []float64
	for _, v := range base {
		slower = append(slower, v*0.8)
		same = append(same, v+1)
	}
	c := Samples(base, slower, "records/s", alpha)
	if !c.Significant || c.DeltaPct == nil || *c.DeltaPct > -19 || c.Unit != "records/s" {
		t.Errorf("a 20%% drop should be significant: %+v", c)
	}
	if c := Samples(base, same, "records/s", alpha); c.Significant && c.Delta != "~" {
		// +1 on every sample shifts ranks only slightly; it must not read as a big change.
		if *c.DeltaPct > 1 {
			t.Errorf("tiny shift: %+v", c)
		}
	}
	if base[0] != 1000 {
		t.Error("Samples sorted the caller's slice")
	}
	few := Samples([]float64{1, 2, 3}, []float64{4, 5, 6}, "records/s", alpha)
	if few.Significant || few.NoiseFloorPct != nil || !strings.Contains(few.NoiseFloorReason, "n=3") {
		t.Errorf("n=3 cannot reach 0.05: %+v", few)
	}
}

func TestNoiseFloor(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99, 103, 97, 100.5, 99.5, 101.5}
	floor, reason := NoiseFloor(base, benchmath.AssumeNothing, alpha)
	if floor == nil {
		t.Fatalf("no floor: %s", reason)
	}
	// At the floor the shifted copy is significant; a bit below it is not.
	check := func(pct float64) bool {
		thr := benchmath.DefaultThresholds
		s1 := benchmath.NewSample(append([]float64(nil), base...), &thr)
		var scaled []float64
		for _, v := range base {
			scaled = append(scaled, v*(1+pct/100))
		}
		c := benchmath.AssumeNothing.Compare(s1, benchmath.NewSample(scaled, &thr))
		return c.P <= c.Alpha
	}
	if !check(*floor) || check(*floor*0.98) {
		t.Errorf("floor %.3f%% is not the smallest significant change", *floor)
	}
	// A wider spread has a higher floor.
	var wide []float64
	for _, v := range base {
		wide = append(wide, 100+(v-100)*5)
	}
	if w, _ := NoiseFloor(wide, benchmath.AssumeNothing, alpha); w == nil || *w <= *floor {
		t.Errorf("wider spread should have a higher floor: %v vs %v", w, *floor)
	}
	if f, r := NoiseFloor([]float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, benchmath.AssumeNothing, alpha); f != nil || r == "" {
		t.Errorf("zeros: %v %q", f, r)
	}
}

func TestParseName(t *testing.T) {
	op, msg, format, ok := ParseName("BenchmarkEncode/orders.v1.Order/vtprotobuf-16")
	if !ok || op != "encode" || msg != "orders.v1.Order" || format != "vtprotobuf" {
		t.Errorf("got %q %q %q %v", op, msg, format, ok)
	}
	if _, _, _, ok := ParseName("BenchmarkFoo-2"); ok {
		t.Error("Foo-2 is not a wiregate benchmark")
	}
}
