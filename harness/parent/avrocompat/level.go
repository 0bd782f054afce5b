// Package avrocompat checks Avro schema evolution at Confluent's
// compatibility levels, on twmb/avro's reader/writer resolution
// (CheckCompatibility), and words each incompatibility so a reviewer knows
// the file, record, field and which side can no longer read the other.
package avrocompat

import (
	"strings"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Level is a Confluent Schema Registry compatibility level.
type Level string

const (
	Backward           Level = "BACKWARD"            // new schema reads data written with the last one
	Forward            Level = "FORWARD"             // the last schema reads data written with the new one
	Full               Level = "FULL"                // both
	BackwardTransitive Level = "BACKWARD_TRANSITIVE" // BACKWARD against every earlier version
	ForwardTransitive  Level = "FORWARD_TRANSITIVE"  // FORWARD against every earlier version
	FullTransitive     Level = "FULL_TRANSITIVE"     // FULL against every earlier version
	None               Level = "NONE"                // no check
)

// Levels lists every level, in the order the docs give them.
var Levels = []Level{Backward, Forward, Full, BackwardTransitive, ForwardTransitive, FullTransitive, None}

// ParseLevel reads a level name (case-insensitive).
func ParseLevel(s string) (Level, error) {
	want := Level(strings.ToUpper(strings.TrimSpace(s)))
	for _, l := range Levels {
		if l == want {
			return l, nil
		}
	}
	names := make([]string, len(Levels))
	for i, l := range Levels {
		names[i] = string(l)
	}
	return "", exitcode.BadInput("avro compatibility level %q is not one of %s", s, strings.Join(names, ", "))
}

// Backward reports whether new readers must read old data.
func (l Level) Backward() bool {
	return l == Backward || l == Full || l == BackwardTransitive || l == FullTransitive
}

// Forward reports whether old readers must read new data.
func (l Level) Forward() bool {
	return l == Forward || l == Full || l == ForwardTransitive || l == FullTransitive
}

// Transitive reports whether every earlier version counts, not just the last.
func (l Level) Transitive() bool {
	return strings.HasSuffix(string(l), "_TRANSITIVE")
}
