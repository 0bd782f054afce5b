package gate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/wiregate/wiregate/harness/benchprog"
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
}

func (s *side) prepare(ctx context.Context, o *Options, messages []string, skipMissing bool) error {
	p, err := prepare.Prepare(ctx, prepare.Options{
		BufInput: filepath.Join(s.dir, o.BufInput), Buf: o.Buf, Messages: messages,
		HarnessDir: o.HarnessDir, CacheDir: o.CacheDir, SkipMissing: skipMissing,
	})
	if err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	s.prep = p
	avro, err := schemafiles.Glob(s.dir, o.AvroGlobs)
	if err != nil {
		return err
	}
	s.prog = &benchprog.Program{Binary: p.Binary}
	s.sel = benchprog.Selection{Messages: p.Messages, Formats: benchprog.SplitList(o.Formats), Samples: o.Samples, Avro: avro}
	return nil
}

// check runs the side's correctness gate.
func (s *side) check(ctx context.Context) error {
	_, err := s.prog.Check(ctx, benchprog.CheckFlags{Selection: s.sel})
	return s.wrap(err)
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
