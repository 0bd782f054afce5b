package render

import (
	"regexp"
	"strings"
	"testing"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
)

func line(s string) Part { return Part{Md: md.F("{}", s)} }

func TestTheBudgetCutsKindsInItsOrderAndNeverWhatHasNoKind(t *testing.T) {
	n, b, tt := strings.Repeat("n", 300), strings.Repeat("b", 300), strings.Repeat("t", 300)
	names := line("3 names")
	parts := []Part{line("verdict"), {Md: md.F("{}", n), Cut: cutNames, Compact: &names}, {Md: md.F("{}", b), Cut: cutBenchstat}, {Md: md.F("{}", tt), Cut: cutMessageTables}}
	whole := md.F("the summary")
	room := func(limit int) Room { return Room{Limit: limit, Whole: whole} }
	for _, c := range []struct {
		limit int
		want  string
	}{
		{10000, "verdict\n\n" + n + "\n\n" + b + "\n\n" + tt + "\n"},
		{800, "verdict\n\n" + n + "\n\n" + tt + "\n\n<sub>✂️ Cut to fit: benchstat text. the summary has all of it.</sub>\n"},
		{450, "verdict\n\n3 names\n\n" + tt + "\n\n<sub>✂️ Cut to fit: benchstat text, folded name lists. the summary has all of it.</sub>\n"},
	} {
		if got := Fit(parts, room(c.limit)); got != c.want {
			t.Errorf("limit %d:\n%s", c.limit, got)
		}
	}
	// Name lists go one at a time, the longest first, each leaving its count.
	a, z := line("1 a"), line("1 z")
	lists := []Part{line("verdict"), {Md: md.F("{}", strings.Repeat("a", 100)), Cut: cutNames, Compact: &a}, {Md: md.F("{}", strings.Repeat("z", 300)), Cut: cutNames, Compact: &z}}
	if got, want := Fit(lists, room(250)), "verdict\n\n"+strings.Repeat("a", 100)+"\n\n1 z\n\n<sub>✂️ Cut to fit: folded name lists. the summary has all of it.</sub>\n"; got != want {
		t.Errorf("lists:\n%s", got)
	}
	last := Fit([]Part{line("verdict"), line(strings.Repeat("x", 500))}, room(200))
	if md.UTF16Len(last) > 200 || !strings.HasPrefix(last, "verdict\n") || !strings.HasSuffix(last, "> ✂️ Report cut to fit; the summary has all of it.\n") {
		t.Errorf("last resort:\n%s", last)
	}
	// A byte budget counts UTF-8: "é" is two.
	accents := []Part{line(strings.Repeat("é", 250)), {Md: md.F("{}", strings.Repeat("b", 200)), Cut: cutBenchstat}}
	if got := Fit(accents, room(650)); strings.Contains(got, "Cut to fit") {
		t.Errorf("characters: %s", got)
	}
	if got := Fit(accents, Room{Limit: 650, Bytes: true, Whole: whole}); !regexp.MustCompile(`^é{250}\n\n<sub>✂️ Cut to fit: benchstat text\.`).MatchString(got) {
		t.Errorf("bytes: %s", got)
	}
}

func TestTruncateCutsAtALineClosingOpenBlocks(t *testing.T) {
	if got := Truncate("short\n", 100, md.F("cut")); got != "short\n" {
		t.Error(got)
	}
	lines := []string{"# title", "<details><summary>x</summary>", "```text"}
	for i := 0; i < 500; i++ {
		lines = append(lines, "line "+itoa(i))
	}
	long := strings.Join(append(lines, "```", "</details>"), "\n")
	cut := Truncate(long, 1000, md.F("see the job summary"))
	if md.UTF16Len(cut) > 1000 {
		t.Errorf("length %d", md.UTF16Len(cut))
	}
	if !regexp.MustCompile("line \\d+\n```\n</details>\n\n\n> ✂️ see the job summary\n$").MatchString(cut) {
		t.Errorf("%s", cut[max(0, len(cut)-200):])
	}
	if strings.Count(cut, "```")%2 != 0 {
		t.Error("a fence left open")
	}
}

func TestNumbersReadShort(t *testing.T) {
	for _, c := range []struct{ got, want md.Md }{
		{mebibytes(128 << 20), md.F("128 MiB")},
		{mebibytes(1 << 30), md.F("1 GiB")},
		{mebibytes(25096192), md.F("23.9 MiB")},
		{mebibytes(1.5 * (1 << 30)), md.F("1.50 GiB")},
		{instructions(3784.04), md.F("3,784")},
		{instructions(999.6), md.F("1,000")},
		{instructions(38422.8), md.F("38.4k")},
		{instructions(123456), md.F("123k")},
		{measure(2139.77, "instr/op"), md.F("2,140 instr/op")},
		{measure(4.1e-7, "sec/op"), md.F("410 ns")},
		{measure(1.2e6, "records/s"), md.F("1.20M records/s")},
		{measure(3, "<b>"), md.F("3.00 &lt;b&gt;")},
		{integer(200000), md.F("200,000")},
		{integer(-1234567), md.F("-1,234,567")},
		{pct(nil, true), md.F("n/a")},
		{pValue(ptr(0.0004)), md.F("p&lt;0.001")},
		{pValue(ptr(0.0125)), md.F("p=0.013")},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got.Source(), c.want.Source())
		}
	}
	for x, want := range map[float64]string{14.63: "+14.6%", -3: "-3.0%", 174.2: "+174%", 0: "+0.0%"} {
		if got := pct(ptr(x), true).Source(); got != want {
			t.Errorf("pct(%v) = %s, want %s", x, got, want)
		}
	}
}

func ptr(x float64) *float64 { return &x }
