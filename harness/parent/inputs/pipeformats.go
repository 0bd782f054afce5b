package inputs

import (
	"slices"
	"strings"

	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// PipelineFormats is the pipeline-formats input: which of a message's
// measured formats the pipeline drains. The zero value is auto.
type PipelineFormats struct {
	All  bool     // every format measured
	List []string // these, where measured; empty with All false: auto
}

// wireOrder is auto's choice, most likely on a topic first: a message
// travels in one format, and a proto message's is protobuf (vtprotobuf is
// the same bytes), an Avro-first record's avro. Each pipeline row is
// three rounds of drains a side at least, and a family of rows sets how
// many: draining every format tripled the stage on a release-like change
// (docs/design/timing-to-power.md), while bytes, counts and
// timings already compare every format.
var wireOrder = []string{"protobuf", "vtprotobuf", "avro", "avro-hamba", "msgpack", "cbor", "json", "protojson"}

// Of is the formats the pipeline drains for a message measured in
// measured (in that order): every one with all, the listed ones it has,
// else the first of wireOrder it has.
func (p PipelineFormats) Of(measured []string) []string {
	if p.All {
		return slices.Clone(measured)
	}
	if listed := slices.DeleteFunc(slices.Clone(measured), func(f string) bool { return !slices.Contains(p.List, f) }); len(listed) > 0 {
		return listed
	}
	for _, f := range wireOrder {
		if slices.Contains(measured, f) {
			return []string{f}
		}
	}
	if len(measured) > 0 {
		return measured[:1]
	}
	return nil
}

// PerMessage bounds a message's pipeline rows when it is measured in
// formats: what sizes the Holm family of the pipeline's tests, alike in
// every shard.
func (p PipelineFormats) PerMessage(formats []string) int {
	switch {
	case p.All:
		return len(formats)
	case len(p.List) > 0:
		return len(p.List)
	}
	return 1
}

// String is the input's canonical text: auto, all or the list.
func (p PipelineFormats) String() string {
	switch {
	case p.All:
		return "all"
	case len(p.List) > 0:
		return strings.Join(p.List, ",")
	}
	return "auto"
}

// parsePipelineFormats reads auto, all or a list of formats, each one
// that formats measures (it follows formats in Table).
func parsePipelineFormats(s *Settings, v value) error {
	s.PipelineFormats = PipelineFormats{}
	list := benchprog.SplitList(strings.ToLower(v.text))
	switch {
	case len(list) == 1 && list[0] == "auto":
		return nil
	case len(list) == 1 && list[0] == "all":
		s.PipelineFormats.All = true
		return nil
	case len(list) == 0:
		return v.bad("want auto, all, or a comma list of formats from formats (%s)", strings.Join(s.Formats, ", "))
	}
	for _, f := range list {
		if !slices.Contains(s.Formats, f) {
			return value{text: f, where: v.where}.bad("not a measured format; want auto, all, or formats from the formats input (%s)", strings.Join(s.Formats, ", "))
		}
		if !slices.Contains(s.PipelineFormats.List, f) {
			s.PipelineFormats.List = append(s.PipelineFormats.List, f)
		}
	}
	return nil
}
