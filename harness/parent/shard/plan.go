package shard

import (
	_ "embed"
	"encoding/json"
	"path/filepath"
	"strconv"

	"github.com/invopop/jsonschema"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Split is mode: plan's answer, plan.json: how many shards measure the
// change within time-budget each, the matrix that runs them, and what
// each takes. Every shard computes the same split from the same schemas
// and inputs; the parts here are for reading.
type Split struct {
	Shards int    `json:"shards"`
	Matrix Matrix `json:"matrix"`
	// Needed is how many shards it would take uncapped by max-shards.
	Needed          int            `json:"needed"`
	MaxShards       int            `json:"max_shards"`
	PriceSeconds    float64        `json:"price_seconds"`
	CapacitySeconds float64        `json:"capacity_seconds"` // of one shard
	Parts           []Part         `json:"parts"`
	Change          *report.Change `json:"change,omitempty"`
	// Note says in one line what the plan is, or why it is one shard: the
	// gate jobs then report whatever stopped it.
	Note string `json:"note"`
}

// Part is one shard of a plan.
type Part struct {
	Shard string `json:"shard"` // its name in the matrix: 2/8
	// Artifact is what the shard's part uploads as (PartName): the same
	// name its report's shard section carries.
	Artifact     string   `json:"artifact"`
	Messages     []string `json:"messages"`
	PriceSeconds float64  `json:"price_seconds"`
}

// JSONSchemaExtend gives a part's names the contract's patterns.
func (Part) JSONSchemaExtend(s *jsonschema.Schema) {
	report.Pattern(s, "shard", report.ShardNamePattern)
	report.Pattern(s, "artifact", report.PartNamePattern)
}

// JSONSchemaExtend gives the matrix's shard names the contract's pattern.
func (Matrix) JSONSchemaExtend(s *jsonschema.Schema) {
	report.Pattern(s, "shard", report.ShardNamePattern)
}

// PlanSchemaFile is plan.json's JSON Schema, made from Split as
// report.schema.json is made from report.Report (report.SchemaOf),
// committed, and read by the action: its types are generated from it and
// it validates the plan.json `wiregate plan` writes. A test keeps it equal
// to what GeneratePlanSchema makes.
//
//go:embed plan.schema.json
var PlanSchemaFile []byte

// GeneratePlanSchema makes plan.json's JSON Schema from Split, with the doc
// comments of this package (dir: its directory) and of package report
// (the change) as descriptions.
func GeneratePlanSchema(dir string) ([]byte, error) {
	return report.SchemaOf(&Split{}, report.Contract{
		ID:          "https://github.com/wiregate/wiregate/harness/parent/shard/plan.schema.json",
		Title:       "ShardSplit",
		Description: "plan.json: how `wiregate plan` splits a change over a matrix of gate jobs (harness/parent/shard).",
		Package:     "github.com/wiregate/wiregate/harness/parent/shard",
		Dirs:        []string{dir, filepath.Join(dir, "..", "report")},
	})
}

// ValidatePlan checks a plan.json's text against PlanSchemaFile: the one
// line says where it breaks the contract.
func ValidatePlan(text []byte) error { return planSchema.Validate(text) }

var planSchema = report.NewValidator("plan.schema.json", PlanSchemaFile)

// JSONSchemaExtend bounds the shard counts by the one range of a shard
// input (inputs.MaxShards): a plan is 1 to that many shards; max-shards is
// 0 in the plan of a gate whose inputs did not parse.
func (Split) JSONSchemaExtend(s *jsonschema.Schema) {
	most := json.Number(strconv.Itoa(inputs.MaxShards))
	bound := func(key string, least json.Number) {
		if p, ok := s.Properties.Get(key); ok {
			p.Minimum, p.Maximum = least, most
		}
	}
	bound("shards", "1")
	bound("max_shards", "0")
	if p, ok := s.Properties.Get("needed"); ok {
		p.Minimum = "1"
	}
}
