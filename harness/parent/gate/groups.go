package gate

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/avroschema"
)

// groups sorts the changed messages by cause: the parts of each one's
// closure (prepare.Schema.Parts) that differ between the sides. Groups of
// more messages come first, then by cause.
// names are both sides' synthesized messages' Avro names, by message.
func groups(changed []string, base, head *prepare.Schema, names ...map[string]string) ([]report.Group, error) {
	byCause := map[string]*report.Group{}
	var out []*report.Group
	for _, m := range changed {
		cause, err := causeOf(base, head, m, names)
		if err != nil {
			return nil, err
		}
		key := strings.Join(cause, "\n")
		if byCause[key] == nil {
			byCause[key] = &report.Group{Cause: cause}
			out = append(out, byCause[key])
		}
		byCause[key].Messages = append(byCause[key].Messages, m)
	}
	slices.SortStableFunc(out, func(a, b *report.Group) int {
		return cmp.Or(cmp.Compare(len(b.Messages), len(a.Messages)), slices.Compare(a.Cause, b.Cause))
	})
	res := make([]report.Group, len(out))
	for i, g := range out {
		res[i] = *g
	}
	return res, nil
}

// causeOf is what in message's closure differs between base and head.
func causeOf(baseSchema, headSchema *prepare.Schema, message string, names []map[string]string) ([]string, error) {
	base, err := baseSchema.Parts(message)
	if err != nil {
		return nil, err
	}
	head, err := headSchema.Parts(message)
	if err != nil {
		return nil, err
	}
	var cause []string
	name := func(k string) string { return causeName(k, names...) }
	for k := range maps.Keys(head) {
		if head[k] != base[k] {
			cause = append(cause, name(k))
		}
	}
	for k := range maps.Keys(base) {
		if _, ok := head[k]; !ok {
			cause = append(cause, name(k))
		}
	}
	cause = slices.DeleteFunc(cause, func(c string) bool { return c == "" })
	if len(cause) == 0 {
		cause = []string{message} // its Avro schema or samples changed
	}
	slices.Sort(cause)
	return slices.Compact(cause), nil
}

// causeName is a closure part's key as a cause reads: a synthesized
// message by the Avro named type it stands for (in either side's names).
func causeName(key string, names ...map[string]string) string {
	kind, name, _ := strings.Cut(key, " ")
	if kind == "file" {
		if avroschema.IsSynthesized(name) {
			return "" // the record's own file: its message says it
		}
		return name + " (file options)"
	}
	for _, n := range names {
		if avro, ok := n[name]; ok {
			return avro
		}
	}
	return name
}
