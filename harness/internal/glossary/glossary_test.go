// Package glossary holds the test that keeps the code's names to the one
// meaning each word has (docs/harness.md, "Words: one meaning each").
package glossary

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// decl is one declaration as the rules read it: its package, its kind
// (type, func — methods too, with their receiver as owner —, field, with
// its struct as owner, or value: a package-level const or var), its name
// and, for a field, its type as written.
type decl struct{ pkg, kind, owner, name, typ string }

// retired is a meaning a word no longer has in the code: a declaration
// the rule matches fails, and its message names the glossary word to use.
type retired struct {
	rule    string
	matches func(d decl) bool
	use     string
}

// wordsOf splits a name into its lower-case words: camel case, with an
// acronym apart from the word after it ("CPUForecast" → cpu, forecast;
// "measuredPrices" → measured, prices).
func wordsOf(name string) []string {
	var out []string
	start := 0
	for i := 1; i < len(name); i++ {
		prev, c := name[i-1], name[i]
		upper := func(b byte) bool { return b >= 'A' && b <= 'Z' }
		lower := func(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
		if upper(c) && lower(prev) || upper(c) && upper(prev) && i+1 < len(name) && lower(name[i+1]) || c == '_' {
			if w := strings.Trim(name[start:i], "_"); w != "" {
				out = append(out, strings.ToLower(w))
			}
			start = i
		}
	}
	if w := strings.Trim(name[start:], "_"); w != "" {
		out = append(out, strings.ToLower(w))
	}
	return out
}

func hasWord(name string, words ...string) bool {
	return slices.ContainsFunc(wordsOf(name), func(w string) bool { return slices.Contains(words, w) })
}

// The names that keep a word in its one meaning, by word.
var (
	// plan is the `wiregate plan` command and its plan.json only.
	planKept = []decl{{pkg: "gate", kind: "func", name: "Plan"}, {pkg: "main", kind: "func", name: "cmdPlan"},
		{pkg: "shard", kind: "func", name: "GeneratePlanSchema"}, {pkg: "shard", kind: "func", name: "ValidatePlan"},
		{pkg: "shard", kind: "value", name: "PlanSchemaFile"}, {pkg: "shard", kind: "value", name: "planSchema"}}
	// cost is instructions only: what an operation executes ("cpu cost",
	// the input cpu-cost and report.CPUCost, or a function's in a profile).
	costKept = []string{"FunctionCost", "FuncCost", "medianCost", "isCostLine"}
	// Count, as a field, is how many shards, the time counting takes, or
	// the bench program's --count (go test's flag, which the program keeps).
	countKept = []string{"inputs.Shard", "report.Shard", "report.Merged", "budget.Price", "budget.MessagePrice", "bench.Options", "benchprog.Timing"}
)

func kept(d decl, list []decl) bool {
	return slices.ContainsFunc(list, func(k decl) bool { return k.pkg == d.pkg && k.kind == d.kind && k.name == d.name })
}

// The rules, one per retired meaning (docs/harness.md, "Words: one meaning
// each"). A declaration is read by the words of its name, case apart, and
// where it is.
var retiredMeanings = []retired{
	{"plan is the `wiregate plan` command and plan.json only",
		func(d decl) bool { return hasWord(d.name, "plan", "plans") && !kept(d, planKept) },
		"forecast (budget.Forecast), cut (report.Cut), split (shard.Split), rounds (piperounds.Rounds) or mapping (record)"},
	{"cost is instructions only",
		func(d decl) bool {
			w := wordsOf(d.name)
			i := slices.IndexFunc(w, func(x string) bool { return x == "cost" || x == "costs" })
			return i >= 0 && !(i > 0 && w[i-1] == "cpu") && d.pkg != "cpucost" && !slices.Contains(costKept, d.name)
		},
		"measuring time (report.MeasuringTime), price (budget.MessagePrice, roundPrice) or instructions (report.CPUCost, instr/op)"},
	{"unit is a unit of measure only",
		func(d decl) bool {
			if !hasWord(d.name, "unit", "units") {
				return false
			}
			switch d.kind {
			case "value":
				return false // the units' names and tables (timeUnit, exactUnits, SizeUnit)
			case "field":
				return d.typ != "string" && d.typ != "[]string" // a unit of measure is named by a string
			}
			return true
		},
		"price (budget.MessagePrice, a message's per-stage measuring time), process (countProcess) or batch (countBatch)"},
	{"Count is no number of rounds",
		func(d decl) bool {
			return d.kind == "field" && (d.name == "Count" || d.name == "MinCount") && !slices.Contains(countKept, d.pkg+"."+d.owner)
		},
		"rounds (Settings.Rounds, BenchCut.Rounds, Env.Rounds, budget.Prices.Rounds, Bench.Rounds, BenchForecast.Rounds; the input and the JSON field keep count)"},
	{"measured is a state, not a definition of gate/",
		func(d decl) bool {
			return d.pkg == "gate" && d.kind != "field" && strings.EqualFold(d.name, "measured")
		},
		"stageResults (what the measuring stages returned), fitted (what fits the budget)"},
}

// TestNoNameTakesARetiredMeaning parses every non-test, non-generated Go
// file under harness/ and fails on each type, func, method, struct field
// or package-level value named with a meaning the glossary retired,
// naming its file:line and the word to use.
func TestNoNameTakesARetiredMeaning(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var bad []string
	files, decls := 0, 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") && path != root {
				return filepath.SkipDir
			}
			if filepath.ToSlash(path) == filepath.ToSlash(filepath.Join(root, "parent/compare/internal")) {
				return filepath.SkipDir // golang.org/x/perf's benchstat tables, adapted: upstream's names
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		files++
		for _, dc := range declsOf(f) {
			decls++
			for _, r := range retiredMeanings {
				if r.matches(dc.decl) {
					rel, _ := filepath.Rel(root, fset.Position(dc.pos).Filename)
					what := dc.pkg + "." + dc.name
					if dc.owner != "" {
						what = dc.pkg + "." + dc.owner + "." + dc.name
					}
					bad = append(bad, fmt.Sprintf("harness/%s:%d: %s %s breaks %q: the glossary's word is %s",
						filepath.ToSlash(rel), fset.Position(dc.pos).Line, dc.kind, what, r.rule, r.use))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 || decls < 1000 {
		t.Fatalf("read %d files, %d declarations under %s: the walk no longer reads harness/", files, decls, root)
	}
	slices.Sort(bad)
	for _, b := range bad {
		t.Error(b)
	}
	t.Logf("%d files, %d declarations", files, decls)
}

type placed struct {
	decl
	pos token.Pos
}

// declsOf is every declaration of f the rules read.
func declsOf(f *ast.File) []placed {
	pkg := f.Name.Name
	var out []placed
	add := func(id *ast.Ident, kind, owner, typ string) {
		out = append(out, placed{decl{pkg, kind, owner, id.Name, typ}, id.Pos()})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			add(d.Name, "func", receiver(d), "")
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					add(s.Name, "type", "", "")
					if st, ok := s.Type.(*ast.StructType); ok {
						for _, field := range st.Fields.List {
							for _, n := range field.Names {
								add(n, "field", s.Name.Name, types.ExprString(field.Type))
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						add(n, "value", "", "")
					}
				}
			}
		}
	}
	return out
}

// receiver is a method's receiver type name, "" for a func.
func receiver(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	e := d.Recv.List[0].Type
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ix.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// The rules catch what they are for: each retired name the issue and the
// renames named, declared again, is caught; the names that keep their
// meaning pass.
func TestTheRulesCatchWhatTheyRetire(t *testing.T) {
	hits := func(d decl) int {
		n := 0
		for _, r := range retiredMeanings {
			if r.matches(d) {
				n++
			}
		}
		return n
	}
	for _, d := range []decl{
		{"report", "type", "", "Plan", ""}, {"report", "field", "Report", "Plan", "*Plan"}, {"budget", "func", "Budget", "Plan", ""},
		{"shard", "type", "", "Plan", ""}, {"piperounds", "func", "", "Plan", ""}, {"budget", "type", "", "CPUPlan", ""},
		{"gate", "type", "", "ShardPlan", ""}, {"record", "type", "", "plan", ""}, {"record", "type", "", "fieldPlan", ""},
		{"gate", "field", "timings", "plan", "budget.BenchForecast"}, {"gate", "field", "counts", "plan", "budget.CPUForecast"},
		{"report", "type", "", "Cost", ""}, {"report", "field", "Report", "Costs", "[]Cost"}, {"history", "field", "Point", "Costs", "[]report.Cost"},
		{"history", "func", "Point", "CostsOf", ""}, {"gate", "func", "", "costsOf", ""}, {"budget", "field", "Message", "Cost", "time.Duration"},
		{"budget", "func", "", "roundCost", ""}, {"budget", "field", "CPUForecast", "Cost", "time.Duration"},
		{"budget", "type", "", "Unit", ""}, {"budget", "func", "", "StaticUnit", ""}, {"gate", "type", "", "countUnit", ""},
		{"gate", "field", "measuredPrices", "units", "map[string]budget.Unit"}, {"gate", "func", "measuredPrices", "unitOf", ""},
		{"inputs", "field", "Settings", "Count", "int"}, {"report", "field", "Env", "Count", "int"}, {"budget", "field", "Prices", "MinCount", "int"},
		{"budget", "field", "BenchForecast", "Count", "int"}, {"gate", "type", "", "measured", ""}, {"gate", "func", "sizes", "measured", ""},
	} {
		if hits(d) == 0 {
			t.Errorf("%s %s.%s.%s is not caught", d.kind, d.pkg, d.owner, d.name)
		}
	}
	for _, d := range []decl{
		{"gate", "func", "", "Plan", ""}, {"shard", "func", "", "ValidatePlan", ""}, {"shard", "value", "", "PlanSchemaFile", ""},
		{"report", "field", "Report", "Cut", "*Cut"}, {"budget", "type", "", "Forecast", ""}, {"report", "type", "", "CPUCost", ""},
		{"report", "type", "", "FunctionCost", ""}, {"cpucost", "func", "", "isCostLine", ""}, {"gate", "field", "counts", "cpuCost", "*report.CPUCost"}, {"inputs", "func", "", "parseCPUCost", ""},
		{"history", "value", "", "SizeUnit", ""}, {"report", "field", "Metric", "Unit", "string"}, {"gate", "value", "", "timeUnit", ""},
		{"inputs", "field", "Shard", "Count", "int"}, {"shard", "func", "", "Count", ""}, {"budget", "field", "Price", "Count", "time.Duration"},
		{"benchprog", "field", "Timing", "Count", "int"}, {"bench", "func", "", "Measured", ""}, {"gate", "type", "", "measuredPrices", ""},
	} {
		if n := hits(d); n != 0 {
			t.Errorf("%s %s.%s.%s is caught, yet keeps its meaning", d.kind, d.pkg, d.owner, d.name)
		}
	}
	if got := strings.Join(wordsOf("CPUForecast"), " ") + "|" + strings.Join(wordsOf("measuredPrices"), " ") + "|" + strings.Join(wordsOf("PlanSchemaFile"), " "); got != "cpu forecast|measured prices|plan schema file" {
		t.Errorf("words: %s", got)
	}
}
