package gate

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/wiregate/wiregate/harness/parent/checkout"
	"github.com/wiregate/wiregate/harness/parent/mergebase"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// checkedOut is what the checkout stage found: both sides' names and the
// base side.
type checkedOut struct {
	base, head report.Rev
	side       side // the base: its worktree when the gate made one
}

// checkout makes the base side: a worktree of BaseRef, or BaseDir as it is,
// or, with neither, a worktree of the merge base of HEAD and the branch the
// change goes into (package mergebase), named by that branch. It also fills
// in the shas and labels the caller did not give: a side is always named,
// by its ref, its sha or its directory.
func (g *run) checkout(ctx context.Context) (checkedOut, bool) {
	return stage(ctx, g, "checkout", func(ctx context.Context) (checkedOut, string, error) {
		co := checkedOut{base: g.base.rev, head: g.head.rev, side: *g.base}
		if co.head.Sha == "" {
			if sha, ref, dirty, err := checkout.Head(ctx, g.head.dir); err == nil {
				co.head.Sha = sha
				if dirty {
					co.head.Sha = sha[:12] + "+dirty"
				}
				if co.head.Ref == "" {
					co.head.Ref = ref
				}
			}
		}
		if co.head.Ref == "" {
			co.head.Ref = g.head.dir
		}
		if g.o.BaseDir != "" {
			co.base.Sha = gitSha(ctx, g.o.BaseDir)
			if co.base.Ref == "" {
				co.base.Ref = g.o.BaseDir
			}
			return co, "", nil
		}
		ref, note := g.o.BaseRef, ""
		if ref == "" {
			b, err := mergebase.Resolve(ctx, g.head.dir, os.Getenv)
			if err != nil {
				return co, "", err
			}
			ref, note = b.Sha, fmt.Sprintf("against %s at %s: the merge base of HEAD and %[1]s (%[3]s)", b.Branch, checkout.Short(b.Sha), b.From)
			g.o.Log("wiregate: %s", note)
			if co.base.Ref == "" {
				co.base.Ref = b.Branch
			}
		}
		w, err := checkout.Add(ctx, g.head.dir, ref, g.tmpDir())
		if err != nil {
			return co, "", err
		}
		co.side.worktree, co.side.dir, co.base.Sha = w, w.Dir, w.Sha
		if co.base.Ref == "" {
			co.base.Ref = ref
		}
		return co, note, nil
	})
}

func (g *run) removeWorktree(s *side) {
	if s != nil && s.worktree != nil {
		if err := s.worktree.Remove(); err != nil {
			g.o.Log("wiregate: removing the %s worktree: %v", s.name, err)
		}
		s.worktree = nil
	}
}

func gitSha(ctx context.Context, dir string) string {
	sha, _, _, err := checkout.Head(ctx, dir)
	if err != nil {
		return ""
	}
	return sha
}

// checkoutRelease resolves the breaking-against input to a commit and
// checks it out as another worktree. No tag matching the glob is a
// warning (a first release has none yet); a ref git does not know is the
// input's error. A release that is the base commit is not checked twice.
func (g *run) checkoutRelease(ctx context.Context) release {
	rel, _ := stage(ctx, g, "release checkout", func(ctx context.Context) (release, string, error) {
		a := g.s.BreakingAgainst
		ref := a.Ref
		if a.TagGlob != "" {
			tag, err := checkout.LatestTag(ctx, g.head.dir, a.TagGlob)
			if err != nil {
				return release{}, "", err
			}
			if tag == "" {
				g.warn("%s is %q: no tag matches %s in this clone, so nothing was checked against a release (actions/checkout fetches tags with fetch-depth: 0)",
					a.Where, a.Text, a.TagGlob)
				return release{}, "", nil
			}
			ref = tag
		}
		w, err := checkout.Add(ctx, g.head.dir, ref, g.tmpDir())
		if errors.Is(err, checkout.ErrUnknownRef) {
			return release{}, "", exitcode.BadInput("%s is %q: %s is no tag, branch or commit of this clone or of origin (actions/checkout fetches every tag and branch with fetch-depth: 0)",
				a.Where, a.Text, ref)
		}
		if err != nil {
			return release{}, "", fmt.Errorf("%s %q: %w", a.Where, a.Text, err)
		}
		against := &report.Against{Input: a.Text, Ref: ref, Sha: w.Sha, SameAsBase: w.Sha == g.base.rev.Sha}
		s := &side{name: "release " + ref, dir: w.Dir, worktree: w}
		if against.SameAsBase {
			g.removeWorktree(s)
			return release{against: against}, "", nil
		}
		return release{side: s, against: against}, "", nil
	})
	return rel
}

// release is what the release checkout found: the release's side (nil
// when there is none, or it is the base) and breaking-against as checked
// out (nil without one).
type release struct {
	side    *side
	against *report.Against
}
