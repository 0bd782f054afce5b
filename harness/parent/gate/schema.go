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
// checkout judged; installed on first use: prepare.Buf), where the buf
// input sits in the repository, and which of head's check plugins buf may
// run (bufcheck.Vet).
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
		plugins, err := bufcheck.Vet(bufcheck.Trees{HeadRoot: rootOf(g.head.dir, prefix), HeadDir: g.head.dir,
			BaseRoot: rootOf(g.base.dir, prefix), BaseDir: g.base.dir}, g.s.BufInput)
		if err != nil {
			return tools{}, "", err
		}
		return tools{harness: harness, buf: buf, bufRoot: filepath.ToSlash(filepath.Join(prefix, g.s.BufInput)), plugins: plugins}, "", nil
	})
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

// bufCheck is buf run on side s; on head, with the buf.yaml findTools
// vetted (head's own, less the plugins it may not run).
func (g *run) bufCheck(s *side) bufcheck.Check {
	c := bufcheck.Check{Buf: g.tools.buf, Dir: s.dir, BufInput: g.s.BufInput, FileRoot: g.tools.bufRoot}
	if s == g.head {
		c.Config = g.tools.plugins.Config
	}
	return c
}

// schemaChecks runs buf lint and buf breaking as their inputs ask and
// returns their findings. It is false when either could not run: a schema
// that does not compile stops the measuring stages (they would fail the
// same way, twice).
func (g *run) schemaChecks(ctx context.Context) ([]report.Finding, bool) {
	if why := noProto(g.head.bufInput(g.s.BufInput)); why != "" {
		// An Avro-only repository: nothing for buf to check, and nothing fails for it.
		for _, on := range []struct {
			name  string
			asked bool
		}{{"buf lint", g.s.Lint}, {"buf breaking", g.s.Breaking}} {
			if on.asked {
				stage(ctx, g, on.name, func(context.Context) (struct{}, string, error) { return struct{}{}, "skipped: " + why, nil })
			}
		}
		return nil, true
	}
	g.sayVetted()
	var all []report.Finding
	ok := true
	if g.s.Lint {
		var fs []report.Finding
		fs, ok = stage(ctx, g, "buf lint", g.lint)
		all = append(all, fs...)
	}
	if g.s.Breaking && ok {
		var fs []report.Finding
		fs, ok = stage(ctx, g, "buf breaking", func(ctx context.Context) ([]report.Finding, string, error) {
			fs, err := g.bufCheck(g.head).Breaking(ctx, g.base.dir)
			return fs, "", err
		})
		all = append(all, fs...)
	}
	if g.s.Breaking && ok && g.release != nil {
		// Not part of ok: head compiles, and the measuring stages do not
		// depend on the release.
		fs, _ := stage(ctx, g, "buf breaking (release)", g.releaseBreaking)
		all = append(all, fs...)
	}
	return all, ok
}

// sayVetted warns, in one line, of the check plugins and policies buf ran
// head's checks without (bufcheck.Vet).
func (g *run) sayVetted() {
	skipped := g.tools.plugins.Skipped
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

// lint runs buf lint on head and on the base: head's findings the base
// already has are existing debt (bufcheck.MarkExisting), which the verdict
// does not fail on unless lint-findings is all. A base that cannot be
// linted (no buf input yet, or it does not compile) has no debt: every
// finding is new.
func (g *run) lint(ctx context.Context) ([]report.Finding, string, error) {
	fs, err := g.bufCheck(g.head).Lint(ctx)
	if err != nil || len(fs) == 0 {
		return fs, "", err
	}
	base, err := g.bufCheck(g.base).Lint(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return fs, "", ctx.Err()
		}
		return fs, "the base could not be linted (" + err.Error() + "): every finding counts as new", nil
	}
	fs = bufcheck.MarkExisting(fs, base)
	existing := 0
	for _, f := range fs {
		if f.Existing {
			existing++
		}
	}
	if existing == 0 {
		return fs, "", nil
	}
	return fs, plural(existing, "finding") + " the base already has (existing debt)", nil
}

// releaseBreaking runs buf breaking on head against the release. A release
// older than the buf input has nothing to break: a warning, not an error.
func (g *run) releaseBreaking(ctx context.Context) ([]report.Finding, string, error) {
	if _, err := os.Stat(g.release.bufInput(g.s.BufInput)); errors.Is(err, fs.ErrNotExist) {
		g.warn("buf-input %s does not exist in %s: buf breaking did not run against it", g.s.BufInput, g.against.Ref)
		return nil, "", nil
	}
	fs, err := g.bufCheck(g.head).Breaking(ctx, g.release.dir)
	return against(fs, g.against.Ref), "", err
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
		return against(fs, g.against.Ref), "", err
	})
	return append(fs, rel...), ok
}

// against marks findings as checked against a release.
func against(fs []report.Finding, ref string) []report.Finding {
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
// no buf module there, or one without a single .proto file.
func noProto(dir string) string {
	if !hasBufModule(dir) {
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
