package bufcheck

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// A v1 config is read as v2 the way buf's own `buf config migrate` writes
// it: buf knows which rules v2 renamed, which defaults it changed and how
// v1's module-relative paths read from a v2 workspace's root. The gate runs
// it on copies of the config files alone, in a scratch directory: it reads
// no schema and writes nothing into a checkout.

// migrateWorkspace is the v1 workspace whose buf.work.yaml (w) is in dir,
// with its modules' buf.yaml files, as one v2 buf.yaml.
func migrateWorkspace(ctx context.Context, buf, root, dir string, w map[string]any) (map[string]any, error) {
	files := map[string]map[string]any{"buf.work.yaml": w}
	for _, d := range directories(w) {
		y, err := readConfig(root, filepath.Join(dir, d), "buf.yaml")
		if err != nil {
			return nil, err
		}
		if y == nil {
			y = map[string]any{"version": "v1"}
		}
		files[filepath.Join(d, "buf.yaml")] = y
	}
	return migrate(ctx, buf, "--workspace", files, repoRel(root, filepath.Join(dir, "buf.work.yaml")))
}

// migrateModule is a v1 module's buf.yaml (doc) as v2.
func migrateModule(ctx context.Context, buf string, doc map[string]any, name string) (map[string]any, error) {
	return migrate(ctx, buf, "--module", map[string]map[string]any{"buf.yaml": doc}, name)
}

// migrate writes files into a scratch directory, runs `buf config
// migrate <how> .` there and reads the buf.yaml it leaves. name is what
// an error names.
func migrate(ctx context.Context, buf, how string, files map[string]map[string]any, name string) (map[string]any, error) {
	tmp, err := os.MkdirTemp("", "wiregate-buf-migrate-")
	if err != nil {
		return nil, fmt.Errorf("translate %s to v2: %w", name, err)
	}
	defer os.RemoveAll(tmp)
	for p, doc := range files {
		b, err := yaml.Marshal(doc)
		if err != nil {
			return nil, fmt.Errorf("translate %s to v2: %w", name, err)
		}
		if err := os.MkdirAll(filepath.Join(tmp, filepath.Dir(p)), 0o755); err != nil {
			return nil, fmt.Errorf("translate %s to v2: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(tmp, p), b, 0o644); err != nil {
			return nil, fmt.Errorf("translate %s to v2: %w", name, err)
		}
	}
	cmd := proc.Command(ctx, buf, "config", "migrate", how, ".")
	cmd.Dir = tmp
	if _, err := cmd.Output(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("buf config migrate: %w", context.Cause(ctx))
		}
		return nil, exitcode.BadInput("%s: buf config migrate cannot translate it to v2: %s (run `buf config migrate` on it and commit the result)",
			name, failure(cmd.Captured().String(), err.Error()))
	}
	doc, err := readYAML(filepath.Join(tmp, "buf.yaml"))
	if err != nil || doc == nil {
		return nil, fmt.Errorf("translate %s to v2: buf config migrate wrote no buf.yaml (%v)", name, err)
	}
	return doc, nil
}

// failure is buf's "Failure: …" line of its output (its warnings come
// first), else its first line, else otherwise.
func failure(output, otherwise string) string {
	for _, l := range strings.Split(output, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "Failure: ") {
			return strings.TrimSpace(l)
		}
	}
	return firstOr(proc.FirstLine(output), otherwise)
}

// firstOr is s, or otherwise when s is empty.
func firstOr(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}
