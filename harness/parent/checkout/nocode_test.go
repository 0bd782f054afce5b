package checkout

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// marking is a program that leaves marker behind when it runs.
func marking(t *testing.T) (program, marker string) {
	t.Helper()
	dir := t.TempDir()
	marker = filepath.Join(dir, "ran")
	program = filepath.Join(dir, "mark")
	if err := os.WriteFile(program, []byte("#!/bin/sh\necho \"$0 $*\" >> "+marker+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return program, marker
}

func ran(t *testing.T, marker string) {
	t.Helper()
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("a program the clone names ran: %s", b)
	}
}

// The clone's own configuration names programs git would run: a
// core.fsmonitor (on git status) and hooks (post-checkout on git worktree
// add). The gate's git calls run neither.
func TestGitRunsNoFsmonitorOrHookTheCloneNames(t *testing.T) {
	ctx := context.Background()
	dir := repo(t)
	program, marker := marking(t)
	if out, err := exec.Command("git", "-C", dir, "config", "core.fsmonitor", program).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	hooks := filepath.Join(dir, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	for _, hook := range []string{"post-checkout", "reference-transaction"} {
		if err := os.Symlink(program, filepath.Join(hooks, hook)); err != nil {
			t.Fatal(err)
		}
	}
	w, err := Add(ctx, dir, "v1", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := Head(ctx, dir); err != nil {
		t.Fatal(err)
	}
	if err := w.Remove(); err != nil {
		t.Fatal(err)
	}
	ran(t, marker)
}

// A pull request can commit a directory that looks like a bare repository
// (HEAD, objects/, refs/, and a config naming a core.fsmonitor). Run in
// that directory (the working-directory input), git would take it for the
// repository and run the program; the gate's git refuses it instead.
func TestGitRefusesABareRepositoryInTheCheckout(t *testing.T) {
	ctx := context.Background()
	dir := repo(t)
	program, marker := marking(t)
	sub := filepath.Join(dir, "api")
	for _, d := range []string{"objects", "refs"} {
		os.MkdirAll(filepath.Join(sub, d), 0o755)
	}
	os.WriteFile(filepath.Join(sub, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	config := "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = " + program + "\n"
	os.WriteFile(filepath.Join(sub, "config"), []byte(config), 0o644)
	_, _, _, headErr := Head(ctx, sub)
	_, addErr := Add(ctx, sub, "v1", t.TempDir())
	ran(t, marker)
	if headErr == nil || addErr == nil {
		t.Fatalf("git worked in a bare repository the checkout holds: %v; %v", headErr, addErr)
	}
	t.Log(addErr)
}
