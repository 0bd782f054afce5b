package valgrind_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/program/proc"
	"github.com/wiregate/wiregate/harness/program/valgrind"
)

// childEnv makes this test binary the program counted under callgrind.
const childEnv = "WIREGATE_VALGRIND_TEST_CHILD"

// iterations are the loop lengths counted: the counts must grow by the
// same number of instructions per iteration, exactly.
var iterations = []int{1000, 2000, 3000}

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(countLoops())
	}
	os.Exit(m.Run())
}

var sink uint64

// spin is the counted loop: the same instructions every iteration.
//
//go:noinline
func spin(n int) uint64 {
	x := uint64(1)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// countLoops is the child under callgrind: it counts spin at each length
// (collection on around the loop only, one dump each), then a loop run with
// collection off, which must count nothing.
func countLoops() int {
	if !valgrind.Running() {
		fmt.Fprintln(os.Stderr, "valgrind.Running() is false under valgrind")
		return 3
	}
	runtime.LockOSThread() // collection is per thread
	valgrind.StartInstrumentation()
	valgrind.ZeroStats()
	for _, n := range iterations {
		valgrind.ToggleCollect()
		sink += spin(n)
		valgrind.ToggleCollect()
		valgrind.DumpStatsAt(fmt.Sprintf("spin-%d", n))
	}
	sink += spin(5000)
	valgrind.DumpStatsAt("collection-off")
	return 0
}

func TestNotRunningNatively(t *testing.T) {
	if valgrind.Running() {
		t.Fatal("Running() is true outside Valgrind")
	}
	valgrind.ZeroStats() // every request is a no-op natively
	valgrind.DumpStatsAt("native")
}

// The client requests work under real callgrind: Running is true, each
// DumpStatsAt writes a dump named by its label, only the instructions
// between the two ToggleCollects are counted, and they are exact: every
// further 1000 iterations of the same loop add the same count, to the
// instruction, and a loop run with collection off counts nothing.
func TestClientRequestsCountExactlyUnderCallgrind(t *testing.T) {
	if !valgrind.Supported {
		t.Skipf("no client-request stub for %s", runtime.GOARCH)
	}
	vg, err := exec.LookPath("valgrind")
	if err != nil {
		if os.Getenv("WIREGATE_SKIP_VALGRIND") == "1" {
			t.Skip("valgrind not installed and WIREGATE_SKIP_VALGRIND=1")
		}
		t.Fatal("valgrind not installed: apt-get install valgrind (.ci/run does), or set WIREGATE_SKIP_VALGRIND=1")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := proc.Command(ctx, vg, "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
		"--callgrind-out-file="+filepath.Join(dir, "callgrind.out"), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", "GODEBUG=asyncpreemptoff=1", "GOMAXPROCS=1")
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, cmd.Captured())
	}
	ir := dumps(t, dir)
	t.Logf("instructions by dump: %v", ir)
	if n, ok := ir["collection-off"]; !ok || n != 0 {
		t.Errorf("a loop with collection off counted %d instructions (dump found: %v)", n, ok)
	}
	var counts []uint64
	for _, n := range iterations {
		c, ok := ir[fmt.Sprintf("spin-%d", n)]
		if !ok {
			t.Fatalf("no dump for spin-%d", n)
		}
		counts = append(counts, c)
	}
	step := counts[1] - counts[0]
	if counts[2]-counts[1] != step {
		t.Errorf("1000 more iterations added %d, then %d instructions: not exact", step, counts[2]-counts[1])
	}
	perIter, fixed := step/1000, int64(counts[0])-int64(step)
	if step%1000 != 0 || perIter < 2 || perIter > 20 {
		t.Errorf("%d instructions per 1000 iterations: not a whole, small number per iteration", step)
	}
	// What is counted besides the loop: the call and the two requests.
	if fixed < 0 || fixed > 200 {
		t.Errorf("%d instructions counted besides the loop, want a few dozen", fixed)
	}
}

// dumps reads callgrind's dumps in dir: Ir by the label of the
// DumpStatsAt that wrote each.
func dumps(t *testing.T, dir string) map[string]uint64 {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "callgrind.out*"))
	out := map[string]uint64{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		var label, summary string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if l, ok := strings.CutPrefix(sc.Text(), "desc: Trigger: Client Request: "); ok {
				label = l
			}
			if s, ok := strings.CutPrefix(sc.Text(), "summary: "); ok {
				summary = s
			}
		}
		f.Close()
		if label == "" {
			continue // the dump at exit
		}
		n, err := strconv.ParseUint(strings.TrimSpace(summary), 10, 64)
		if err != nil {
			t.Fatalf("%s: summary %q", p, summary)
		}
		out[label] = n
	}
	return out
}
