package gate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/wiregate/wiregate/harness/checkout"
	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/report"
	"github.com/wiregate/wiregate/harness/schemafiles"
)

// side is base, head or a release: a checkout.
type side struct {
	name string
	dir  string
	// worktree is the checkout the gate made for this side (base, release),
	// removed when the run ends.
	worktree *checkout.Worktree
}

// avro is the side's .avsc files, absolute.
func (s *side) avro(globs []string) ([]string, error) { return schemafiles.Glob(s.dir, globs) }

// bufInput is the side's buf input directory.
func (s *side) bufInput(set string) string { return filepath.Join(s.dir, set) }

// checkout makes the base side: a worktree of BaseRef, or BaseDir as it is.
// It also fills in the shas and labels the caller did not give: a side is
// always named, by its ref, its sha or its directory.
func (g *run) checkout(ctx context.Context) bool {
	type revs struct{ base, head report.Rev }
	rv, ok := stage(ctx, g, "checkout", func(ctx context.Context) (revs, string, error) {
		rv := revs{base: g.r.Base, head: g.r.Head}
		if rv.head.Sha == "" {
			if sha, ref, dirty, err := checkout.Head(ctx, g.head.dir); err == nil {
				rv.head.Sha = sha
				if dirty {
					rv.head.Sha = sha[:12] + "+dirty"
				}
				if rv.head.Ref == "" {
					rv.head.Ref = ref
				}
			}
		}
		if rv.head.Ref == "" {
			rv.head.Ref = g.head.dir
		}
		switch {
		case g.o.BaseDir != "":
			rv.base.Sha = gitSha(ctx, g.o.BaseDir)
			if rv.base.Ref == "" {
				rv.base.Ref = g.o.BaseDir
			}
			return rv, "", nil
		case g.o.BaseRef == "":
			return rv, "", exitcode.BadInput("no base: give --base-ref (a commit to compare against) or --base-dir (a checkout of it)")
		}
		w, err := checkout.Add(ctx, g.head.dir, g.o.BaseRef, g.tmpDir())
		if err != nil {
			return rv, "", err
		}
		g.base.worktree, g.base.dir, rv.base.Sha = w, w.Dir, w.Sha
		if rv.base.Ref == "" {
			rv.base.Ref = g.o.BaseRef
		}
		return rv, "", nil
	})
	g.r.Base, g.r.Head = rv.base, rv.head
	return ok
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
func (g *run) checkoutRelease(ctx context.Context) {
	release, _ := stage(ctx, g, "release checkout", func(ctx context.Context) (*side, string, error) {
		a := g.s.BreakingAgainst
		ref := a.Ref
		if a.TagGlob != "" {
			tag, err := checkout.LatestTag(ctx, g.head.dir, a.TagGlob)
			if err != nil {
				return nil, "", err
			}
			if tag == "" {
				g.warn("%s is %q: no tag matches %s in this clone, so nothing was checked against a release (actions/checkout fetches tags with fetch-depth: 0)",
					a.Where, a.Text, a.TagGlob)
				return nil, "", nil
			}
			ref = tag
		}
		w, err := checkout.Add(ctx, g.head.dir, ref, g.tmpDir())
		if errors.Is(err, checkout.ErrUnknownRef) {
			return nil, "", exitcode.BadInput("%s is %q: %s is no tag, branch or commit of this clone or of origin (actions/checkout fetches every tag and branch with fetch-depth: 0)",
				a.Where, a.Text, ref)
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s %q: %w", a.Where, a.Text, err)
		}
		g.r.BreakingAgainst = &report.Against{Input: a.Text, Ref: ref, Sha: w.Sha, SameAsBase: w.Sha == g.r.Base.Sha}
		rel := &side{name: "release " + ref, dir: w.Dir, worktree: w}
		if g.r.BreakingAgainst.SameAsBase {
			g.removeWorktree(rel)
			return nil, "", nil
		}
		return rel, "", nil
	})
	g.release = release
}
