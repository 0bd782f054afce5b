// Package checkout gives the gate the other side of a comparison: a
// detached git worktree of a commit of the repository it gates (no remote
// clone, no LFS), fetching the one commit when a shallow clone lacks it.
package checkout

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/wiregate/wiregate/harness/parent/git"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// ErrUnknownRef is Add's error when the ref names no commit of the clone
// or of origin; callers that know which input named it say so.
var ErrUnknownRef = errors.New("unknown ref")

// Worktree is a checkout of one commit.
type Worktree struct {
	Sha  string
	Root string // the worktree's root
	// Dir is the working directory's counterpart inside the worktree.
	Dir  string
	repo string // the working directory it was added from
}

// Add checks out ref (a sha, tag or branch; origin/<ref> is tried too) as
// a detached worktree under tmpRoot.
func Add(ctx context.Context, workingDir, ref, tmpRoot string) (*Worktree, error) {
	if _, err := git.Run(ctx, workingDir, "rev-parse", "--show-toplevel"); err != nil {
		return nil, exitcode.BadInput("working-directory %s is not inside a git repository: %v", workingDir, err)
	}
	prefix, err := Prefix(ctx, workingDir)
	if err != nil {
		return nil, err
	}
	sha := resolve(ctx, workingDir, ref)
	why := ""
	if sha == "" {
		if _, err := git.Run(ctx, workingDir, "fetch", "--no-tags", "--depth=1", "origin", ref); err != nil {
			why = " (" + err.Error() + ")"
		} else {
			sha = resolve(ctx, workingDir, "FETCH_HEAD")
		}
	}
	if sha == "" {
		return nil, &exitcode.Error{Code: exitcode.Unusable, Err: fmt.Errorf("%w: base commit %s is not in this clone and could not be fetched%s: set 'fetch-depth: 0' on actions/checkout", ErrUnknownRef, ref, why)}
	}
	if err := os.MkdirAll(tmpRoot, 0o755); err != nil {
		return nil, fmt.Errorf("worktree directory: %w", err)
	}
	root, err := os.MkdirTemp(tmpRoot, "wiregate-"+Short(sha)+"-")
	if err != nil {
		return nil, fmt.Errorf("worktree directory: %w", err)
	}
	if _, err := git.Run(ctx, workingDir, "worktree", "add", "--detach", root, sha); err != nil {
		os.RemoveAll(root)
		return nil, fmt.Errorf("git worktree add for %s: %w", sha, err)
	}
	return &Worktree{Sha: sha, Root: root, Dir: filepath.Join(root, prefix), repo: workingDir}, nil
}

// Remove deletes the worktree. It runs on its own short deadline: it is
// called on the way out, also when the run's context is already cancelled.
func (w *Worktree) Remove() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := git.Run(ctx, w.repo, "worktree", "remove", "--force", w.Root)
	if err != nil {
		os.RemoveAll(w.Root)
		_, _ = git.Run(ctx, w.repo, "worktree", "prune")
	}
	return err
}

// Prefix is dir relative to its repository's root ("" at the root or
// outside a repository), with a trailing slash.
func Prefix(ctx context.Context, dir string) (string, error) {
	out, err := git.Run(ctx, dir, "rev-parse", "--show-prefix")
	if err != nil {
		return "", nil // not a git checkout: paths are relative to dir itself
	}
	return out, nil
}

// Head is the commit dir is on, its branch name ("HEAD" when detached) and
// whether the working tree has changes.
func Head(ctx context.Context, dir string) (sha, ref string, dirty bool, err error) {
	if sha, err = git.Run(ctx, dir, "rev-parse", "HEAD"); err != nil {
		return "", "", false, err
	}
	ref, _ = git.Run(ctx, dir, "rev-parse", "--abbrev-ref", "HEAD")
	status, _ := git.Run(ctx, dir, "status", "--porcelain")
	return sha, ref, status != "", nil
}

func resolve(ctx context.Context, dir, ref string) string {
	for _, c := range []string{ref, "origin/" + ref} {
		if out, err := git.Run(ctx, dir, "rev-parse", "--verify", "--quiet", c+"^{commit}"); err == nil && out != "" {
			return out
		}
	}
	return ""
}

// Short is the abbreviated sha wiregate names a commit by.
func Short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
