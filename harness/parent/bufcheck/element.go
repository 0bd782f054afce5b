package bufcheck

import (
	"regexp"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// Where is the schema element a finding is about, as buf's message names
// it: `Field "7" with name "x" on message "M" changed type from "int32" to
// "bytes".` is field 7 of message M.
type Where struct {
	ContainerKind string // message | enum | service
	Container     string
	Member        string // field | enum value | rpc; empty: the container itself
	Number        string // a field's or enum value's number
	Name          string
}

var (
	// member: a field, enum value or rpc on its message, enum or service,
	// with its name when buf gives one.
	member = regexp.MustCompile(`^(?i:previously present )?((?i:field|enum value|rpc)) "([^"]+)"(?: with name "([^"]+)")? on ((?i:message|enum|service)) "([^"]+)"`)
	// container: a message, enum or service itself.
	container = regexp.MustCompile(`^(?i:previously present )?((?i:message|enum|service)) "([^"]+)"`)
	// changed: what buf says changed, from a value to another.
	changed = regexp.MustCompile(`changed (option "([^"]+)"|[a-z][a-z ]*?) from "([^"]*)" to "([^"]*)"`)
)

// Locate reads buf's message: where the finding is (ok false when the
// message names no element buf is known to name) and what changed. A
// message it cannot read is one change whose Text is the message, so
// nothing buf said is lost.
func Locate(message string) (w Where, change report.ElementChange, ok bool) {
	if m := member.FindStringSubmatch(message); m != nil {
		w = Where{Member: strings.ToLower(m[1]), Number: m[2], Name: m[3], ContainerKind: strings.ToLower(m[4]), Container: m[5]}
		ok = true
	} else if m := container.FindStringSubmatch(message); m != nil {
		w = Where{ContainerKind: strings.ToLower(m[1]), Container: m[2]}
		ok = true
	}
	switch c := changed.FindStringSubmatch(message); {
	case c != nil && c[2] != "":
		change = report.ElementChange{What: c[2], From: c[3], To: c[4]}
	case c != nil:
		change = report.ElementChange{What: c[1], From: c[3], To: c[4]}
	case ok && strings.Contains(message, " was deleted"):
		change = report.ElementChange{What: "deleted"}
	default:
		change = report.ElementChange{What: "other", Text: message}
	}
	if ok && w.Name == "" && change.What == "name" {
		w.Name = change.To
	}
	return w, change, ok
}
