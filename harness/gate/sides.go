package gate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/wiregate/wiregate/harness/benchprog"
	"github.com/wiregate/wiregate/harness/checkout"
	"github.com/wiregate/wiregate/harness/inputs"
	"github.com/wiregate/wiregate/harness/prepare"
	"github.com/wiregate/wiregate/harness/schemafiles"
)

// side is base or head: a checkout, its prepared bench program and what it
// measures.
type side struct {
	name string
	dir  string
	prep *prepare.Result
	prog *benchprog.Program
	sel  benchprog.Selection
	// worktree is the checkout the gate made for this side (base), removed
	// when the run ends.
	worktree *checkout.Worktree
}

func (s *side) prepare(ctx context.Context, o *Options, set inputs.Settings, messages []string, skipMissing bool) error {
	p, err := prepare.Prepare(ctx, prepare.Options{
		BufInput: filepath.Join(s.dir, set.BufInput), Buf: o.Buf, Messages: messages, Formats: set.Formats,
		HarnessDir: o.HarnessDir, CacheDir: o.CacheDir, SkipMissing: skipMissing,
	})
	if err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	s.prep = p
	avro, err := schemafiles.Glob(s.dir, set.AvroSchemas)
	if err != nil {
		return err
	}
	s.prog = &benchprog.Program{Binary: p.Binary}
	s.sel = benchprog.Selection{Messages: p.Messages, Formats: set.Formats, Samples: set.Samples, Avro: avro}
	return nil
}

// prepared says how the side's program came to be: "reused" (the cache
// had it), or "built in 2.5 s (go build 2.0 s, plugins 0.4 s)".
func (s *side) prepared() string {
	switch {
	case s.prep == nil:
		return "not prepared"
	case s.prep.Binary == "":
		return "has none of the messages"
	case s.prep.Reused:
		return "reused"
	}
	return fmt.Sprintf("built in %.1f s (go build %.1f s, plugins %.1f s)", s.prep.Seconds, s.prep.Timings["go_build"], s.prep.Timings["plugins"])
}

// check runs the side's correctness gate.
func (s *side) check(ctx context.Context) ([]benchprog.Checked, error) {
	cs, err := s.prog.Check(ctx, benchprog.CheckFlags{Selection: s.sel})
	return cs, s.wrap(err)
}

func (s *side) sizes(ctx context.Context) ([]benchprog.Size, error) {
	ss, err := s.prog.Sizes(ctx, benchprog.SizesFlags{Selection: s.sel})
	return ss, s.wrap(err)
}

// bench is one round: every benchmark once, in benchfmt.
func (s *side) bench(ctx context.Context, benchtime time.Duration, header bool) ([]byte, error) {
	var out bytes.Buffer
	err := s.prog.Bench(ctx, benchprog.BenchFlags{Selection: s.sel, Timing: benchprog.Timing{Count: 1, Benchtime: benchtime}, Header: header}, &out)
	return out.Bytes(), s.wrap(err)
}

// wrap names the side in an error, keeping its exit code.
func (s *side) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", s.name, err)
}

func appendFile(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
