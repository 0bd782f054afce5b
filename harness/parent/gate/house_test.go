package gate_test

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The house rules of package gate, read from its own code with go/types:
//
//   - Only the sequencer writes the report: the run's report (run.r) is
//     named in gate.go alone, and the report type in gate.go, enter.go
//     (how each stage's result enters it) and run.go (the field) alone.
//   - Every file's references to the others' definitions run one way: the
//     files form no circle, so each stage sits below what calls it and the
//     sequencers (gate.go, plan.go) on top.
//   - A stage function returns what it found and the sequencer assigns it:
//     it takes neither the report nor one of the run's mutable fields as
//     input, and assigns no field of the run (TestStagesTakeNoReportAndLeaveNothingInTheRun).
func TestTheSequencerAloneWritesTheReportAndNoFileReachesBackUp(t *testing.T) {
	fset, files, info, pkg := readGate(t)
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
	if names := sortedKeys(typed); !slices.Equal(names, []string{"enter.go", "gate.go", "run.go"}) {
		t.Errorf("report.Report is named in %v, want gate.go, enter.go and run.go alone", names)
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

// readGate parses package gate's non-test files and resolves its own
// names with go/types.
func readGate(t *testing.T) (*token.FileSet, []*ast.File, *types.Info, *types.Package) {
	t.Helper()
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
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}}
	// Only the package's own names matter here: what its imports define
	// may stay unresolved (no export data needed), the package's own
	// definitions and their uses resolve all the same.
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", nil), Error: func(error) {}}
	pkg, _ := conf.Check("gate", fset, files, info)
	return fset, files, info, pkg
}

// A stage function is one that runs a stage: its body calls the journal's
// stage (run.go), or it is the work a stage runs: passed to stage as its
// body, called by name inside the function literal passed to it, or
// called, to the end of the call tree, by any of those; the journal's own
// functions beside stage (run.go: warn, firstError, by name) are not
// stages, they write the journal the sequencer copies into the report. Such
// a function returns what it found and the sequencer (gate.go, plan.go)
// assigns it to the run and enters it in the report; so a stage function
//
//   - takes no *report.Report, no *run beside its receiver, and no pointer
//     to a field of the run (as its type: *inputs.Settings, *tools,
//     *journal, *budget.Budget, *report.Against, ...) as a parameter: the
//     run's mutable fields are not its input. A *side is allowed: the
//     sides are checkouts the checks read (bufCheck), and *Options never
//     changes;
//   - assigns no field of the run (g.s = ..., g.base.rev = ..., *g.base
//     = ...): what it found is its result, not something left in the run.
//
// The types are compared as written (the imports stay unresolved here).
func TestStagesTakeNoReportAndLeaveNothingInTheRun(t *testing.T) {
	fset, files, info, pkg := readGate(t)
	where := func(p token.Pos) string {
		pos := fset.Position(p)
		return filepath.Base(pos.Filename) + ":" + strconv.Itoa(pos.Line)
	}
	runType, ok := pkg.Scope().Lookup("run").Type().Underlying().(*types.Struct)
	if !ok {
		t.Fatal("package gate has no run struct: the test no longer reads it")
	}
	runFields := map[*types.Var]bool{}
	for f := range runType.Fields() {
		runFields[f] = true
	}
	stageFunc, runStageFunc := pkg.Scope().Lookup("stage"), pkg.Scope().Lookup("runStage")
	if stageFunc == nil || runStageFunc == nil {
		t.Fatal("package gate has no stage or runStage function: the test no longer reads it")
	}
	forbidden := map[string]bool{"*report.Report": true, "*run": true}
	decls := map[types.Object]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			decls[info.Defs[fd.Name]] = fd
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.Name.Name != "run" {
				return true
			}
			for _, fl := range ts.Type.(*ast.StructType).Fields.List {
				typ := types.ExprString(fl.Type)
				if !strings.HasPrefix(typ, "*") {
					typ = "*" + typ
				}
				forbidden[typ] = true
			}
			return false
		})
	}
	delete(forbidden, "*Options") // as given, never changed
	delete(forbidden, "*side")    // a checkout the checks read
	if len(forbidden) < 8 {
		t.Fatalf("the run's fields make %d forbidden parameter types: the test no longer reads the run", len(forbidden))
	}

	// The stage functions: those calling stage (or runStage, a stage begun
	// before it runs), and those they run.
	stages := map[*ast.FuncDecl]bool{}
	named := func(e ast.Expr) *ast.FuncDecl {
		switch x := e.(type) {
		case *ast.Ident:
			return decls[info.Uses[x]]
		case *ast.SelectorExpr:
			return decls[info.Uses[x.Sel]]
		}
		return nil
	}
	for _, fd := range decls {
		if fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fun := call.Fun
			if ix, ok := fun.(*ast.IndexListExpr); ok {
				fun = ix.X
			}
			if ix, ok := fun.(*ast.IndexExpr); ok {
				fun = ix.X
			}
			if id, ok := fun.(*ast.Ident); !ok || info.Uses[id] != stageFunc && info.Uses[id] != runStageFunc || len(call.Args) != 4 {
				return true
			}
			stages[fd] = true
			switch body := call.Args[3].(type) {
			case *ast.FuncLit:
				ast.Inspect(body.Body, func(n ast.Node) bool {
					if c, ok := n.(*ast.CallExpr); ok {
						if d := named(c.Fun); d != nil {
							stages[d] = true
						}
					}
					return true
				})
			default:
				if d := named(body); d != nil {
					stages[d] = true
				}
			}
			return true
		})
	}
	// And everything they call in the package, to the end of the call
	// tree: a helper of a stage is part of its work.
	for grew := true; grew; {
		grew = false
		for fd := range stages {
			if fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					if d := named(c.Fun); d != nil && !stages[d] && !sequencers[d.Name.Name] {
						stages[d], grew = true, true
					}
				}
				return true
			})
		}
	}
	// The journal's own functions (run.go), by name: what stage runs is
	// checked, stage itself and its journal helpers write the journal; and
	// the sequencers, which assign what the stages return.
	for fd := range stages {
		if journal[fd.Name.Name] && fset.File(fd.Pos()) == fset.File(stageFunc.Pos()) || sequencers[fd.Name.Name] {
			delete(stages, fd)
		}
	}
	if len(stages) < 10 {
		t.Fatalf("%d stage functions found: the test no longer recognises them", len(stages))
	}

	var bad []string
	for fd := range stages {
		for _, p := range fd.Type.Params.List {
			if typ := types.ExprString(p.Type); forbidden[typ] {
				bad = append(bad, fmt.Sprintf("%s: stage function %s takes a %s: give it what it reads as a value, and let the sequencer write the result", where(p.Pos()), fd.Name.Name, typ))
			}
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			var lhs []ast.Expr
			switch s := n.(type) {
			case *ast.AssignStmt:
				if s.Tok == token.DEFINE {
					return true
				}
				lhs = s.Lhs
			case *ast.IncDecStmt:
				lhs = []ast.Expr{s.X}
			default:
				return true
			}
			for _, e := range lhs {
				if f := runFieldIn(e, info, runFields); f != "" {
					bad = append(bad, fmt.Sprintf("%s: stage function %s assigns the run's %s: return it and let the sequencer assign it", where(e.Pos()), fd.Name.Name, f))
				}
			}
			return true
		})
	}
	slices.Sort(bad)
	for _, b := range bad {
		t.Error(b)
	}
	t.Logf("%d stage functions", len(stages))
}

// journal are run.go's functions that are no stage's work: the journal
// (stage, warn, firstError) and the run's own set-up (newRun, tmpDir).
var journal = map[string]bool{"stage": true, "beginStage": true, "runStage": true, "warn": true, "firstError": true, "newRun": true, "tmpDir": true}

// sequencers are the functions that run the stages in order and assign
// what they return to the run (gate.go: Run, start; plan.go: Plan).
var sequencers = map[string]bool{"Run": true, "start": true, "Plan": true}

// runFieldIn is the run field an assigned expression writes into (g.s,
// g.base.rev, *g.base, g.r.Env.Count), or "".
func runFieldIn(e ast.Expr, info *types.Info, runFields map[*types.Var]bool) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s != nil {
				if v, ok := s.Obj().(*types.Var); ok && runFields[v] {
					return x.Sel.Name
				}
			}
			e = x.X
		default:
			return ""
		}
	}
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
