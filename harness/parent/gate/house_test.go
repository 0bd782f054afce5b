package gate_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The house rules of package gate, read from its own code with go/types:
//
//   - Only the sequencer writes the report: the run's report (run.r) is
//     named in gate.go alone, and the report type in gate.go, record.go
//     (how each stage's result enters it) and run.go (the field) alone.
//   - Every file's references to the others' definitions run one way: the
//     files form no circle, so each stage sits below what calls it and the
//     sequencers (gate.go, plan.go) on top.
func TestTheSequencerAloneWritesTheReportAndNoFileReachesBackUp(t *testing.T) {
	fset := token.NewFileSet()
	// Absolute names: the importer finds the module from a file's folder.
	dir, _ := filepath.Abs(".")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	// Only the package's own names matter here: what its imports define
	// may stay unresolved (no export data needed), the package's own
	// definitions and their uses resolve all the same.
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", nil), Error: func(error) {}}
	pkg, _ := conf.Check("gate", fset, files, info)
	fileOf := func(p token.Pos) string { return filepath.Base(fset.Position(p).Filename) }

	report := map[string]bool{}
	for sel, s := range info.Selections {
		if v, ok := s.Obj().(*types.Var); ok && v.IsField() && v.Name() == "r" && v.Pkg() == pkg {
			report[fileOf(sel.Pos())] = true
		}
	}
	if names := sortedKeys(report); !slices.Equal(names, []string{"gate.go"}) {
		t.Errorf("the run's report is named in %v, want gate.go alone", names)
	}
	typed := map[string]bool{}
	arrows := map[string]map[string]bool{}
	for id, obj := range info.Uses {
		if obj == nil {
			continue
		}
		from := fileOf(id.Pos())
		if obj.Pkg() != pkg || !ownsAName(obj, pkg) {
			continue
		}
		if to := fileOf(obj.Pos()); to != from {
			if arrows[from] == nil {
				arrows[from] = map[string]bool{}
			}
			arrows[from][to] = true
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Report" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "report" {
					typed[fileOf(sel.Pos())] = true
				}
			}
			return true
		})
	}
	if names := sortedKeys(typed); !slices.Equal(names, []string{"gate.go", "record.go", "run.go"}) {
		t.Errorf("report.Report is named in %v, want gate.go, record.go and run.go alone", names)
	}
	if len(arrows) < len(files)/2 || len(typed) == 0 {
		t.Fatalf("%d files reference others and %d name report.Report: the package was not read", len(arrows), len(typed))
	}
	if circle := findCircle(arrows); circle != nil {
		t.Errorf("files reach back up: %s", strings.Join(circle, " -> "))
	}
	n := 0
	for _, to := range arrows {
		n += len(to)
	}
	t.Logf("%d files, %d arrows between them", len(files), n)
}

// ownsAName is a package-level definition or a method: what one file
// defines for others.
func ownsAName(obj types.Object, pkg *types.Package) bool {
	if obj.Parent() == pkg.Scope() {
		return true
	}
	f, ok := obj.(*types.Func)
	return ok && f.Type().(*types.Signature).Recv() != nil
}

// findCircle is one circle of arrows, or nil.
func findCircle(arrows map[string]map[string]bool) []string {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(string) []string
	visit = func(f string) []string {
		state[f] = open
		path = append(path, f)
		for _, to := range sortedKeys(arrows[f]) {
			switch state[to] {
			case open:
				return append(slices.Clone(path[slices.Index(path, to):]), to)
			case unseen:
				if c := visit(to); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[f] = done
		return nil
	}
	for _, f := range sortedKeys(arrows) {
		if state[f] == unseen {
			if c := visit(f); c != nil {
				return c
			}
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
