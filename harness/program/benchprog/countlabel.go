package benchprog

import (
	"fmt"
	"strconv"
	"strings"
)

// labelPrefix starts every dump the bench program asks callgrind for, so a
// dump from anything else (callgrind's own final dump at exit) is told
// apart.
const labelPrefix = "wiregate "

// CountLabel names one counted loop in its callgrind dump: the benchmark name
// (BenchmarkEncode/<message>/<format>) and how many operations ran. The
// bench program writes it (CmdCount's output, one a line); the parent reads
// it back from the dump's
// "desc: Trigger: Client Request: <label>" line.
func CountLabel(name string, ops int) string {
	return fmt.Sprintf("%s%s ops=%d", labelPrefix, name, ops)
}

// ParseCountLabel is CountLabel's inverse.
func ParseCountLabel(s string) (name string, ops int, ok bool) {
	rest, found := strings.CutPrefix(s, labelPrefix)
	if !found {
		return "", 0, false
	}
	name, opsText, found := strings.Cut(rest, " ops=")
	if !found {
		return "", 0, false
	}
	ops, err := strconv.Atoi(opsText)
	if err != nil || ops <= 0 || name == "" {
		return "", 0, false
	}
	return name, ops, true
}
