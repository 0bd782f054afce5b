package gate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wiregate/wiregate/harness/avrocompat"
	"github.com/wiregate/wiregate/harness/bufcheck"
	"github.com/wiregate/wiregate/harness/checkout"
	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/report"
	"github.com/wiregate/wiregate/harness/subcmd"
)

// checkoutRelease resolves the breaking-against input to a commit and
// checks it out as another worktree. No tag matching the glob is a
// warning (a first release has none yet); a ref git does not know is the
// input's error. A release that is the base commit is not checked twice.
func (g *run) checkoutRelease(ctx context.Context) error {
	a := g.s.BreakingAgainst
	ref := a.Ref
	if a.TagGlob != "" {
		tag, err := checkout.LatestTag(ctx, g.head.dir, a.TagGlob)
		if err != nil {
			return err
		}
		if tag == "" {
			g.warn("%s is %q: no tag matches %s in this clone, so nothing was checked against a release (actions/checkout fetches tags with fetch-depth: 0)",
				a.Where, a.Text, a.TagGlob)
			return nil
		}
		ref = tag
	}
	w, err := checkout.Add(ctx, g.head.dir, ref, g.tmpDir())
	if errors.Is(err, checkout.ErrUnknownRef) {
		return exitcode.BadInput("%s is %q: %s is no tag, branch or commit of this clone or of origin (actions/checkout fetches every tag and branch with fetch-depth: 0)",
			a.Where, a.Text, ref)
	}
	if err != nil {
		return fmt.Errorf("%s %q: %w", a.Where, a.Text, err)
	}
	g.r.BreakingAgainst = &report.Against{Input: a.Text, Ref: ref, Sha: w.Sha, SameAsBase: w.Sha == g.r.Base.Sha}
	g.release = &side{name: "release " + ref, dir: w.Dir, worktree: w}
	if g.r.BreakingAgainst.SameAsBase {
		g.removeWorktree(g.release)
		g.release = nil
	}
	return nil
}

// releaseBreaking runs buf breaking on head against the release. A release
// older than the buf input has nothing to break: a warning, not an error.
func (g *run) releaseBreaking(ctx context.Context, c bufcheck.Check) error {
	if _, err := os.Stat(filepath.Join(g.release.dir, g.s.BufInput)); err != nil {
		g.warn("buf-input %s does not exist in %s: buf breaking did not run against it", g.s.BufInput, g.r.BreakingAgainst.Ref)
		return nil
	}
	fs, err := c.Breaking(ctx, g.release.dir)
	g.addFindings(fs, g.r.BreakingAgainst.Ref)
	return err
}

// releaseAvro checks every .avsc of head against the release (and, for
// transitive levels, every earlier version up to the release).
func (g *run) releaseAvro(ctx context.Context) error {
	dir := g.release.dir
	fs, err := avrocompat.CheckDirs(dir, g.head.dir, g.s.AvroSchemas, g.s.AvroCompatibility, g.avroHistory(ctx, dir, "release "+g.r.BreakingAgainst.Ref))
	g.addFindings(fs, g.r.BreakingAgainst.Ref)
	return err
}

// addFindings records findings checked against a release ("" : the base).
func (g *run) addFindings(fs []report.Finding, against string) {
	for _, f := range fs {
		f.Against = against
		g.r.Findings = append(g.r.Findings, f)
	}
}

// warn adds a one-line warning to the report.
func (g *run) warn(format string, args ...any) {
	w := subcmd.OneLine(fmt.Sprintf(format, args...))
	g.r.Warnings = append(g.r.Warnings, w)
	g.o.Log("wiregate: warning: %s", w)
}
