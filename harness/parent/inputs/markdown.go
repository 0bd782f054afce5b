package inputs

import (
	"fmt"
	"strings"
)

// Markdown is the table of action inputs docs/action.md shows, made from
// Table so the docs cannot drift (a test compares them).
func Markdown() string {
	var b strings.Builder
	b.WriteString("| input | default | meaning |\n|---|---|---|\n")
	for _, in := range Table {
		if in.Owner == Flag {
			continue
		}
		def := "empty"
		if in.Default != "" {
			def = "`" + in.Default + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", in.Name, def, strings.ReplaceAll(in.Doc, "|", `\|`))
	}
	return b.String()
}
