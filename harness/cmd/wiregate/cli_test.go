package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/internal/gittest"
)

// One binary, any repository: wiregate built with -trimpath and copied
// out of this repository, run with a fresh HOME and caches and no
// WIREGATE_HARNESS, in a fresh git repository whose feature branch
// changes one message, gates it against the merge base with the default
// branch and prints the report; the bench module it builds points at no
// path of this repository. Third-party modules come from the machine's
// module cache (or the proxy), as in any Go build.
func TestTheInstalledCLIGatesAFreshRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("builds wiregate and its bench programs with an empty build cache")
	}
	root, err := filepath.Abs(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	bin := filepath.Join(home, "bin", "wiregate")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/wiregate")
	build.Dir = filepath.Join(root, "harness")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	modcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	env := []string{
		"HOME=" + home,
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"GOCACHE=" + filepath.Join(home, ".cache", "go-build"),
		"GOMODCACHE=" + strings.TrimSpace(string(modcache)),
		"GOFLAGS=-modcacherw",
		"GOPROXY=" + os.Getenv("GOPROXY"),
		// buf of the pinned version on PATH, outside the repository gated.
		"PATH=" + filepath.Join(root, "node_modules", ".bin") + string(os.PathListSeparator) + os.Getenv("PATH"),
	}
	git := func(dir string, args ...string) string { t.Helper(); return gittest.Git(t, dir, env, args...) }
	// origin holds main; the clone is a developer's: origin/HEAD is main.
	work := filepath.Join(home, "src")
	seed := filepath.Join(work, "seed")
	if out, err := exec.Command("cp", "-r", filepath.Join(root, "schemas"), filepath.Join(root, "buf.yaml"), mkdir(t, seed)).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	git(seed, "init", "-q", "-b", "main")
	git(seed, "add", ".")
	git(seed, "commit", "-qm", "schemas")
	git(work, "clone", "-q", "--bare", seed, "origin.git")
	repo := filepath.Join(work, "repo")
	git(work, "clone", "-q", filepath.Join(work, "origin.git"), repo)
	forked := git(repo, "rev-parse", "HEAD")

	wiregate := func(args ...string) result {
		t.Helper()
		return runIn(t, bin, repo, env, args...)
	}
	fast := []string{"--messages", "orders.v1.Order", "--cpu-cost", "off", "--pipeline=false", "--count", "2", "--history=false", "--out", filepath.Join(home, "out")}

	// An A/A on main itself: nothing changed, exit 0, the report printed.
	aa := wiregate(append([]string{"gate", "--format", "markdown"}, fast...)...)
	if aa.code != 0 || !strings.HasPrefix(aa.stdout, "## ✅ wiregate: pass — no schema changed\n") {
		t.Fatalf("A/A: exit %d\n%s\n%s", aa.code, aa.stdout, aa.stderr)
	}

	// One message changed on a branch: a counter made fixed-width grows
	// every record's same content (an addition would be stated, not fail).
	git(repo, "checkout", "-qb", "feature")
	proto := filepath.Join(repo, "schemas", "orders", "v1", "order.proto")
	b, err := os.ReadFile(proto)
	if err != nil {
		t.Fatal(err)
	}
	grown := strings.Replace(string(b), "int32 quantity = 3;", "sfixed64 quantity = 3;", 1)
	if grown == string(b) {
		t.Fatal("could not grow the message")
	}
	if err := os.WriteFile(proto, []byte(grown), 0o644); err != nil {
		t.Fatal(err)
	}
	git(repo, "commit", "-qam", "grow Order")
	r := wiregate(append([]string{"gate", "--format", "markdown"}, fast...)...)
	if r.code != 1 || !strings.HasPrefix(r.stdout, "## ❌ wiregate: fail — ") || !regexp.MustCompile(`size \+\d`).MatchString(strings.SplitN(r.stdout, "\n", 2)[0]) {
		t.Fatalf("exit %d, want 1 with a size violation\nstdout:\n%.3000s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	// Against the merge base with the default branch, named by it.
	if !strings.Contains(r.stderr, "wiregate: against main at "+forked[:12]) || !strings.Contains(r.stdout, "base `main` @ "+forked[:7]) {
		t.Errorf("not against main's merge base %s:\n%s", forked[:7], r.stderr)
	}
	// The bench module replaces the harness with the source the binary
	// carries, written into the fresh cache: no path of this repository.
	mods, _ := filepath.Glob(filepath.Join(home, ".cache", "wiregate", "bench", "*", "go.mod"))
	if len(mods) == 0 {
		t.Fatal("no bench module in the fresh cache")
	}
	for _, m := range mods {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range regexp.MustCompile(`(?m)^replace .* => (.*)$`).FindAllStringSubmatch(string(b), -1) {
			if p, _ := filepath.Abs(l[1]); strings.HasPrefix(p, root+string(filepath.Separator)) || !strings.HasPrefix(p, filepath.Join(home, ".cache", "wiregate", "harness")) {
				t.Errorf("%s replaces with %s", m, l[1])
			}
		}
	}

	// With nothing to go on — no origin, no CI variable — one line says what to pass.
	lone := filepath.Join(work, "lone")
	git(work, "clone", "-q", seed, lone)
	git(lone, "remote", "remove", "origin")
	none := runIn(t, bin, lone, env, "gate", "--quiet", "--out", filepath.Join(home, "none"))
	lines := strings.Split(strings.TrimSpace(none.stderr), "\n")
	if none.code != 2 || len(lines) != 2 || !strings.Contains(lines[1], "no base to compare with: pass --against REF") {
		t.Errorf("nothing to go on: exit %d\n%s", none.code, none.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(home, "none", "report.md")); err != nil || !strings.HasPrefix(string(b), "## ⛔ wiregate could not run: no base to compare with: pass --against REF") {
		t.Errorf("the report of a run with nothing to go on:\n%.300s", b)
	}
}

func mkdir(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
