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

// addedPrefix starts the dump of a loop over head's records with their
// added content (CountFlags.Added): counted beside the same-content loop of
// the same name, told apart by it.
const addedPrefix = "wiregate-added "

// CountLabel names one counted loop in its callgrind dump: the benchmark name
// (BenchmarkEncode/<message>/<format>) and how many operations ran; added
// marks a loop over records with their added content. The bench program
// writes it (CmdCount's output, one a line); the parent reads it back from
// the dump's "desc: Trigger: Client Request: <label>" line.
func CountLabel(name string, ops int, added bool) string {
	prefix := labelPrefix
	if added {
		prefix = addedPrefix
	}
	return fmt.Sprintf("%s%s ops=%d", prefix, name, ops)
}

// ParseCountLabel is CountLabel's inverse.
func ParseCountLabel(s string) (name string, ops int, added, ok bool) {
	name, opsText, found := cutLine(s, labelPrefix, " ops=")
	if !found {
		if name, opsText, found = cutLine(s, addedPrefix, " ops="); !found {
			return "", 0, false, false
		}
		added = true
	}
	ops, err := strconv.Atoi(opsText)
	if err != nil || ops <= 0 || name == "" {
		return "", 0, false, false
	}
	return name, ops, added, true
}

// donePrefix starts the line the bench program writes when it has counted
// every loop of one message: how long the message took in the process
// (loading its records, warming and counting its loops), so the parent can
// price one message of a batch apart from the process's start.
const donePrefix = "wiregate-counted "

// CountedLine is that line for message after seconds.
func CountedLine(message string, seconds float64) string {
	return fmt.Sprintf("%s%s seconds=%.6f", donePrefix, message, seconds)
}

// ParseCountedLine is CountedLine's inverse.
func ParseCountedLine(s string) (message string, seconds float64, ok bool) {
	message, text, found := cutLine(s, donePrefix, " seconds=")
	if !found || message == "" {
		return "", 0, false
	}
	seconds, err := strconv.ParseFloat(text, 64)
	if err != nil || seconds < 0 {
		return "", 0, false
	}
	return message, seconds, true
}

// cutLine splits "<prefix><name><key><value>".
func cutLine(s, prefix, key string) (name, value string, ok bool) {
	rest, found := strings.CutPrefix(s, prefix)
	if !found {
		return "", "", false
	}
	return strings.Cut(rest, key)
}
