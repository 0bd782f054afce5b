package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"
	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// SchemaFile is report.json's JSON Schema: generated from the types of
// this package (GenerateSchema), committed, and read by both sides — the
// action's types are generated from it and it validates every report the
// action renders; here it validates the reports a merge or an approval
// reads. A test keeps it equal to what GenerateSchema makes.
//
//go:embed report.schema.json
var SchemaFile []byte

// The words report.json uses for what a stage is and what failed; the
// schema holds each list as an enum, so a report with any other fails
// validation on both sides.
var (
	// Results are what a report's result can be (contract).
	Results = []string{ResultPass, ResultFail, ResultError}
	// Kinds are the violation kinds (contract).
	Kinds = []string{KindLint, KindBreaking, KindAvro, KindAvroMismatch, KindSize, KindCompressedSize, KindCPU, KindTime, KindThroughput, KindAddedContent, KindError, KindCoverage}
	// StageNames are the stages a report lists: the action's before the
	// gate, then the gate's own.
	StageNames = []string{StageCacheRestore, StageBuildWiregate, "inputs", "checkout", "release checkout", "config", "tools",
		"buf lint", "buf breaking", "buf breaking (release)", "avro-compatibility", "avro-compatibility (release)",
		"schemas", "shards", "prepare", "records", "sizes", "cpu", "bench", "compare", "pipeline", "history", "verdict", "merge"}
	// Statuses are a message's status against the base.
	Statuses = []string{StatusChanged, StatusNew, StatusUnchanged, StatusRemoved}
	// Figures are what coverage counts.
	Figures = []string{FigureSized, FigureCounted, FigureTimed, FigurePiped}
)

// The stages the action runs before the gate (its --stages-before).
const (
	StageCacheRestore  = "cache restore"
	StageBuildWiregate = "build wiregate"
)

// GenerateSchema makes report.json's JSON Schema from Report, with the
// doc comments of the Go source under dir (this package's directory)
// as descriptions. Every object is closed (no property it does not
// declare), every field without omitempty is required, and the words
// above are enums.
func GenerateSchema(dir string) ([]byte, error) {
	return SchemaOf(&Report{}, Contract{
		ID:          "https://github.com/wiregate/wiregate/harness/parent/report/report.schema.json",
		Title:       "Report",
		Description: "report.json: what one gate run measured and decided (harness/parent/report).",
		Package:     "github.com/wiregate/wiregate/harness/parent/report",
		Dirs:        []string{dir},
	})
}

// Contract is a JSON file the harness writes and the action reads
// (report.json, plan.json), for SchemaOf.
type Contract struct {
	// ID, Title and Description head the schema; Title names the root
	// type among the action's generated types.
	ID, Title, Description string
	// Package is the import path of the directory the schema is made in
	// (the package whose test keeps it fresh); Dirs are the directories,
	// relative to that one, of the packages whose types the file holds:
	// their doc comments are the descriptions.
	Package string
	Dirs    []string
}

// SchemaOf makes the JSON Schema of v's type for c, the one way every
// contract's schema is made: every object is closed (no property it does
// not declare), every field without omitempty is required, and a type's
// JSONSchemaExtend narrows its words to enums and its numbers to ranges.
func SchemaOf(v any, c Contract) ([]byte, error) {
	r := &jsonschema.Reflector{RequiredFromJSONSchemaTags: false}
	for _, dir := range c.Dirs {
		if err := r.AddGoComments(c.Package, dir); err != nil {
			return nil, fmt.Errorf("schema: %w", err)
		}
	}
	s := r.Reflect(v)
	s.ID = jsonschema.ID(c.ID)
	s.Title = c.Title
	s.Description = c.Description
	for _, d := range s.Definitions {
		bareRefs(d)
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// bareRefs drops the descriptions a field's comment put beside a $ref: the
// referenced type has its own, and a $ref with a description of its own
// reads as a type of its own to the action's type generator.
func bareRefs(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.Ref != "" {
		s.Description = ""
	}
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			bareRefs(p.Value)
		}
	}
	bareRefs(s.Items)
	bareRefs(s.AdditionalProperties)
	for _, x := range append(s.OneOf, s.AnyOf...) {
		bareRefs(x)
	}
}

// JSONSchemaExtend makes the kinds an enum.
func (Violation) JSONSchemaExtend(s *jsonschema.Schema) { enum(s, "kind", Kinds) }

// JSONSchemaExtend makes the finding kinds an enum.
func (Finding) JSONSchemaExtend(s *jsonschema.Schema) {
	enum(s, "kind", []string{KindLint, KindBreaking, KindAvro, KindAvroMismatch})
}

// JSONSchemaExtend makes an element's kind a finding kind.
func (Element) JSONSchemaExtend(s *jsonschema.Schema) {
	enum(s, "kind", []string{KindLint, KindBreaking, KindAvro, KindAvroMismatch})
}

// JSONSchemaExtend makes stage names an enum.
func (Stage) JSONSchemaExtend(s *jsonschema.Schema) { enum(s, "name", StageNames) }

// JSONSchemaExtend makes the kind an enum.
func (FunctionCost) JSONSchemaExtend(s *jsonschema.Schema) { enum(s, "kind", FunctionKinds) }

// JSONSchemaExtend makes the metric an enum.
func (AddedFigure) JSONSchemaExtend(s *jsonschema.Schema) { enum(s, "metric", AddedMetrics) }

// JSONSchemaExtend makes the status an enum.
func (Message) JSONSchemaExtend(s *jsonschema.Schema) { enum(s, "status", Statuses) }

// JSONSchemaExtend makes the result an enum.
func (Report) JSONSchemaExtend(s *jsonschema.Schema) { enum(s, "result", Results) }

// JSONSchemaExtend makes the measure mode an enum.
func (Change) JSONSchemaExtend(s *jsonschema.Schema) {
	enum(s, "measure", []string{MeasureChanged, MeasureAll})
}

// JSONSchemaExtend makes the figures an enum.
func (Coverage) JSONSchemaExtend(s *jsonschema.Schema) {
	if p, ok := s.Properties.Get("expected"); ok && p.Items != nil {
		p.Items.Enum = anys(Figures)
	}
	if p, ok := s.Properties.Get("cut"); ok {
		p.PropertyNames = &jsonschema.Schema{Enum: anys(Figures)}
	}
}

// JSONSchemaExtend makes what set a floor an enum.
func (Metric) JSONSchemaExtend(s *jsonschema.Schema) {
	enum(s, "noise_floor_from", []string{FloorFromFormat, FloorFromCounts})
}

// JSONSchemaExtend lets a value be null where the commit had no figure.
func (HistorySeries) JSONSchemaExtend(s *jsonschema.Schema) {
	if p, ok := s.Properties.Get("values"); ok {
		p.Items = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "number"}, {Type: "null"}}}
	}
}

// JSONSchema is what MarshalJSON writes: a center that is null when it is
// not finite, bounds that are absent when benchmath could not compute them.
func (Summary) JSONSchema() *jsonschema.Schema {
	props := jsonschema.NewProperties()
	props.Set("center", &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "number"}, {Type: "null"}}})
	props.Set("lo", &jsonschema.Schema{Type: "number"})
	props.Set("hi", &jsonschema.Schema{Type: "number"})
	props.Set("n", &jsonschema.Schema{Type: "integer"})
	return &jsonschema.Schema{Type: "object", Properties: props, Required: []string{"center", "n"},
		AdditionalProperties: jsonschema.FalseSchema,
		Description:          "Summary is benchmath's summary of one side's samples (for instr/op: the processes' counts)."}
}

// enum sets property key of s to one of words.
func enum(s *jsonschema.Schema, key string, words []string) {
	if p, ok := s.Properties.Get(key); ok {
		p.Enum = anys(words)
	}
}

func anys(words []string) []any {
	out := make([]any, len(words))
	for i, w := range words {
		out[i] = w
	}
	return out
}

// Validate checks a report.json's text against SchemaFile: the one line
// says where it breaks the contract.
func Validate(text []byte) error { return reportSchema.Validate(text) }

var reportSchema = NewValidator("report.schema.json", SchemaFile)

// Validator checks a contract's text against its schema, compiled once.
type Validator struct {
	name     string
	file     []byte
	once     sync.Once
	compiled *validator.Schema
	err      error
}

// NewValidator checks texts against file, a contract's schema named name
// in its errors.
func NewValidator(name string, file []byte) *Validator { return &Validator{name: name, file: file} }

// Validate checks text against the schema: the one line says where it
// breaks the contract.
func (v *Validator) Validate(text []byte) error {
	v.once.Do(func() {
		doc, err := validator.UnmarshalJSON(bytes.NewReader(v.file))
		if err != nil {
			v.err = err
			return
		}
		c := validator.NewCompiler()
		if err = c.AddResource(v.name, doc); err == nil {
			v.compiled, err = c.Compile(v.name)
		}
		v.err = err
	})
	if v.err != nil {
		return fmt.Errorf("%s: %w", v.name, v.err)
	}
	doc, err := validator.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := v.compiled.Validate(doc); err != nil {
		var ve *validator.ValidationError
		if errors.As(err, &ve) {
			return fmt.Errorf("does not match %s: %s", v.name, firstCause(ve))
		}
		return err
	}
	return nil
}

// firstCause is the deepest first cause of a validation error, in one
// line: where, and what.
func firstCause(e *validator.ValidationError) string {
	for len(e.Causes) > 0 {
		e = e.Causes[0]
	}
	return fmt.Sprintf("at /%s: %s", strings.Join(e.InstanceLocation, "/"), e.ErrorKind.LocalizedString(message.NewPrinter(language.English)))
}
