// Package glossary holds the test that keeps the code's names to the one
// meaning each word has (docs/harness.md, "Words: one meaning each").
package glossary

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// retired is a meaning a word no longer has in the code: a declaration
// the rule matches fails, and its message names the glossary word to use.
type retired struct {
	rule string
	// matches says whether a declaration (a type, a func or method, or a
	// struct field) of package pkg, named name, uses the retired meaning.
	matches func(pkg, kind, owner, name string) bool
	use     string
}

// The rules, one per retired meaning (docs/harness.md, "Words: one meaning
// each"). A declaration is read by its name and where it is: a type or
// func whose name says Plan, Cost, Unit or measured, or a field Count, in
// the retired sense.
var retiredMeanings = []retired{
	{"one exported Plan: the `wiregate plan` command (gate.Plan)",
		func(pkg, kind, owner, name string) bool {
			return name == "Plan" && kind != "field" && !(pkg == "gate" && kind == "func")
		},
		"forecast (budget.Forecast), cut (report.Cut), split (shard.Split) or rounds (piperounds.Rounds)"},
	{"no type named …Plan",
		func(pkg, kind, owner, name string) bool { return kind == "type" && strings.HasSuffix(name, "Plan") },
		"forecast (budget: CPUForecast, BenchForecast, PipelineForecast), cut (report: CPUCut, BenchCut, PipelineCut, ExactCut) or split (shard.Split, gate.ShardSplit)"},
	{"no type or func named Cost",
		func(pkg, kind, owner, name string) bool { return name == "Cost" && kind != "field" },
		"measuring time (report.MeasuringTime) or instructions (report.CPUCost, instr/op)"},
	{"unit is a unit of measure only",
		func(pkg, kind, owner, name string) bool {
			return (kind == "type" || kind == "func") && (name == "Unit" || strings.HasSuffix(name, "Unit") || strings.HasPrefix(name, "Unit") && kind == "type")
		},
		"price (budget.MessagePrice, a message's per-stage measuring time) or batch (countBatch, the messages one count process counts)"},
	{"Count is no number of rounds",
		func(pkg, kind, owner, name string) bool {
			return kind == "field" && (name == "Count" || name == "MinCount") && (pkg == "inputs" && owner == "Settings" || pkg == "report" && (owner == "BenchCut" || owner == "Env") ||
				pkg == "budget" && (owner == "Prices" || owner == "Bench" || owner == "BenchForecast"))
		},
		"rounds (Settings.Rounds, BenchCut.Rounds, Env.Rounds, budget.Prices.Rounds, Bench.Rounds, BenchForecast.Rounds; the input and the JSON field keep count)"},
	{"measured is no type",
		func(pkg, kind, owner, name string) bool { return kind == "type" && name == "measured" },
		"stageResults (what the measuring stages returned); measured is a state, never a definition's name in gate/"},
}

// TestNoNameTakesARetiredMeaning parses every non-test, non-generated Go
// file under harness/ and fails on each type, func, method or field named
// with a meaning the glossary retired, naming its file:line and the word
// to use.
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
		pkg := f.Name.Name
		check := func(id *ast.Ident, kind, owner string) {
			decls++
			for _, r := range retiredMeanings {
				if r.matches(pkg, kind, owner, id.Name) {
					rel, _ := filepath.Rel(root, fset.Position(id.Pos()).Filename)
					what := pkg + "." + id.Name
					if owner != "" {
						what = pkg + "." + owner + "." + id.Name
					}
					bad = append(bad, fmt.Sprintf("harness/%s:%d: %s %s breaks %q: the glossary's word is %s",
						filepath.ToSlash(rel), fset.Position(id.Pos()).Line, kind, what, r.rule, r.use))
				}
			}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				check(d.Name, "func", receiver(d))
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					check(ts.Name, "type", "")
					if st, ok := ts.Type.(*ast.StructType); ok {
						for _, field := range st.Fields.List {
							for _, n := range field.Names {
								check(n, "field", ts.Name.Name)
							}
						}
					}
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

// The rules catch what they are for: each retired meaning, declared
// again, is named; the words that keep their meaning pass.
func TestTheRulesCatchWhatTheyRetire(t *testing.T) {
	hits := func(pkg, kind, owner, name string) int {
		n := 0
		for _, r := range retiredMeanings {
			if r.matches(pkg, kind, owner, name) {
				n++
			}
		}
		return n
	}
	for _, c := range []struct{ pkg, kind, owner, name string }{
		{"report", "type", "", "Plan"}, {"budget", "func", "Budget", "Plan"}, {"shard", "type", "", "Plan"},
		{"piperounds", "func", "", "Plan"}, {"budget", "type", "", "CPUPlan"}, {"gate", "type", "", "ShardPlan"},
		{"report", "type", "", "Cost"}, {"budget", "type", "", "Unit"}, {"budget", "func", "", "StaticUnit"},
		{"gate", "type", "", "countUnit"}, {"inputs", "field", "Settings", "Count"}, {"gate", "type", "", "measured"},
		{"budget", "field", "Prices", "MinCount"}, {"budget", "field", "BenchForecast", "Count"},
	} {
		if hits(c.pkg, c.kind, c.owner, c.name) == 0 {
			t.Errorf("%s %s.%s is not caught", c.kind, c.pkg, c.name)
		}
	}
	for _, c := range []struct{ pkg, kind, owner, name string }{
		{"gate", "func", "", "Plan"}, {"report", "field", "Report", "Plan"}, {"report", "type", "", "CPUCost"},
		{"history", "const", "", "SizeUnit"}, {"inputs", "field", "Shard", "Count"}, {"shard", "func", "", "Count"},
		{"budget", "type", "", "Forecast"}, {"report", "type", "", "Cut"}, {"budget", "field", "Price", "Count"},
	} {
		if n := hits(c.pkg, c.kind, c.owner, c.name); n != 0 {
			t.Errorf("%s %s.%s is caught, yet keeps its meaning", c.kind, c.pkg, c.name)
		}
	}
}
