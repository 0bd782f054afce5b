package gate

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/twmb/avro"

	"github.com/wiregate/wiregate/harness/parent/avrocompat"
	"github.com/wiregate/wiregate/harness/parent/bufcheck"
	"github.com/wiregate/wiregate/harness/parent/checkout"
	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// loadConfig takes thresholds from the inputs, then wiregate.yaml from the
// BASE checkout: a pull request cannot loosen its own gate; a change to
// wiregate.yaml takes effect for the PRs after it merges.
func (g *run) loadConfig(ctx context.Context) (config.Config, bool) {
	return stage(ctx, g, "config", func(ctx context.Context) (config.Config, string, error) {
		cfg, err := config.Load(g.base.dir, g.s.Config())
		return cfg, "", err
	})
}

// findTools resolves the harness (the one the caller named, else the one
// wiregate was built from), buf once for both sides (never from the
// checkout judged; installed on first use: prepare.Buf), and the buf
// configs the schema checks run with: which config buf would use on each
// side, head judged by the base's rules, less what buf may not run
// (resolveBuf).
func (g *run) findTools(ctx context.Context) (tools, bool) {
	return stage(ctx, g, "tools", func(ctx context.Context) (tools, string, error) {
		harness, err := prepare.Harness(g.o.HarnessDir, g.o.CacheDir)
		if err != nil {
			return tools{}, "", err
		}
		buf, err := prepare.Buf(ctx, g.o.Buf, harness, g.head.dir, g.o.CacheDir)
		if err != nil {
			return tools{}, "", err
		}
		if strings.ContainsRune(buf, os.PathSeparator) {
			buf, _ = filepath.Abs(buf)
		}
		prefix, _ := checkout.Prefix(ctx, g.head.dir)
		bufs, err := resolveBuf(ctx, buf, prefix, g.head.dir, g.base.dir, g.s.BufInput)
		if err != nil {
			return tools{}, "", err
		}
		return tools{harness: harness, buf: buf, prefix: prefix, bufs: bufs}, rulesNote(bufs), nil
	})
}

// rulesNote says, for the tools stage, whose rules buf judges head by.
func rulesNote(b bufConfigs) string {
	if !b.head.Found() {
		return ""
	}
	return "buf rules: " + strings.Join(b.judged.From, "; ")
}

// schemaChecks runs buf lint and buf breaking as their inputs ask and
// returns their findings, judged by the base's rules, and whose rules
// those were. It is false when either could not run: a schema that does
// not compile stops the measuring stages (they would fail the same way,
// twice).
func (g *run) schemaChecks(ctx context.Context) ([]report.Finding, *report.BufRules, bool) {
	if why := noProto(g.head.bufInput(g.s.BufInput), g.tools.bufs.head.Found()); why != "" {
		// An Avro-only repository: nothing for buf to check, and nothing fails for it.
		for _, on := range []struct {
			name  string
			asked bool
		}{{"buf lint", g.s.Lint}, {"buf breaking", g.s.Breaking}} {
			if on.asked {
				stage(ctx, g, on.name, func(context.Context) (struct{}, string, error) { return struct{}{}, "skipped: " + why, nil })
			}
		}
		return nil, nil, true
	}
	g.sayVetted()
	var all, headOnly []report.Finding
	ok := true
	if g.s.Lint {
		var r checked
		r, ok = stage(ctx, g, "buf lint", g.lint)
		all, headOnly = append(all, r.judged...), append(headOnly, r.headOnly...)
	}
	if g.s.Breaking && ok {
		var r checked
		r, ok = stage(ctx, g, "buf breaking", g.breaking)
		all, headOnly = append(all, r.judged...), append(headOnly, r.headOnly...)
	}
	if g.s.Breaking && ok && g.release != nil {
		// Not part of ok: head compiles, and the measuring stages do not
		// depend on the release.
		fs, _ := stage(ctx, g, "buf breaking (release)", g.releaseBreaking)
		all = append(all, fs...)
	}
	return all, g.tools.bufs.rulesReport(headOnly), ok
}

// sayVetted warns, in one line, of the check plugins and policies buf ran
// head's checks without (bufcheck.Vet).
func (g *run) sayVetted() {
	skipped := g.tools.bufs.skipped
	var ran []string
	if g.s.Lint {
		ran = append(ran, "buf lint")
	}
	if g.s.Breaking {
		ran = append(ran, "buf breaking")
	}
	if len(skipped) == 0 || len(ran) == 0 {
		return
	}
	g.warn("%s ran without %s: a gate runs no program the pull request may have written", strings.Join(ran, " and "), strings.Join(skipped, ", "))
}

// checked are a schema check's findings by the base's rules (judged),
// and those only head's own rules raise (headOnly).
type checked struct {
	judged, headOnly []report.Finding
}

// lint runs buf lint on head and on the base: head's findings the base
// already has are existing debt (bufcheck.MarkExisting), which the verdict
// does not fail on unless lint-findings is all. A base that cannot be
// linted (no buf input yet, or it does not compile) has no debt: every
// finding is new.
func (g *run) lint(ctx context.Context) (checked, string, error) {
	var out checked
	head, err := g.tools.bufs.check(g.tools.buf)
	if err != nil {
		return out, "", err
	}
	fs, err := head.Lint(ctx)
	if err != nil {
		return out, "", err
	}
	out.headOnly = g.headOnly(ctx, fs, bufcheck.Check.Lint)
	if len(fs) == 0 {
		return out, "", nil
	}
	out.judged = fs
	base, err := g.baseCheck()
	var debt []report.Finding
	if err == nil {
		debt, err = base.Lint(ctx)
	}
	if err != nil {
		if ctx.Err() != nil {
			return out, "", ctx.Err()
		}
		return out, "the base could not be linted (" + err.Error() + "): every finding counts as new", nil
	}
	out.judged = bufcheck.MarkExisting(fs, debt)
	existing := 0
	for _, f := range out.judged {
		if f.Existing {
			existing++
		}
	}
	if existing == 0 {
		return out, "", nil
	}
	return out, plural(existing, "finding") + " the base already has (existing debt)", nil
}

// breaking runs buf breaking on head against the base.
func (g *run) breaking(ctx context.Context) (checked, string, error) {
	var out checked
	if _, err := os.Stat(g.base.bufInput(g.s.BufInput)); err != nil {
		return out, "", exitcode.BadInput("buf-input %s does not exist in %s: set breaking to false for the first run", g.s.BufInput, g.base.dir)
	}
	head, err := g.tools.bufs.check(g.tools.buf)
	if err != nil {
		return out, "", err
	}
	base, err := g.baseCheck()
	if err != nil {
		return out, "", err
	}
	image, remove, err := base.Image(ctx) // one build of the base for the base's rules and head's own
	if err != nil {
		return out, "", err
	}
	defer remove()
	against := func(c bufcheck.Check, ctx context.Context) ([]report.Finding, error) {
		return c.BreakingImage(ctx, image)
	}
	if out.judged, err = against(head, ctx); err != nil {
		return out, "", err
	}
	out.headOnly = g.headOnly(ctx, out.judged, against)
	return out, "", nil
}

// headOnly runs a check again with head's own rules when they differ from
// the base's, and returns the findings only those raise: they apply once
// merged and judge nothing now, so a check that cannot run with them is a
// warning.
func (g *run) headOnly(ctx context.Context, judged []report.Finding, run func(bufcheck.Check, context.Context) ([]report.Finding, error)) []report.Finding {
	own, ok, err := g.tools.bufs.ownCheck(g.tools.buf)
	if err == nil && ok {
		var fs []report.Finding
		if fs, err = run(own, ctx); err == nil {
			return bufcheck.Unjudged(fs, judged)
		}
	}
	if err != nil && ctx.Err() == nil {
		g.warn("head's own buf rules could not run (%s): what they would find once merged is not shown", err)
	}
	return nil
}

// baseCheck is buf on the base, with the base's own config.
func (g *run) baseCheck() (bufcheck.Check, error) {
	b := g.tools.bufs
	return sideCheck(g.tools.buf, b.base, b.head.Version(), "the base")
}

// releaseBreaking runs buf breaking on head against the release, with the
// release's own config. A release older than the buf input has nothing to
// break: a warning, not an error.
func (g *run) releaseBreaking(ctx context.Context) ([]report.Finding, string, error) {
	if _, err := os.Stat(g.release.bufInput(g.s.BufInput)); errors.Is(err, fs.ErrNotExist) {
		g.warn("buf-input %s does not exist in %s: buf breaking did not run against it", g.s.BufInput, g.against.Ref)
		return nil, "", nil
	}
	root := rootOf(g.release.dir, g.tools.prefix)
	rel, err := bufcheck.Resolve(ctx, g.tools.buf, root, g.release.dir, g.s.BufInput)
	if err != nil {
		return nil, "", err
	}
	head, err := g.tools.bufs.check(g.tools.buf)
	if err != nil {
		return nil, "", err
	}
	against, err := sideCheck(g.tools.buf, rel, g.tools.bufs.head.Version(), "release "+g.against.Ref)
	if err != nil {
		return nil, "", err
	}
	fs, err := head.Breaking(ctx, against)
	return againstRelease(fs, g.against.Ref), "", err
}

// avroCompat checks every .avsc of head against base (and, for transitive
// levels, against every earlier version in the base's history); and
// against the release, when there is one. False when the check against
// the base could not run.
func (g *run) avroCompat(ctx context.Context) ([]report.Finding, bool) {
	fs, ok := stage(ctx, g, "avro-compatibility", func(ctx context.Context) ([]report.Finding, string, error) {
		fs, err := avrocompat.CheckDirs(g.base.dir, g.head.dir, g.s.AvroSchemas, g.s.AvroCompatibility, g.avroHistory(ctx, g.base.dir, "the base"))
		return fs, "", err
	})
	if g.release == nil {
		return fs, ok
	}
	rel, _ := stage(ctx, g, "avro-compatibility (release)", func(ctx context.Context) ([]report.Finding, string, error) {
		dir := g.release.dir
		fs, err := avrocompat.CheckDirs(dir, g.head.dir, g.s.AvroSchemas, g.s.AvroCompatibility, g.avroHistory(ctx, dir, "release "+g.against.Ref))
		return againstRelease(fs, g.against.Ref), "", err
	})
	return append(fs, rel...), ok
}

// againstRelease marks findings as checked against a release.
func againstRelease(fs []report.Finding, ref string) []report.Finding {
	for i := range fs {
		fs[i].Against = ref
	}
	return fs
}

// avroHistory is what the transitive levels check head's .avsc files
// against: every earlier version in dir's git history. Where dir has no
// whole history (not a git checkout, a shallow clone), each file is checked
// against dir's version only, and the first file checked adds one warning
// saying so.
func (g *run) avroHistory(ctx context.Context, dir, against string) avrocompat.HistoryFunc {
	level := g.s.AvroCompatibility
	if !level.Transitive() {
		return nil
	}
	history, why := avrocompat.GitHistory(ctx, dir, "HEAD", g.s.AvroSchemas)
	if history != nil {
		return history
	}
	warned := false
	return func(string) ([]*avro.Schema, error) {
		if !warned {
			warned = true
			g.warn("avro-compatibility is %s, but each .avsc was checked against %s's version only: %s (%s) %s", level, against, against, dir, why)
		}
		return nil, nil
	}
}

// noProto says why buf has nothing to check in dir, or "" when it has:
// no buf config covers it (configured false), or its module has not a
// single .proto file.
func noProto(dir string, configured bool) string {
	if !configured {
		return "no buf.yaml in buf-input (an Avro-only repository)"
	}
	found := errors.New("found")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".proto") {
			return found
		}
		if err == nil && d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && p != dir) {
			return filepath.SkipDir
		}
		return nil
	})
	if errors.Is(err, found) {
		return ""
	}
	return "the buf module has no .proto files (an Avro-only repository)"
}
