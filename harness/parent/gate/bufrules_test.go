package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// loosen makes dir's buf.yaml except FIELD_NO_DELETE from its breaking rules.
func loosen(t *testing.T, dir string) {
	t.Helper()
	replaceIn(t, filepath.Join(dir, "buf.yaml"), "breaking:\n  use:\n    - FILE\n", "breaking:\n  use:\n    - FILE\n  except:\n    - FIELD_NO_DELETE\n")
}

// A pull request that deletes a field and excepts FIELD_NO_DELETE in its
// own buf.yaml fails on the deletion: the base's rules judge it, the
// report says in one line how head's rules would change them, and the
// finding is a breaking change like any other (the allow label allows it).
// Where both sides' rules are the same, the report says nothing of them.
func TestAPullRequestCannotLoosenTheBufRulesThatJudgeIt(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, orderProto), "  int32 quantity = 3;\n", "")
	loosen(t, head)
	r := run(t, base, head, nil)
	want := "buf.yaml loosens breaking: `except: FIELD_NO_DELETE` (judged by the base's rules; applies once merged)"
	if r.BufRules == nil || r.BufRules.Change != want || strings.Join(r.BufRules.From, "; ") != "the base's buf.yaml" {
		t.Fatalf("buf rules %+v, want the change %q", r.BufRules, want)
	}
	if r.ExitCode != 1 || !hasViolation(r, report.KindBreaking, orderProto, false) || !hasFinding(r, report.KindBreaking, "FIELD_NO_DELETE", orderProto) {
		t.Fatalf("exit %d, violations %+v: want the deleted field to fail", r.ExitCode, r.Violations)
	}

	allowed := run(t, base, head, func(_ map[string]string, o *gate.Options) { labeled(o, "wiregate allow breaking") })
	if allowed.ExitCode != 0 || !hasViolation(allowed, report.KindBreaking, orderProto, true) {
		t.Fatalf("allowed: exit %d, violations %+v", allowed.ExitCode, allowed.Violations)
	}

	// A/A: the rule in both, no schema change.
	base, head = checkouts(t)
	loosen(t, base)
	loosen(t, head)
	if aa := run(t, base, head, nil); aa.BufRules != nil || aa.ExitCode != 0 {
		t.Fatalf("A/A: exit %d, buf rules %+v", aa.ExitCode, aa.BufRules)
	}
}

// A check plugin a v2 buf.yaml at the repository's root declares over the
// v1 module at buf-input: buf would find that file itself; the gate finds
// it first, runs lint with it less the plugin, and says so. The planted
// lint violation is still found.
func TestARootConfigOverTheModuleRunsNoPlugin(t *testing.T) {
	base, head := checkouts(t)
	for _, dir := range []string{base, head} {
		os.Remove(filepath.Join(dir, "buf.yaml"))
		os.WriteFile(filepath.Join(dir, "schemas", "buf.yaml"), []byte("version: v1\nlint:\n  use: [DEFAULT]\nbreaking:\n  use: [FILE]\n"), 0o644)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	plant(t, filepath.Join(head, "tools", "lint-plugin"), marker, "")
	os.WriteFile(filepath.Join(head, "buf.yaml"), []byte("version: v2\nmodules:\n  - path: schemas\nplugins:\n  - plugin: ./tools/lint-plugin\n"), 0o644)
	replaceIn(t, filepath.Join(head, orderProto), "int32 quantity = 3;", "int32 Quantity = 3;")
	r := run(t, base, head, func(in map[string]string, _ *gate.Options) { in["buf-input"] = "schemas" })
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("the pull request's plugin ran:\n%s", b)
	}
	if !hasFinding(r, report.KindLint, "FIELD_LOWER_SNAKE_CASE", orderProto) {
		t.Fatalf("lint did not find the planted violation: findings %+v, errors %q", r.Findings, r.Errors)
	}
	said := 0
	for _, w := range r.Warnings {
		if strings.Contains(w, "check plugin ./tools/lint-plugin (the base's buf.yaml does not declare it)") {
			said++
		}
	}
	if said != 1 {
		t.Fatalf("warnings %q: want one naming the plugin left out", r.Warnings)
	}
	if r.BufRules == nil || strings.Join(r.BufRules.From, "; ") != "the base's schemas/buf.yaml (v1), as `buf config migrate` translates it" {
		t.Fatalf("buf rules %+v", r.BufRules)
	}
}

// hasViolation says whether r has a violation of kind on file, allowed
// by a label or not.
func hasViolation(r *report.Report, kind, file string, allowed bool) bool {
	for _, v := range r.Violations {
		if v.Kind == kind && v.File == file && v.Allowed == allowed {
			return true
		}
	}
	return false
}

func hasFinding(r *report.Report, kind, rule, file string) bool {
	for _, f := range r.Findings {
		if f.Kind == kind && f.Rule == rule && f.File == file {
			return true
		}
	}
	return false
}

// buf-input a module a v2 buf.yaml above it names, with no buf.yaml of its
// own: the gate resolves that file, lints with it, and builds and measures
// the module with it too (buf never searches for it). Head's proto change
// is measured: without the config, the module's own .avsc files alone
// would stand for it, and they did not change.
func TestAModuleNamedByARootConfigIsMeasured(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "int64 sequence_num = 11;", "sfixed64 sequence_num = 11;")
	r := run(t, base, head, func(in map[string]string, _ *gate.Options) {
		in["buf-input"] = "schemas"
		in["cpu-cost"] = "off"
	})
	if pb := sizesOf(t, r)["protobuf"]; pb == nil || pb.Head <= pb.Base {
		t.Fatalf("protobuf size %+v: want head's sfixed64 measured larger", pb)
	}
}
