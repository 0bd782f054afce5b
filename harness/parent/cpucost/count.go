package cpucost

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
	"github.com/wiregate/wiregate/harness/program/valgrind"
)

// Count runs the bench program binary under callgrind with the selection
// flags args and returns one result per op and case. Valgrind missing or
// this platform lacking it is a Counts with Unavailable set, not an error;
// Valgrind or the program failing is a one-line error. ctx bounds the run:
// cancelling it kills Valgrind (the program runs inside its process).
//
// Each message is counted in its own Valgrind process (every format), up
// to Options.Parallel at a time: Go fills a type-assertion site's cache at
// random moments, and a site shared by several messages (every message
// goes through the same codec code) keeps taking slow paths long after
// warm-up, and every library's type cache holds more keys: one process for
// everything moved counts by up to 4% between identical runs, one per
// message as little as one per message × format, with every loop warmed
// before any is counted (docs/harness.md, "CPU cost"). Sides are best
// counted one after the other: each already uses the CPUs.
func Count(ctx context.Context, binary string, sel benchprog.Selection, opts Options) (*Counts, error) {
	start := time.Now()
	if reason := unsupported(); reason != "" {
		return &Counts{Unavailable: reason + ", so CPU cost is time only"}, nil
	}
	vg, err := findValgrind(opts.Valgrind)
	if err != nil {
		return &Counts{Unavailable: err.Error()}, nil
	}
	groups, err := groupsOf(sel)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	parallel := opts.Parallel
	if parallel <= 0 {
		parallel = runtime.NumCPU()
	}
	sem := make(chan struct{}, parallel)
	out := make([]*run, len(groups))
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	for i, g := range groups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				return
			}
			r, err := countOne(ctx, vg, binary, g, opts)
			if err != nil {
				once.Do(func() { firstErr = err; cancel() })
				return
			}
			out[i] = r
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("instruction count: valgrind did not finish: %w", err)
	}
	counts := &Counts{Tool: out[0].tool}
	for _, r := range out {
		counts.Results = append(counts.Results, r.results...)
	}
	counts.Seconds = since(start)
	return counts, nil
}

// run is one Valgrind process's outcome.
type run struct {
	results []Result
	tool    string
}

// countOne counts one group's loops in one Valgrind process. A loop that
// ran a type assertion's slow path (slowPaths: its site was still
// uncached after the warm-up) is counted again in a new process warmed
// recountWarm times as long, once; that count is kept.
func countOne(ctx context.Context, vg, binary string, g group, opts Options) (*run, error) {
	r, uncached, err := countOnce(ctx, vg, binary, g, opts, 1)
	if err != nil || len(uncached) == 0 {
		return r, err
	}
	r, _, err = countOnce(ctx, vg, binary, g, opts, recountWarm)
	return r, err
}

// recountWarm is how many times longer a recount warms: a site left
// uncached after w warm calls with probability p is left so after
// recountWarm·w with p^recountWarm.
const recountWarm = 8

// countOnce runs one Valgrind process over g, each format warmed warmBy
// times its length's warm-up, and returns its results and the loops that
// ran a slow path.
func countOnce(ctx context.Context, vg, binary string, g group, opts Options, warmBy int) (*run, []string, error) {
	dir, err := os.MkdirTemp("", "wiregate-callgrind-")
	if err != nil {
		return nil, nil, fmt.Errorf("instruction count: %w", err)
	}
	defer os.RemoveAll(dir)
	flags := benchprog.CountFlags{Selection: g.sel, Ops: opts.Ops, Lengths: benchprog.Lengths{}}
	for _, f := range g.sel.Formats {
		l := opts.lengthOf(g.message, f)
		flags.Lengths[f] = benchprog.CountLength{First: l.Span.Records, Passes: max(l.Span.Passes, 1), Warm: l.Warm * warmBy}
	}
	timeout := opts.ProcessTimeout
	if timeout <= 0 {
		timeout = DefaultProcessTimeout
	}
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Valgrind runs the program in its own process, which leads the group
	// that ctx's end stops, with anything the program started.
	cmd := proc.Command(pctx, vg, append(valgrindArgs(dir, opts), append([]string{binary, benchprog.CmdCount}, flags.Args()...)...)...)
	cmd.Env = childEnv(os.Environ())
	// Valgrind reads options from ./.valgrindrc: run it in the scratch
	// directory, not in the checkout the gate judges (every path it gets
	// is absolute).
	cmd.Dir = dir
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr := cmd.Captured()
	if err := cmd.Run(); err != nil {
		if ctx.Err() == nil && pctx.Err() != nil {
			return nil, nil, fmt.Errorf("instruction count: valgrind did not finish %s in %s", g.message, timeout)
		}
		return nil, nil, runError(ctx, err, stderr.String())
	}
	results, uncached, err := collect(dir, stdout.String(), opts.CacheSim)
	if err != nil {
		return nil, nil, err
	}
	if opts.KeepDumps != "" {
		sub := g.message
		if warmBy > 1 {
			sub += ".recount"
		}
		if err := keep(dir, filepath.Join(opts.KeepDumps, sub)); err != nil {
			return nil, nil, err
		}
	}
	return &run{results: results, tool: toolName(stderr.String())}, uncached, nil
}

// unsupported says why this platform cannot count, or "".
func unsupported() string {
	if runtime.GOOS != "linux" || !valgrind.Supported {
		return fmt.Sprintf("instruction counts need Valgrind on Linux amd64 or arm64; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return ""
}

func findValgrind(explicit string) (string, error) {
	name := explicit
	if name == "" {
		name = "valgrind"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("valgrind not found (%s); install it (apt-get install valgrind) for exact instruction counts, so CPU cost is time only", name)
	}
	return p, nil
}

// valgrindArgs: callgrind with instrumentation and collection off until the
// program switches them on around each loop.
func valgrindArgs(dir string, opts Options) []string {
	args := []string{
		"--tool=callgrind",
		"--instr-atstart=no",
		"--collect-atstart=no",
		"--callgrind-out-file=" + filepath.Join(dir, "callgrind.out"),
	}
	if opts.CacheSim {
		args = append(args, "--cache-sim=yes")
	}
	return args
}

// childEnv adds what a count needs of the Go runtime: no asynchronous
// preemption (callgrind aborts on Go's preemption signals), no stack
// shrinking (a shrink deferred to the next preemption made a counted loop
// regrow its stack, ~30,000 instructions, at random), and one P for the
// set-up too (Valgrind runs one thread at a time anyway).
func childEnv(env []string) []string {
	godebug := "asyncpreemptoff=1,gcshrinkstackoff=1"
	var out []string
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, "GODEBUG="):
			if v := strings.TrimPrefix(kv, "GODEBUG="); v != "" {
				godebug = v + "," + godebug
			}
		case strings.HasPrefix(kv, "GOMAXPROCS="):
		default:
			out = append(out, kv)
		}
	}
	return append(out, "GODEBUG="+godebug, "GOMAXPROCS=1")
}

var programError = regexp.MustCompile(`(?m)^wiregate [a-z-]+: (.+)$`)
var valgrindLine = regexp.MustCompile(`(?m)^(?:==\d+== )?(valgrind: .+|.*(?:Assertion|Fatal|killed|terminated|Segmentation).*)$`)

// runError turns a failed run into one line: the program's own error when
// it printed one (with its exit code), else what Valgrind said, else how
// the process ended.
func runError(ctx context.Context, err error, stderr string) error {
	if ctx.Err() != nil {
		return fmt.Errorf("instruction count: valgrind did not finish: %w", ctx.Err())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return fmt.Errorf("instruction count: start valgrind: %w", errors.Unwrap(err))
	}
	if m := programError.FindAllStringSubmatch(stderr, -1); m != nil {
		return &exitcode.Error{Code: ee.ExitCode(), Err: fmt.Errorf("instruction count: %s", m[len(m)-1][1])}
	}
	how := fmt.Sprintf("exited with %d", ee.ExitCode())
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		how = fmt.Sprintf("was killed by signal %d (%s)", int(ws.Signal()), ws.Signal())
	}
	detail := lastLine(stderr)
	if m := valgrindLine.FindAllStringSubmatch(stderr, -1); m != nil {
		detail = strings.TrimSpace(m[len(m)-1][1])
	}
	if fatal := fatalParagraph(stderr); fatal != "" {
		detail = fatal
	}
	if detail != "" {
		detail = ": " + detail
	}
	return fmt.Errorf("instruction count: valgrind %s%s", how, detail)
}

// fatalParagraph is Valgrind's own start-up failure, which it spreads over
// several "valgrind:" lines and follows with advice and "Cannot continue":
// the sentence from "Fatal error" to the first blank line, joined; "" when
// there is none.
func fatalParagraph(stderr string) string {
	var words []string
	for _, line := range strings.Split(stderr, "\n") {
		text, ok := strings.CutPrefix(strings.TrimSpace(line), "valgrind:")
		text = strings.TrimSpace(text)
		switch {
		case !ok && len(words) > 0, ok && text == "" && len(words) > 0:
			return "valgrind: " + strings.Join(words, " ")
		case ok && (len(words) > 0 || strings.HasPrefix(text, "Fatal error")):
			words = append(words, strings.Fields(text)...)
		}
	}
	if len(words) > 0 {
		return "valgrind: " + strings.Join(words, " ")
	}
	return ""
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(strings.TrimLeft(lines[len(lines)-1], "=0123456789 "))
}

var versionLine = regexp.MustCompile(`Using (Valgrind-[0-9.]+)`)

func toolName(stderr string) string {
	if m := versionLine.FindStringSubmatch(stderr); m != nil {
		return "callgrind (" + m[1] + ")"
	}
	return "callgrind"
}

// collect matches the labels the program printed (one per counted loop)
// with callgrind's dumps: a loop without its dump is an error, never a
// silently missing figure. uncached names the loops whose dump ran a
// runtime slow path (slowPaths).
func collect(dir, stdout string, cacheSim bool) (out []Result, uncached []string, err error) {
	paths, _ := filepath.Glob(filepath.Join(dir, "callgrind.out*"))
	dumps := map[string]dump{}
	for _, p := range paths {
		d, err := readDump(p)
		if err != nil {
			return nil, nil, fmt.Errorf("instruction count: %w", err)
		}
		if label, ok := strings.CutPrefix(d.trigger, "Client Request: "); ok {
			dumps[label] = d
		}
	}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		name, ops, ok := benchprog.ParseCountLabel(sc.Text())
		if !ok {
			continue
		}
		d, found := dumps[sc.Text()]
		if !found {
			return nil, nil, fmt.Errorf("instruction count: callgrind wrote no dump for %s (is the valgrind on PATH callgrind-capable?)", name)
		}
		ir, hasIr := d.events["Ir"]
		if !hasIr || ir == 0 {
			return nil, nil, fmt.Errorf("instruction count: callgrind counted no instructions for %s", name)
		}
		if len(d.slow) > 0 {
			uncached = append(uncached, name)
		}
		r := Result{Name: name, Ops: ops, Instructions: ir}
		if cacheSim {
			cyc, ok := estimatedCycles(d.events)
			if !ok {
				return nil, nil, fmt.Errorf("instruction count: the dump for %s has no cache-simulation events", name)
			}
			r.EstimatedCycles = cyc
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, nil, errors.New("instruction count: the bench program counted nothing (no loops reported)")
	}
	return out, uncached, nil
}

// keep copies one process's dumps into sub.
func keep(dir, sub string) error {
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return fmt.Errorf("instruction count: --keep-dumps: %w", err)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "callgrind.out*"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err == nil {
			err = os.WriteFile(filepath.Join(sub, filepath.Base(p)), b, 0o644)
		}
		if err != nil {
			return fmt.Errorf("instruction count: --keep-dumps: %w", err)
		}
	}
	return nil
}

// lengthOf is what one process of message in format counts per loop.
func (o Options) lengthOf(message, format string) Length {
	if o.Length != nil {
		return *o.Length
	}
	return LengthFor(format, EstimateInstr(o.Bytes[message+"/"+format]))
}
