package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/pin"
	"github.com/wiregate/wiregate/harness/prepare"
	"github.com/wiregate/wiregate/harness/schemafiles"
)

// side is base or head: a checkout and its prepared bench program.
type side struct {
	name string
	dir  string
	prep *prepare.Result
	args []string // selection flags for the bench program
	avro []string // the side's .avsc files
	pin  string   // how its measuring processes were pinned
}

func (s *side) prepare(ctx context.Context, o *Options, messages []string, skipMissing bool) error {
	p, err := prepare.Prepare(ctx, prepare.Options{
		BufInput: filepath.Join(s.dir, o.BufInput), Buf: o.Buf, Messages: messages, Formats: []string{o.Formats},
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
	s.avro = avro
	s.args = s.selection(strings.Join(p.Messages, ","), o.Formats, o.Samples)
	return nil
}

// selection is the bench program's flags for these messages and formats.
func (s *side) selection(messages, formats, samples string) []string {
	args := []string{"--messages", messages, "--formats", formats, "--avro", strings.Join(s.avro, ",")}
	if samples != "" {
		args = append(args, "--samples", samples)
	}
	return args
}

// run runs one bench-program subcommand and returns its stdout. A failure
// keeps the program's own one-line error and exit code.
func (s *side) run(ctx context.Context, sub string, extra ...string) ([]byte, error) {
	if s.prep == nil || s.prep.Binary == "" {
		return nil, fmt.Errorf("%s: nothing to measure", s.name)
	}
	args := append(append([]string{sub}, s.args...), extra...)
	cmd := exec.CommandContext(ctx, s.prep.Binary, args...)
	// Both sides' processes run on the same CPU: where the scheduler puts
	// them must not differ between base and head. (An A/A calibration run
	// once measured every head benchmark 8% slower than base, in all ten
	// rounds, with identical programs.)
	s.pin = pin.Command(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndex(msg, "\n"); i >= 0 {
			msg = msg[i+1:]
		}
		return nil, &exitcode.Error{Code: ee.ExitCode(), Err: fmt.Errorf("%s: %s", s.name, strings.TrimPrefix(msg, "wiregate "))}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	return stdout.Bytes(), nil
}

func (s *side) runJSON(ctx context.Context, v any, sub string, extra ...string) error {
	out, err := s.run(ctx, sub, extra...)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(out, v); err != nil {
		return fmt.Errorf("%s %s: bad JSON from the bench program: %w", s.name, sub, err)
	}
	return nil
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
