package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/wiregate/wiregate/harness/avrocompat"
	"github.com/wiregate/wiregate/harness/bufcheck"
	"github.com/wiregate/wiregate/harness/checkout"
	"github.com/wiregate/wiregate/harness/config"
	"github.com/wiregate/wiregate/harness/prepare"
	"github.com/wiregate/wiregate/harness/verdict"
)

// loadConfig takes thresholds from the inputs, then wiregate.yaml from the
// BASE checkout: a pull request cannot loosen its own gate; a change to
// wiregate.yaml takes effect for the PRs after it merges.
func (g *run) loadConfig(ctx context.Context) error {
	cfg, err := config.Load(g.base.dir, g.s.Config())
	if err != nil {
		return err
	}
	g.cfg = cfg
	g.r.Env.Alpha = cfg.Alpha
	return nil
}

// findTools resolves buf once for both sides (the base worktree has no
// node_modules of its own) and where the buf input sits in the repository.
func (g *run) findTools(ctx context.Context) error {
	buf, err := prepare.FindBuf(g.o.Buf, g.head.dir, g.o.HarnessDir, ".")
	if err != nil {
		return err
	}
	if strings.ContainsRune(buf, os.PathSeparator) {
		buf, _ = filepath.Abs(buf)
	}
	g.o.Buf = buf
	prefix, _ := checkout.Prefix(ctx, g.head.dir)
	g.bufRoot = filepath.ToSlash(filepath.Join(prefix, g.s.BufInput))
	return nil
}

// schemaChecks runs buf lint and buf breaking as their inputs ask. It is
// false when either could not run: a schema that does not compile stops
// the measuring stages (they would fail the same way, twice).
func (g *run) schemaChecks(ctx context.Context) bool {
	c := bufcheck.Check{Buf: g.o.Buf, Dir: g.head.dir, BufInput: g.s.BufInput, FileRoot: g.bufRoot}
	ok := true
	if g.s.Lint {
		ok = g.stage(ctx, "buf lint", func(ctx context.Context) error {
			fs, err := c.Lint(ctx)
			g.r.Findings = append(g.r.Findings, fs...)
			return err
		})
	}
	if g.s.Breaking && ok {
		ok = g.stage(ctx, "buf breaking", func(ctx context.Context) error {
			fs, err := c.Breaking(ctx, g.base.dir)
			g.r.Findings = append(g.r.Findings, fs...)
			return err
		})
	}
	if g.s.Breaking && ok && g.release != nil {
		// Not part of ok: head compiles, and the measuring stages do not
		// depend on the release.
		g.stage(ctx, "buf breaking (release)", func(ctx context.Context) error { return g.releaseBreaking(ctx, c) })
	}
	return ok
}

// avroCompat checks every .avsc of head against base (and, for transitive
// levels, against every earlier version in the base's history).
func (g *run) avroCompat(ctx context.Context) error {
	fs, err := avrocompat.CheckDirs(g.base.dir, g.head.dir, g.s.AvroSchemas, g.s.AvroCompatibility, g.avroHistory(ctx, g.base.dir, "the base"))
	if err != nil {
		return err
	}
	g.r.Findings = append(g.r.Findings, fs...)
	return nil
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
	history, why := avrocompat.GitHistory(ctx, dir, "HEAD")
	if history != nil {
		return history
	}
	warned := false
	return func(string) ([][]byte, error) {
		if !warned {
			warned = true
			g.warn("avro-compatibility is %s, but each .avsc was checked against %s's version only: %s (%s) %s", level, against, against, dir, why)
		}
		return nil, nil
	}
}

// verdict applies thresholds, wiregate.yaml and the PR's labels, turns
// stage errors into `error` violations and sets the result.
func (g *run) verdict(ctx context.Context) error {
	verdict.Apply(g.r, g.cfg, verdict.AllowFromLabels(g.o.Labels))
	return nil
}
