package benchprog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/pin"
	"github.com/wiregate/wiregate/harness/program/pipeline"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// Program is the parent's client of one prepared bench program. Every call
// runs the program once, in a process group of its own that ctx's end
// stops (package proc), pinned to the measuring CPU (package pin). A
// failure keeps the program's own one-line error and exit code; an
// interruption is ctx's cause.
type Program struct {
	Binary string
	pinned string
}

// Pinned says how the last measuring process was pinned, for the report.
func (p *Program) Pinned() string { return p.pinned }

// Check runs the correctness gate: every codec round-trips every record, or
// an error (exit code 1) naming the first difference.
func (p *Program) Check(ctx context.Context, f CheckFlags) ([]Checked, error) {
	var out []Checked
	return out, p.runJSON(ctx, CmdCheck, f.Args(), &out)
}

// Sizes measures exact bytes per message (after the correctness gate).
func (p *Program) Sizes(ctx context.Context, f SizesFlags) ([]Size, error) {
	var out []Size
	return out, p.runJSON(ctx, CmdSizes, f.Args(), &out)
}

// Bench writes benchfmt text to w (after the correctness gate).
func (p *Program) Bench(ctx context.Context, f BenchFlags, w io.Writer) error {
	return p.run(ctx, CmdBench, f.Args(), w)
}

// Fill creates and fills one backlog per case of the selection.
func (p *Program) Fill(ctx context.Context, f FillFlags) ([]pipeline.Backlog, error) {
	var out []pipeline.Backlog
	return out, p.runJSON(ctx, CmdFill, f.Args(), &out)
}

// ConsumerCommand is the capped consumer of one backlog, for
// pipeline.Backlog.Drain (which adds the cap and reads the result).
func (p *Program) ConsumerCommand(ctx context.Context, f ConsumeFlags) *proc.Cmd {
	return proc.Command(ctx, p.Binary, append([]string{CmdConsume}, f.Args()...)...)
}

// ConsumerServerCommand is the long-lived capped consumer of the side's
// backlogs, for pipeline.StartConsumer (which adds the cap): it drains
// what each request on its stdin names, until stdin closes.
func (p *Program) ConsumerServerCommand(ctx context.Context, f ConsumerFlags) *proc.Cmd {
	return proc.Command(ctx, p.Binary, append([]string{CmdConsumer}, f.Args()...)...)
}

// EmbeddedBrokerCommand is the embedded broker's process, for
// broker.WithEmbeddedCommand: its lifetime is the broker's (Close, Kill),
// not a context's.
func (p *Program) EmbeddedBrokerCommand() *proc.Cmd {
	return proc.Command(context.Background(), p.Binary, CmdEmbeddedBroker)
}

func (p *Program) runJSON(ctx context.Context, sub string, args []string, v any) error {
	var out bytes.Buffer
	if err := p.run(ctx, sub, args, &out); err != nil {
		return err
	}
	if err := json.Unmarshal(out.Bytes(), v); err != nil {
		return fmt.Errorf("%s %s: bad JSON from the bench program: %w", ProgramName, sub, err)
	}
	return nil
}

func (p *Program) run(ctx context.Context, sub string, args []string, stdout io.Writer) error {
	if p.Binary == "" {
		return errors.New("no bench program to run (prepare found nothing to measure)")
	}
	cmd := proc.Command(ctx, p.Binary, append([]string{sub}, args...)...)
	// Every measuring process of both sides runs on the same CPU: where the
	// scheduler puts them must not differ between base and head. (An A/A
	// calibration run once measured every head benchmark 8% slower than
	// base, in all ten rounds, with identical programs.)
	p.pinned = pin.Command(cmd.Cmd)
	cmd.Stdout = stdout
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return context.Cause(ctx)
	case err == nil:
		return nil
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return &exitcode.Error{Code: ee.ExitCode(), Err: errors.New(programError(sub, cmd.Captured().LastLine(), ee))}
	default: // did not start, or died of a signal
		return fmt.Errorf("%s %s: %v; %s", ProgramName, sub, errors.Unwrap(err), cmd.Captured().LastLine())
	}
}

// programError is the program's own error line (its last) without its
// prefix: the caller adds its own.
func programError(sub, line string, err error) string {
	if line == "" {
		return fmt.Sprintf("%s %s: %v with no message", ProgramName, sub, err)
	}
	return strings.TrimPrefix(line, ProgramName+" "+sub+": ")
}
