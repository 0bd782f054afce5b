package main

import (
	"fmt"
	"io"
	"os"

	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// said is what a measuring command (check, sizes, bench, pipeline,
// instructions) says on stderr besides its output: each message it skipped,
// with why, as soon as prepare knows, and one summary line at the end.
// stdout stays the command's output (a table, JSON, benchfmt) for pipes.
type said struct {
	cmd      string
	w        io.Writer
	skipped  []prepare.Skip
	messages map[string]bool
	formats  map[string]bool
}

func newSaid(cmd string) *said {
	return &said{cmd: cmd, w: os.Stderr, messages: map[string]bool{}, formats: map[string]bool{}}
}

// skip says each skipped message, one line each.
func (s *said) skip(skipped []prepare.Skip) {
	s.skipped = skipped
	for _, k := range skipped {
		fmt.Fprintf(s.w, "%s: skipped: %s\n", s.cmd, k)
	}
}

// add counts one message × format the command did.
func (s *said) add(message, format string) {
	s.messages[message], s.formats[format] = true, true
}

// done prints the summary: "check: 18 messages × 3 formats ok, 2 skipped".
func (s *said) done(verb string) {
	fmt.Fprintf(s.w, "%s: %s × %s %s, %d skipped\n", s.cmd,
		count(len(s.messages), "message"), count(len(s.formats), "format"), verb, len(s.skipped))
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// selection counts every message × format of sel: what a command that ran
// them all (bench, instructions) did.
func (s *said) selection(sel benchprog.Selection) {
	for _, m := range sel.Messages {
		for _, f := range sel.Formats {
			s.add(m, f)
		}
	}
}
