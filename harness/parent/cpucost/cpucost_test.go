package cpucost

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// A callgrind dump's header as callgrind 3.19 writes it with the cache
// simulation on.
const dumpHeader = `# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 4242
cmd:  ./wiregate-bench count
part: 3

desc: I1 cache: 32768 B, 64 B, 8-way associative
desc: Timerange: Basic block 1 - 2
desc: Trigger: Client Request: wiregate BenchmarkEncode/a.v1.B/avro ops=1024

positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
summary: 1000000 300000 100000 500 2000 1000 100 200 50

fl=(1) x.go
fn=(1) main
1 1000000 300000 100000 500 2000 1000 100 200 50

totals: 1000000 300000 100000 500 2000 1000 100 200 50
`

func TestReadDumpAndEstimatedCycles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "callgrind.out.3")
	os.WriteFile(p, []byte(dumpHeader), 0o644)
	d, err := readDump(p, false)
	if err != nil {
		t.Fatal(err)
	}
	if d.trigger != "Client Request: wiregate BenchmarkEncode/a.v1.B/avro ops=1024" || d.events["Ir"] != 1000000 || d.events["DLmw"] != 50 {
		t.Fatalf("read %+v", d)
	}
	// accesses 1,400,000; L1 misses 3,500; RAM 350:
	// (1,400,000 − 3,500) + 5·(3,500 − 350) + 35·350.
	cyc, ok := estimatedCycles(d.events)
	if want := uint64(1396500 + 15750 + 12250); !ok || cyc != want {
		t.Fatalf("estimated cycles %d (%v), want %d", cyc, ok, want)
	}
	if _, ok := estimatedCycles(map[string]uint64{"Ir": 5}); ok {
		t.Error("estimated cycles from instructions alone")
	}
	if d.slowIr != 0 {
		t.Errorf("slow paths took %d in a dump that calls none", d.slowIr)
	}
	// Calls into the slow paths from outside one count, inclusive (the
	// slow path's own cost and getitab's below it, each once); a
	// compressed name, "(14)" after "(14) runtime.typeAssert", is resolved.
	slow := dumpHeader + `fn=(3) main.loop
cfn=(14) runtime.typeAssert
calls=256 475
* 45568
cfn=(16) main.helper
calls=1 3
+2 999
fn=(15) main.other
cfn=(14)
calls=2 475
16 356
cfn=(17) runtime.interfaceSwitch
calls=1 20
-3 90
fn=(14)
475 15924
cfn=(18) runtime.getitab
calls=256 10
* 30000
fn=(17)
20 90
fn=(18)
10 30000
`
	os.WriteFile(p, []byte(slow), 0o644)
	if d, err := readDump(p, false); err != nil || d.slowIr != 45568+356+90 {
		t.Errorf("slow paths took %d (%v), want %d", d.slowIr, err, 45568+356+90)
	}
	os.WriteFile(p, []byte("# callgrind format\nevents: Ir\n"), 0o644)
	if _, err := readDump(p, false); err == nil || !strings.Contains(err.Error(), "not a callgrind dump") {
		t.Errorf("truncated dump: %v", err)
	}
}

// The benchfmt lines are exact numbers that benchstat's library compares
// as such: the delta of two counts, no interval, no test.
func TestWriteIsReadByCompareAsExact(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, instr uint64) string {
		p := filepath.Join(dir, name)
		f, _ := os.Create(p)
		defer f.Close()
		Write(f, &Counts{Results: []Result{{Name: "BenchmarkEncode/a.v1.B/avro", Ops: 1024, Instructions: instr, EstimatedCycles: instr * 2}}})
		return p
	}
	base, head := write("base.txt", 2048000), write("head.txt", 2109440)
	b, _ := os.ReadFile(base)
	if !strings.Contains(string(b), "\t2000 instr/op\t4000 est-cycles/op") || !strings.Contains(string(b), "Unit instr/op assume=exact") {
		t.Fatalf("benchfmt:\n%s", b)
	}
	fb, _ := os.Open(base)
	fh, _ := os.Open(head)
	defer fb.Close()
	defer fh.Close()
	res, err := compare.Files(fb, fh, base, head, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	var got *compare.Comparison
	for i, c := range res.Comparisons {
		if c.Unit == UnitInstructions {
			got = &res.Comparisons[i]
		}
	}
	if got == nil || got.Base.Center != 2000 || got.Head.Center != 2060 || got.DeltaPct == nil || *got.DeltaPct < 2.99 || *got.DeltaPct > 3.01 {
		t.Fatalf("instr/op comparison %+v in\n%s", got, res.Text)
	}
}

func TestChildEnvKeepsTheUsersGodebugAndPinsOneP(t *testing.T) {
	env := childEnv([]string{"PATH=/bin", "GODEBUG=madvdontneed=1", "GOMAXPROCS=8"})
	got := strings.Join(env, " ")
	if got != "PATH=/bin GODEBUG=madvdontneed=1,asyncpreemptoff=1,gcshrinkstackoff=1 GOMAXPROCS=1" {
		t.Fatalf("child env %q", got)
	}
}

// Batches of the size asked, in order, every format, each with the shared
// Avro files, samples and saved records; size 0 spreads the messages over
// the processes; a selection without messages or formats, or whose records
// were not saved, is an error.
func TestBatchesSplitTheSelection(t *testing.T) {
	sel := benchprog.Selection{Messages: []string{"a.v1.A", "b.v1.B", "c.v1.C"}, Formats: []string{"json", "avro"}, Avro: []string{"x.avsc"}, Samples: "/s", Saved: "/saved"}
	got := func(size, parallel int) string {
		t.Helper()
		batches, err := batchesOf(sel, size, parallel)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, b := range batches {
			out = append(out, b.String()+" "+strings.Join(b.sel.Args(), " "))
		}
		return strings.Join(out, "\n")
	}
	want := "a.v1.A+1 --messages a.v1.A,b.v1.B --formats json,avro --avro x.avsc --samples /s --saved /saved\n" +
		"c.v1.C --messages c.v1.C --formats json,avro --avro x.avsc --samples /s --saved /saved"
	if g := got(2, 1); g != want {
		t.Fatalf("batches of 2:\n%s", g)
	}
	if g := got(0, 2); g != want {
		t.Fatalf("3 messages over 2 processes:\n%s", g)
	}
	if g := got(0, 1); !strings.HasPrefix(g, "a.v1.A+2 --messages a.v1.A,b.v1.B,c.v1.C ") {
		t.Fatalf("3 messages in 1 process:\n%s", g)
	}
	if _, err := batchesOf(benchprog.Selection{Formats: []string{"json"}, Saved: "/saved"}, 0, 1); err == nil {
		t.Error("a selection without messages was accepted")
	}
	if _, err := batchesOf(benchprog.Selection{Messages: []string{"a.v1.A"}, Formats: []string{"json"}}, 0, 1); err == nil || !strings.Contains(err.Error(), "not saved") {
		t.Errorf("a selection without saved records: %v", err)
	}
}
