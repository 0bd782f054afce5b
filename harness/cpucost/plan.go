package cpucost

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/wiregate/wiregate/harness/codec"
)

// group is what one Valgrind process counts: one message in one format.
type group struct {
	message, format string
	args            []string // the bench program's selection flags for it
}

// plan splits the bench program's selection flags into one group per
// message × format, in the order given (message-major, as every other
// output lists cases). With no --messages it asks the program for the
// messages compiled in.
func plan(ctx context.Context, binary string, args []string) ([]group, error) {
	fs := flag.NewFlagSet("selection", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	messages := fs.String("messages", "", "")
	formats := fs.String("formats", codec.DefaultNames, "")
	avro := fs.String("avro", "", "")
	samples := fs.String("samples", "", "")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return nil, fmt.Errorf("instruction count: selection flags %q: want --messages, --formats, --avro, --samples", strings.Join(args, " "))
	}
	msgs := split(*messages)
	if len(msgs) == 0 {
		out, err := exec.CommandContext(ctx, binary, "list").Output()
		if err != nil {
			return nil, fmt.Errorf("instruction count: list the messages of %s: %w", binary, err)
		}
		msgs = strings.Fields(string(bytes.TrimSpace(out)))
	}
	var rest []string
	if *avro != "" {
		rest = append(rest, "--avro", *avro)
	}
	if *samples != "" {
		rest = append(rest, "--samples", *samples)
	}
	var groups []group
	for _, m := range msgs {
		for _, f := range split(*formats) {
			groups = append(groups, group{message: m, format: f, args: append([]string{"--messages", m, "--formats", f}, rest...)})
		}
	}
	if len(groups) == 0 {
		return nil, fmt.Errorf("instruction count: nothing selected (messages %q, formats %q)", *messages, *formats)
	}
	return groups, nil
}

func split(list string) []string {
	var out []string
	for _, s := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == '\n' || r == ' ' }) {
		out = append(out, s)
	}
	return out
}
