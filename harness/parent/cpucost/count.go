package cpucost

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
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
	"github.com/wiregate/wiregate/harness/program/pin"
	"github.com/wiregate/wiregate/harness/program/proc"
	"github.com/wiregate/wiregate/harness/program/valgrind"
)

// Count runs the bench program binary under callgrind with the selection
// flags args and returns one result per op and case. The selection's
// records must have been saved by a sizes run (sel.Saved): a count process
// only loads them. Valgrind missing or this platform lacking it is a
// Counts with Unavailable set, not an error; Valgrind or the program
// failing is a one-line error. ctx bounds the run: cancelling it kills
// Valgrind (the program runs inside its process).
//
// The messages are counted in batches (Options.Batch messages a Valgrind
// process), up to Options.Parallel processes at a time: a process pays
// Valgrind's start, the runtime's and the type registries' once for its
// batch, and counts each message as it would alone, within the message's
// floor (every loop of a message is warmed before it is counted, and what
// a still-uncached type-assertion site costs is left out: slowPaths;
// docs/harness.md, "CPU cost: instructions per operation").
func Count(ctx context.Context, binary string, sel benchprog.Selection, opts Options) (*Counts, error) {
	start := time.Now()
	if reason := unsupported(); reason != "" {
		return &Counts{Unavailable: reason + ", so CPU cost is time only"}, nil
	}
	vg, err := findValgrind(opts.Valgrind)
	if err != nil {
		return &Counts{Unavailable: err.Error()}, nil
	}
	parallel := opts.Parallel
	if parallel <= 0 {
		parallel = runtime.NumCPU()
	}
	batches, err := batchesOf(sel, opts.Batch, parallel)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, parallel)
	out := make([]*run, len(batches))
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	for i, b := range batches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				return
			}
			r, err := countBatch(ctx, vg, binary, b, opts)
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
	counts := &Counts{Tool: out[0].tool, MessageSeconds: map[string]float64{}}
	for _, r := range out {
		counts.Results = append(counts.Results, r.results...)
		maps.Copy(counts.MessageSeconds, r.messages)
	}
	counts.Seconds = since(start)
	return counts, nil
}

// run is one Valgrind process's outcome.
type run struct {
	results  []Result
	messages map[string]float64 // seconds each message took in it
	tool     string
}

// countBatch counts one batch's loops in one Valgrind process.
func countBatch(ctx context.Context, vg, binary string, b batch, opts Options) (*run, error) {
	dir, err := os.MkdirTemp("", "wiregate-callgrind-")
	if err != nil {
		return nil, fmt.Errorf("instruction count: %w", err)
	}
	defer os.RemoveAll(dir)
	flags := benchprog.CountFlags{Selection: b.sel, Ops: opts.Ops, Lengths: benchprog.Lengths{}, Added: opts.Added, AddedMessages: opts.AddedMessages}
	for _, m := range b.sel.Messages {
		for _, f := range b.sel.Formats {
			l := opts.lengthOf(m, f)
			flags.Lengths[m+"/"+f] = benchprog.CountLength{First: l.Span.Records, Passes: max(l.Span.Passes, 1), Warm: l.Warm}
		}
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
	// A count leaves nothing behind but the scratch directory removed
	// here: stopped (the budget's deadline, a signal), it is killed at once.
	cmd.NothingToUndo()
	cmd.Env = childEnv(os.Environ())
	if len(opts.CPUs) > 0 {
		pin.TasksetList(cmd.Cmd, opts.CPUs)
	}
	// Valgrind reads options from ./.valgrindrc: run it in the scratch
	// directory, not in the checkout the gate judges (every path it gets
	// is absolute).
	cmd.Dir = dir
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr := cmd.Captured()
	if err := cmd.Run(); err != nil {
		if ctx.Err() == nil && pctx.Err() != nil {
			return nil, fmt.Errorf("instruction count: valgrind did not finish %s in %s", b, timeout)
		}
		return nil, runError(ctx, err, stderr.String())
	}
	results, err := collect(dir, stdout.String(), opts)
	if err != nil {
		return nil, err
	}
	if opts.KeepDumps != "" {
		if err := keep(dir, filepath.Join(opts.KeepDumps, b.String())); err != nil {
			return nil, err
		}
	}
	return &run{results: results, messages: countedSeconds(stdout.String()), tool: toolName(stderr.String())}, nil
}

// countedSeconds reads the program's per-message lines.
func countedSeconds(stdout string) map[string]float64 {
	out := map[string]float64{}
	for line := range strings.Lines(stdout) {
		if m, s, ok := benchprog.ParseCountedLine(strings.TrimSpace(line)); ok {
			out[m] += s // a message with added content is said twice: its loops, then its added loops
		}
	}
	return out
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
// silently missing figure. What the loop's calls into the runtime's slow
// paths took (slowPaths) is left out of its instructions, and said apart
// (Uncached). With opts.Profiles, each result carries its loop's profile,
// from the same dump.
func collect(dir, stdout string, opts Options) (out []Result, err error) {
	paths, _ := filepath.Glob(filepath.Join(dir, "callgrind.out*"))
	dumps := map[string]dump{}
	for _, p := range paths {
		d, err := readDump(p, opts.Profiles)
		if err != nil {
			return nil, fmt.Errorf("instruction count: %w", err)
		}
		if label, ok := strings.CutPrefix(d.trigger, "Client Request: "); ok {
			dumps[label] = d
		}
	}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		name, ops, added, ok := benchprog.ParseCountLabel(sc.Text())
		if !ok {
			continue
		}
		d, found := dumps[sc.Text()]
		if !found {
			return nil, fmt.Errorf("instruction count: callgrind wrote no dump for %s (is the valgrind on PATH callgrind-capable?)", name)
		}
		ir, hasIr := d.events["Ir"]
		if !hasIr || ir == 0 {
			return nil, fmt.Errorf("instruction count: callgrind counted no instructions for %s", name)
		}
		r := Result{Name: name, Ops: ops, Instructions: ir - min(d.slowIr, ir), Uncached: min(d.slowIr, ir), Added: added}
		if d.graph != nil {
			r.Profile = profileOf(*d.graph, ops)
		}
		if opts.CacheSim {
			cyc, ok := estimatedCycles(d.events)
			if !ok {
				return nil, fmt.Errorf("instruction count: the dump for %s has no cache-simulation events", name)
			}
			r.EstimatedCycles = cyc
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, errors.New("instruction count: the bench program counted nothing (no loops reported)")
	}
	return out, nil
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
	return LengthFor(format, EstimateInstr(format, o.Bytes[message+"/"+format]))
}
