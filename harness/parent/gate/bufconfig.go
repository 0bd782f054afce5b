package gate

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/bufcheck"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// bufConfigs are the buf configs the schema checks run with, as the gate
// decided them (buf never searches for one): each side's config as buf
// would resolve it, and head judged by the base's rules.
type bufConfigs struct {
	head, base bufcheck.Config
	judged     bufcheck.Judged
	// run is the judged config less what buf may not run; own is head's
	// own config less the same, run too when head's rules differ.
	run, own map[string]any
	// skipped are the check plugins and policies left out, one phrase each.
	skipped []string
	// roots are the sides' repository roots.
	headRoot, baseRoot string
}

// resolveBuf resolves both sides' buf configs, judges head by the base's
// rules (bufcheck.Judge) and vets what buf would run of head's own config
// and of the judged one (bufcheck.Vet).
func resolveBuf(ctx context.Context, buf, prefix, headDir, baseDir, bufInput string) (bufConfigs, error) {
	b := bufConfigs{headRoot: rootOf(headDir, prefix), baseRoot: rootOf(baseDir, prefix)}
	var err error
	if b.head, err = bufcheck.Resolve(ctx, buf, b.headRoot, headDir, bufInput); err != nil {
		return b, err
	}
	if b.base, err = bufcheck.Resolve(ctx, buf, b.baseRoot, baseDir, bufInput); err != nil {
		return b, err
	}
	if b.judged, err = bufcheck.Judge(ctx, buf, b.head, b.base); err != nil {
		return b, err
	}
	trees := bufcheck.Trees{HeadRoot: b.headRoot, HeadDir: b.head.Dir, BaseRoot: b.baseRoot}
	own := bufcheck.Vet(trees, b.head.Doc, b.base.Doc)
	run := bufcheck.Vet(trees, b.judged.Config.Doc, b.base.Doc)
	b.own, b.run = own.Doc, run.Doc
	for _, s := range append(own.Skipped, run.Skipped...) {
		if !slices.Contains(b.skipped, s) {
			b.skipped = append(b.skipped, s)
		}
	}
	return b, nil
}

// buildConfig is where prepare builds a side's image: the directory and
// input its config resolved to, with that config's own buf.yaml (buf build
// reads the modules and deps, and runs no check plugin); nil without one.
func buildConfig(c bufcheck.Config) (*prepare.BufConfig, error) {
	if !c.Found() {
		return nil, nil
	}
	text, err := c.Text()
	if err != nil {
		return nil, err
	}
	return &prepare.BufConfig{Dir: c.Dir, Input: c.Input, Config: text}, nil
}

// check is buf on head with the base's rules.
func (b bufConfigs) check(buf string) (bufcheck.Check, error) {
	return bufcheck.CheckOf(buf, b.judged.Config, b.run, "head")
}

// ownCheck is buf on head with head's own rules; ok false when they are
// the base's (nothing more to run).
func (b bufConfigs) ownCheck(buf string) (c bufcheck.Check, ok bool, err error) {
	if b.judged.Change == nil {
		return c, false, nil
	}
	c, err = bufcheck.CheckOf(buf, b.head, b.own, "head")
	return c, err == nil, err
}

// sideCheck is buf on a side that is the repository's (the base, a
// release) with that side's own config as it is; without one, buf's
// defaults for head's version.
func sideCheck(buf string, c bufcheck.Config, headVersion, name string) (bufcheck.Check, error) {
	doc := c.Doc
	if doc == nil {
		doc = map[string]any{"version": headVersion}
	}
	return bufcheck.CheckOf(buf, c, doc, name)
}

// rulesReport says whose rules judged, for report.json: nil when head's
// buf config is the base's file with the base's rules, as in most runs.
func (b bufConfigs) rulesReport(headOnly []report.Finding) *report.BufRules {
	same := b.head.File == b.base.File && b.head.Found() && b.base.Found() && b.head.Version() == b.base.Version()
	if b.judged.Change == nil && same && len(headOnly) == 0 {
		return nil
	}
	r := &report.BufRules{From: b.judged.From, HeadOnly: headOnly}
	if b.judged.Change != nil {
		r.Change = b.judged.Change.Line()
	}
	return r
}

// rootOf is the repository root of dir, which lies prefix (git's
// --show-prefix, "a/b/") below it.
func rootOf(dir, prefix string) string {
	if p := strings.Trim(filepath.ToSlash(prefix), "/"); p != "" {
		for range strings.Count(p, "/") + 1 {
			dir = filepath.Dir(dir)
		}
	}
	return dir
}
