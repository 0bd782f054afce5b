package subcmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// ErrHelp is what Parse's error is for -h: Run prints the flags on stdout
// and exits 0 without an error line.
var ErrHelp = errors.New("help requested")

// help is Parse's -h answer: the usage text, for Run to print.
type help struct{ text string }

func (h *help) Error() string     { return ErrHelp.Error() }
func (h *help) Is(err error) bool { return err == ErrHelp }

// Parse parses a command's flags. -h, -help and --help return an error
// that is ErrHelp, for which Run prints the flags on stdout and exits 0; an
// unknown flag, a bad value or a stray operand is a one-line error (exit
// code 2) pointing at -h. program names the program in those lines
// ("wiregate", "wiregate-bench").
func Parse(program string, fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			var b strings.Builder
			fmt.Fprintf(&b, "usage: %s %s [flags]\n\nflags:\n", program, fs.Name())
			fs.SetOutput(&b)
			fs.PrintDefaults()
			return &help{text: b.String()}
		}
		return exitcode.BadInput("%v; run `%s %s -h` for the flags", err, program, fs.Name())
	}
	if fs.NArg() > 0 {
		return exitcode.BadInput("unexpected argument %q; run `%s %s -h` for the flags", fs.Arg(0), program, fs.Name())
	}
	return nil
}
