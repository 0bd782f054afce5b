package config

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func TestParsePercent(t *testing.T) {
	good := map[string]float64{"5%": 5, "5": 5, "0.5%": 0.5, " 10 % ": 10, "0%": 0}
	for in, want := range good {
		got, err := ParsePercent("--size-threshold", in)
		if err != nil || got != want {
			t.Errorf("%q: got %v, %v; want %v", in, got, err, want)
		}
	}
	bad := map[string]string{
		"abc":  `--size-threshold is "abc": not a percentage; write e.g. 5%`,
		"":     `--size-threshold is "": not a percentage`,
		"%":    `not a percentage`,
		"-5%":  `"-5%": negative`,
		"NaN%": `not a percentage`,
		"5%%":  `not a percentage`,
	}
	for in, want := range bad {
		_, err := ParsePercent("--size-threshold", in)
		if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want bad input containing %q", in, err, want)
		}
	}
}

func TestParseAlpha(t *testing.T) {
	if a, err := ParseAlpha("--alpha", "0.01"); err != nil || a != 0.01 {
		t.Errorf("0.01: %v %v", a, err)
	}
	for _, in := range []string{"0", "1", "1.5", "-0.1", "x", ""} {
		_, err := ParseAlpha("--alpha", in)
		if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "--alpha") {
			t.Errorf("%q: want bad input naming --alpha, got %v", in, err)
		}
	}
}

const example = `
alpha: 0.01
thresholds: {size: 5%, time: 10%, throughput: 10%, cpu: 3%}
overrides:
  - message: orders.v1.Order
    size: 8%
    time: 20%
    cpu: 5%
  - format: json
    time: 30
  - message: orders.v1.*
    format: avro
    throughput: 0.5%
ignore:
  - subject: pingpong.v1.PingPong/json/encode
    reason: "json encode is not on our hot path"
  - subject: legacy.v1.*
    reason: being removed in Q3
`

func TestParseExample(t *testing.T) {
	c, err := Parse([]byte(example), FileName, inputsBase())
	if err != nil {
		t.Fatal(err)
	}
	if c.Alpha != 0.01 {
		t.Errorf("alpha %v", c.Alpha)
	}
	cases := []struct {
		message, format string
		want            Thresholds
	}{
		{"telemetry.v1.TelemetryEvent", "protobuf", Thresholds{5, 10, 10, 3, 0, Added{}}},
		{"orders.v1.Order", "protobuf", Thresholds{8, 20, 10, 5, 0, Added{}}},
		{"orders.v1.Order", "json", Thresholds{8, 30, 10, 5, 0, Added{}}}, // the later override wins for time
		{"telemetry.v1.TelemetryEvent", "json", Thresholds{5, 30, 10, 3, 0, Added{}}},
		{"orders.v1.Refund", "avro", Thresholds{5, 10, 0.5, 3, 0, Added{}}},
	}
	for _, tc := range cases {
		if got := c.ThresholdsFor(tc.message, tc.format); got != tc.want {
			t.Errorf("%s/%s: got %+v want %+v", tc.message, tc.format, got, tc.want)
		}
	}
	ignored := map[string]string{
		"pingpong.v1.PingPong/json/encode":        "json encode is not on our hot path",
		"legacy.v1.Thing/protobuf/decode":         "being removed in Q3",
		"legacy.v1.Thing/avro/size":               "being removed in Q3",
		"pingpong.v1.PingPong/json/encode/allocs": "json encode is not on our hot path",
	}
	for s, want := range ignored {
		if r, ok := c.Ignored(s); !ok || r != want {
			t.Errorf("%s: ignored=%v reason %q", s, ok, r)
		}
	}
	for _, s := range []string{"pingpong.v1.PingPong/json/decode", "pingpong.v1.PingPong/protobuf/encode"} {
		if _, ok := c.Ignored(s); ok {
			t.Errorf("%s should not be ignored", s)
		}
	}
}

func TestParseBadInput(t *testing.T) {
	cases := map[string][]string{
		"thresholds: {size: abc}":                      {"wiregate.yaml line 1: thresholds.size", `"abc": not a percentage`},
		"thresholds:\n  sizee: 5%":                     {"wiregate.yaml line 2", `unknown key "sizee"`, "size, time, throughput, cpu"},
		"thresholds:\n  cpu: fast":                     {"wiregate.yaml line 2: thresholds.cpu", `"fast": not a percentage`},
		"colour: blue":                                 {`unknown key "colour"`, "alpha, added-content, thresholds, overrides, ignore"},
		"ignore:\n  - subject: a/b/c":                  {"ignore[0].reason is missing", `"a/b/c"`},
		"ignore:\n  - subject: a/b/c\n    reason: ' '": {"ignore[0].reason is missing"},
		"ignore:\n  - reason: x":                       {"ignore[0].subject is missing"},
		"overrides:\n  - size: 5%":                     {"overrides[0] has neither message nor format"},
		"overrides:\n  - message: a.B":                 {"overrides[0] sets no threshold", "throughput, cpu or added-content"},
		"overrides:\n  - message: a.B\n    size: -1%":  {"line 3: overrides[0].size", "negative"},
		"overrides:\n  - message: a.B\n    sise: 1%":   {`unknown key "sise"`, "message, format, size, compressed-size, time, throughput, cpu"},
		"overrides:\n  - format: json\n    cpu: -2%":   {"line 3: overrides[0].cpu", "negative"},
		"alpha: 2":      {"wiregate.yaml line 1: alpha", "(0, 1)"},
		"thresholds: [": {"wiregate.yaml:"},
		"ignore:\n  - subject: '[x'\n    reason: r": {"bad glob"},
	}
	for in, wants := range cases {
		_, err := Parse([]byte(in), FileName, inputsBase())
		if exitcode.Code(err) != exitcode.Unusable {
			t.Errorf("%q: want bad input, got %v", in, err)
			continue
		}
		for _, w := range wants {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q does not contain %q", in, err, w)
			}
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	base := inputsBase()
	base.Thresholds.SizePct = 7 // as if from --size-threshold
	c, err := Load(dir, base)
	if err != nil || c.Thresholds.SizePct != 7 || c.Source != "" {
		t.Fatalf("no file: %+v %v", c, err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("thresholds: {time: 15%}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = Load(dir, base)
	if err != nil || c.Thresholds != (Thresholds{7, 15, 10, 2, 0, Added{}}) || c.Source == "" {
		t.Fatalf("file: %+v %v", c, err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := Load(dir, base); err != nil || c.Thresholds.SizePct != 7 {
		t.Fatalf("empty file: %+v %v", c, err)
	}
}

// inputsBase is a configuration as the gate's inputs would make it (the
// inputs package owns the real defaults; these are test data).
func inputsBase() Config {
	return Config{Alpha: 0.05, Thresholds: Thresholds{SizePct: 5, TimePct: 10, ThroughputPct: 10, CPUPct: 2}}
}

// approvers are GitHub users or org/team slugs; self-approve is a bool;
// anything else names the key.
func TestApproversAndSelfApprove(t *testing.T) {
	c, err := Parse([]byte("approvers: [octocat, acme/schema-owners]\nself-approve: true\n"), FileName, Config{})
	if err != nil || len(c.Approvers) != 2 || c.Approvers[1] != "acme/schema-owners" || !c.SelfApprove {
		t.Fatalf("%+v %v", c, err)
	}
	if c, _ := Parse([]byte("alpha: 0.05\n"), FileName, Config{}); c.SelfApprove || len(c.Approvers) != 0 {
		t.Fatalf("defaults: %+v", c)
	}
	for _, bad := range []string{"approvers: ['@octocat']\n", "approvers: ['a/b/c']\n", "self-approve: maybe\n"} {
		if _, err := Parse([]byte(bad), FileName, Config{}); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// Differences names each setting two configs differ in, and nothing when
// they are the same but for where they were read from.
func TestDifferencesNameEachSetting(t *testing.T) {
	base, err := Parse([]byte("thresholds: {size: 5%}\n"), FileName, Config{Alpha: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	forged, err := Parse([]byte("thresholds: {size: 50%}\napprovers: [mallory]\nself-approve: true\nignore: [{subject: '**', reason: fine}]\n"), FileName, Config{Alpha: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(Differences(forged, base), "; ")
	for _, want := range []string{`thresholds: {"size_pct":50,`, `ignore: [{"subject":"**","reason":"fine"}], not none`, `approvers: ["mallory"], not none`, `self_approve: true, not false`} {
		if !strings.Contains(got, want) {
			t.Errorf("differences %q lack %q", got, want)
		}
	}
	if strings.Contains(got, "alpha") {
		t.Errorf("alpha is the same: %q", got)
	}
	same := base
	same.Source = "/elsewhere/wiregate.yaml"
	if d := Differences(same, base); len(d) != 0 {
		t.Errorf("the same rules differ: %q", d)
	}
}

// The added-content threshold is off unless set: the input's for every
// kind, the file's top level over it, a kind of its own over that, an
// override per message over all of them, "off" turning a kind off again.
func TestAddedContentThresholdsLayer(t *testing.T) {
	ten := 10.0
	base := Config{Thresholds: Thresholds{Added: AllAdded(&ten)}}
	c, err := Parse([]byte(`added-content: 20%
thresholds:
  added-cpu: 5%
overrides:
  - message: a.v1.Big
    added-content: off
  - message: a.v1.Size
    added-size: 1%
`), FileName, base)
	if err != nil {
		t.Fatal(err)
	}
	pct := func(p *float64) string {
		if p == nil {
			return "off"
		}
		return strconv.FormatFloat(*p, 'f', -1, 64)
	}
	for _, tc := range []struct {
		message, size, compressed, cpu string
	}{
		{"a.v1.Other", "20", "20", "5"},
		{"a.v1.Big", "off", "off", "off"},
		{"a.v1.Size", "1", "20", "5"},
	} {
		a := c.ThresholdsFor(tc.message, "protobuf").Added
		if got := [3]string{pct(a.SizePct), pct(a.CompressedSizePct), pct(a.CPUPct)}; got != [3]string{tc.size, tc.compressed, tc.cpu} {
			t.Errorf("%s: size, compressed, cpu %v, want %v", tc.message, got, [3]string{tc.size, tc.compressed, tc.cpu})
		}
	}
	if a := (Config{}).ThresholdsFor("a.v1.B", "json").Added; a != (Added{}) {
		t.Errorf("no input, no file: %+v, want off", a)
	}
	if _, err := Parse([]byte("added-content: lots\n"), FileName, base); err == nil || !strings.Contains(err.Error(), "line 1: added-content") || !strings.Contains(err.Error(), "write off, or e.g. 10%") {
		t.Errorf("a bad value: %v", err)
	}
}
