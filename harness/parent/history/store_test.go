package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// origin is a bare repository with one commit on main, as GitHub would
// hold it; clone makes a checkout of it as actions/checkout would.
func origin(t testing.TB) string {
	t.Helper()
	bare := filepath.Join(t.TempDir(), "origin.git")
	run(t, ".", "init", "-q", "--bare", "-b", "main", bare)
	seed := t.TempDir()
	run(t, seed, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(seed, "a.proto"), []byte("syntax = \"proto3\";\n"), 0o644)
	run(t, seed, "add", ".")
	run(t, seed, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "seed")
	run(t, seed, "push", "-q", bare, "main")
	return bare
}

func clone(t testing.TB, bare string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone")
	run(t, ".", "clone", "-q", bare, dir)
	return dir
}

func point(sha string, value float64) Point {
	return Point{Sha: sha, Ref: "main", Date: "2026-11-22T10:00:00Z",
		Figures: []Figure{{Message: "orders.v1.Order", Format: "protobuf", Metric: SizeMetric, Unit: SizeUnit, Value: value}}}
}

func sha(n int) string { return fmt.Sprintf("%040x", n) }

// lines is the store's file on origin's branch.
func lines(t *testing.T, bare string) []string {
	t.Helper()
	return strings.Split(run(t, bare, "cat-file", "blob", "refs/heads/wiregate-data:"+File), "\n")
}

// The user's checkout is left as it was: same HEAD, clean tree, no
// wiregate refs, no new branch.
func untouched(t *testing.T, dir, head string) {
	t.Helper()
	if got := run(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved: %s → %s", head, got)
	}
	if s := run(t, dir, "status", "--porcelain"); s != "" {
		t.Errorf("working tree changed:\n%s", s)
	}
	if refs := run(t, dir, "for-each-ref", "refs/wiregate", "refs/heads"); strings.Contains(refs, "wiregate") {
		t.Errorf("refs left behind:\n%s", refs)
	}
}

func TestTwoPushesAppendTwoLines(t *testing.T) {
	ctx := context.Background()
	bare := origin(t)
	dir := clone(t, bare)
	head := run(t, dir, "rev-parse", "HEAD")
	s := Store{Dir: dir, Branch: "wiregate-data"}
	for i := 1; i <= 2; i++ {
		if n, err := s.Append(ctx, point(sha(i), float64(100+i))); err != nil || n != 1 {
			t.Fatalf("append %d: %d attempts, %v", i, n, err)
		}
	}
	got := lines(t, bare)
	if len(got) != 2 || !strings.Contains(got[0], sha(1)) || !strings.Contains(got[1], sha(2)) {
		t.Fatalf("lines:\n%s", strings.Join(got, "\n"))
	}
	if n := run(t, bare, "rev-list", "--count", "wiregate-data"); n != "2" {
		t.Errorf("%s commits on the branch, want 2", n)
	}
	if ls := run(t, bare, "ls-tree", "--name-only", "wiregate-data"); ls != "README.md\n"+File {
		t.Errorf("branch files: %q", ls)
	}
	untouched(t, dir, head)

	// A re-run of the same push adds nothing.
	if n, err := s.Append(ctx, point(sha(2), 102)); err != nil || n != 0 || len(lines(t, bare)) != 2 {
		t.Fatalf("re-run: %d attempts, %v, %d lines", n, err, len(lines(t, bare)))
	}
	points, skipped, err := Store{Dir: clone(t, bare), Branch: "wiregate-data"}.Read(ctx)
	if err != nil || skipped != 0 || len(points) != 2 || points[1].Figures[0].Value != 102 {
		t.Fatalf("read back: %+v %d %v", points, skipped, err)
	}
}

// Another clone pushes between this run's fetch and its push: the push is
// rejected, retried on top of theirs, and both lines survive, in order,
// on one linear history (never forced).
func TestConcurrentPushIsRetried(t *testing.T) {
	ctx := context.Background()
	bare := origin(t)
	mine, theirs := clone(t, bare), clone(t, bare)
	var theirErr error
	s := Store{Dir: mine, Branch: "wiregate-data", beforePush: func(attempt int) {
		if attempt == 1 {
			_, theirErr = Store{Dir: theirs, Branch: "wiregate-data"}.Append(ctx, point(sha(1), 101))
		}
	}}
	attempts, err := s.Append(ctx, point(sha(2), 102))
	if err != nil || theirErr != nil || attempts != 2 {
		t.Fatalf("attempts %d, err %v, theirs %v", attempts, err, theirErr)
	}
	got := lines(t, bare)
	if len(got) != 2 || !strings.Contains(got[0], sha(1)) || !strings.Contains(got[1], sha(2)) {
		t.Fatalf("lines:\n%s", strings.Join(got, "\n"))
	}
	if parents := run(t, bare, "rev-list", "--parents", "-n1", "wiregate-data"); len(strings.Fields(parents)) != 2 {
		t.Errorf("tip is not one commit on top of theirs: %s", parents)
	}
}

// Four runs from four clones at once: every line survives.
func TestSimultaneousAppendsAllSurvive(t *testing.T) {
	ctx := context.Background()
	bare := origin(t)
	const n = 4
	dirs := make([]string, n)
	for i := range dirs {
		dirs[i] = clone(t, bare)
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Store{Dir: dirs[i], Branch: "wiregate-data"}.Append(ctx, point(sha(i+1), float64(i)))
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(lines(t, bare), "\n")
	for i := range n {
		if strings.Count(got, sha(i+1)) != 1 {
			t.Errorf("%s appears %d times in\n%s", sha(i+1), strings.Count(got, sha(i+1)), got)
		}
	}
}

// A refusal that retrying cannot fix (here a hook; on GitHub a token
// without contents: write) is an error at once, saying what to do.
func TestRefusedPushIsAnErrorNotARetry(t *testing.T) {
	bare := origin(t)
	hook := filepath.Join(bare, "hooks", "pre-receive")
	os.WriteFile(hook, []byte("#!/bin/sh\necho 'denied by policy' >&2\nexit 1\n"), 0o755)
	attempts, err := Store{Dir: clone(t, bare), Branch: "wiregate-data"}.Append(context.Background(), point(sha(1), 1))
	if err == nil || attempts != 1 || !strings.Contains(err.Error(), "contents: write") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("attempts %d, err %v", attempts, err)
	}
}

func TestNoBranchNoRemoteNoRepoIsNoHistory(t *testing.T) {
	ctx := context.Background()
	bare := origin(t)
	plain := t.TempDir()
	run(t, plain, "init", "-q")
	for name, dir := range map[string]string{"no branch": clone(t, bare), "no remote": plain, "no repo": t.TempDir()} {
		_, _, err := Store{Dir: dir, Branch: "wiregate-data"}.Read(ctx)
		if !errors.Is(err, ErrNoHistory) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestReadSkipsLinesThatAreNotPoints(t *testing.T) {
	points, skipped := parse([]byte(`{"sha":"` + sha(1) + `","figures":[]}` + "\nnot json\n\n{}\n"))
	if len(points) != 1 || skipped != 2 {
		t.Fatalf("%+v %d", points, skipped)
	}
}
