package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"weak"

	"github.com/wiregate/wiregate/harness/internal/fixture/wgplain"
	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/sizes"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// watched is an Env whose builds are watched: each build first collects
// the heap and records every case built before it that is still alive.
type watched struct {
	env    *Env
	out    *bytes.Buffer
	built  []string // message names, one per build
	cases  []weak.Pointer[cases.Case]
	leaked []string // "<case> alive while <message> is built"
}

func watch(t *testing.T) *watched {
	t.Helper()
	w := &watched{out: new(bytes.Buffer)}
	w.env = &Env{Subjects: wgplain.Subjects(), Stdout: w.out}
	w.env.buildCases = func(s *subject.Subject, formats []codec.Format, samples cases.From) ([]*cases.Case, error) {
		runtime.GC()
		for _, p := range w.cases {
			if c := p.Value(); c != nil {
				w.leaked = append(w.leaked, c.Name()+" alive while "+s.Name()+" is built")
			}
		}
		cs, err := cases.ForMessage(s, formats, samples)
		for _, c := range cs {
			w.cases = append(w.cases, weak.Make(c))
		}
		w.built = append(w.built, s.Name())
		return cs, err
	}
	return w
}

func (w *watched) run(t *testing.T, args ...string) {
	t.Helper()
	var stderr bytes.Buffer
	if code := Registry(w.env).Run(context.Background(), args, w.out, &stderr); code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, stderr.String())
	}
}

var fixtureMessages = []string{"orders.v1.Order", "pingpong.v1.PingPong", "telemetry.v1.TelemetryEvent"}

// Each subcommand holds one message's cases at a time: when the next
// message is built, no case of an earlier one is reachable. (Holding them
// all is what made `check` of 1,276 messages a 15.5 GB process.)
func TestSubcommandsHoldOneMessageAtATime(t *testing.T) {
	for _, args := range [][]string{
		{benchprog.CmdCheck},
		{benchprog.CmdSizes},
		{benchprog.CmdBench, "--count", "2", "--benchtime", "1ms", "--op", "encode", "--formats", "protobuf"},
	} {
		t.Run(args[0], func(t *testing.T) {
			w := watch(t)
			w.run(t, args...)
			if len(w.built) < len(fixtureMessages) {
				t.Fatalf("built %q", w.built)
			}
			if len(w.leaked) > 0 {
				t.Errorf("cases outlive their message:\n%s", strings.Join(w.leaked, "\n"))
			}
		})
	}
}

// The watch itself sees a case that is kept: a subcommand that held every
// message's cases would fail the test above.
func TestWatchSeesAKeptCase(t *testing.T) {
	w := watch(t)
	var kept []*cases.Case
	stream, err := checkedStream(w.env, benchprog.Selection{Formats: []string{"protobuf"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := stream(func(cs []*cases.Case) error { kept = append(kept, cs...); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(w.leaked) != 2+1 { // orders alive while pingpong and telemetry are built; pingpong while telemetry is
		t.Errorf("leaks seen: %q", w.leaked)
	}
	runtime.KeepAlive(kept)
}

// bench --count 2 runs round-major: every message in round 1, then every
// message again, each rebuilt (the same records), with the same exact
// figures on every round's line.
func TestBenchRoundsRebuildEveryMessageInOrder(t *testing.T) {
	w := watch(t)
	w.run(t, benchprog.CmdBench, "--count", "2", "--benchtime", "1ms", "--op", "decode", "--formats", "json,protobuf", "--header=false")
	if want := append(append([]string{}, fixtureMessages...), fixtureMessages...); strings.Join(w.built, ",") != strings.Join(want, ",") {
		t.Errorf("built %q, want %q", w.built, want)
	}
	var names []string
	exact := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(w.out.String()), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			t.Fatalf("line %q", line)
		}
		names = append(names, f[0])
		if prev, ok := exact[f[0]]; ok && prev != strings.Join(f[3:], "\t") {
			t.Errorf("%s: round 2 %q, round 1 %q", f[0], f[3:], prev)
		}
		exact[f[0]] = strings.Join(f[3:], "\t")
	}
	var round []string
	for _, m := range fixtureMessages {
		for _, f := range []string{"json", "protobuf"} {
			round = append(round, bench.WithProcs("BenchmarkDecode/"+m+"/"+f))
		}
	}
	if got, want := strings.Join(names, ","), strings.Join(append(round, round...), ","); got != want {
		t.Errorf("lines\n%s\nwant\n%s", got, want)
	}
}

// sizes is the one call a gate needs: its rows carry what check says of
// each case, the same bytes as measuring every case at once, and a price
// (planning only: positive, and the setup shared by a message's rows).
func TestSizesCarryCheckAndAPrice(t *testing.T) {
	w := watch(t)
	w.run(t, benchprog.CmdCheck)
	var checked []benchprog.Checked
	if err := json.Unmarshal(w.out.Bytes(), &checked); err != nil {
		t.Fatal(err)
	}
	w.out.Reset()
	w.run(t, benchprog.CmdSizes)
	var got []sizes.Size
	if err := json.Unmarshal(w.out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	subs, formats, err := resolve(w.env, benchprog.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := cases.Build(subs, formats, cases.From{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := sizes.Measure(all, benchprog.Batching{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(got) != len(checked) || len(got) != 9 {
		t.Fatalf("%d rows, %d measured at once, %d checked", len(got), len(want), len(checked))
	}
	setup := map[string]float64{}
	for i, g := range got {
		c := checked[i]
		if g.Message != c.Message || g.Format != c.Format || g.Records != c.Records || g.Source != c.Source || g.Aliasing != c.Aliasing {
			t.Errorf("row %d: sizes %+v, check %+v", i, g, c)
		}
		p := g.Cold
		if p.SetupSeconds <= 0 || p.EncodeNs <= 0 || p.DecodeNs <= 0 {
			t.Errorf("%s/%s: price %+v", g.Message, g.Format, p)
		}
		if s, ok := setup[g.Message]; ok && s != p.SetupSeconds {
			t.Errorf("%s: setup %v on one row, %v on another", g.Message, p.SetupSeconds, s)
		}
		setup[g.Message] = p.SetupSeconds
		g.Cold, want[i].Cold = benchprog.ColdReading{}, benchprog.ColdReading{}
		if !reflect.DeepEqual(g, want[i]) {
			t.Errorf("row %d: streamed %+v, at once %+v", i, g, want[i])
		}
	}
	aliasing := map[string]bool{}
	for _, f := range formats {
		aliasing[f.Name] = f.Aliasing
	}
	for _, g := range got {
		if g.Aliasing != aliasing[g.Format] {
			t.Errorf("%s/%s says aliasing %v, its format %v", g.Message, g.Format, g.Aliasing, aliasing[g.Format])
		}
	}
}

// Building and checking run with a higher GC target; what is measured runs
// at the process's own setting.
func TestSetupGCTargetIsRestoredBeforeMeasuring(t *testing.T) {
	gcPercent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	own := gcPercent()
	w := watch(t)
	build := w.env.buildCases
	var during []int
	w.env.buildCases = func(s *subject.Subject, formats []codec.Format, samples cases.From) ([]*cases.Case, error) {
		during = append(during, gcPercent())
		return build(s, formats, samples)
	}
	stream, err := checkedStream(w.env, benchprog.Selection{Formats: []string{"protobuf"}})
	if err != nil {
		t.Fatal(err)
	}
	var measuring []int
	if err := stream(func([]*cases.Case) error { measuring = append(measuring, gcPercent()); return nil }); err != nil {
		t.Fatal(err)
	}
	for i := range measuring {
		if during[i] != setupGCPercent || measuring[i] != own {
			t.Errorf("message %d: GC target %d while set up, %d while measured; want %d and the process's %d", i, during[i], measuring[i], setupGCPercent, own)
		}
	}
	if len(measuring) != len(fixtureMessages) {
		t.Errorf("%d messages measured", len(measuring))
	}
}
