package bufcheck

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Config is the buf config one side's buf input resolves to, as buf
// itself would find it: where buf runs (Dir, the workspace's root), the
// input it is given there (Input), and the buf.yaml it runs with (Doc),
// which the gate always passes with --config, so buf never searches.
type Config struct {
	Dir string // absolute: the directory of the file that configures buf-input
	// RepoDir is Dir, repository-relative: where buf names files from,
	// and what module paths are relative to.
	RepoDir string
	Input   string         // buf-input relative to Dir, slash-separated; "." when Dir is buf-input
	Doc     map[string]any // the buf.yaml; nil when no buf config covers buf-input
	// File is the config's file, repository-relative ("buf.yaml",
	// "proto/buf.yaml", "buf.work.yaml").
	File string
	// Migrated says Doc is File (a v1 buf.work.yaml workspace, or a v1
	// buf.yaml) as `buf config migrate` translates it to v2.
	Migrated bool
}

// Found says whether a buf config covers buf-input.
func (c Config) Found() bool { return c.Doc != nil }

// Version is the config's version: "v2", or "v1" for v1 and v1beta1
// (buf reads a file without one as v1beta1); "" without a config.
func (c Config) Version() string {
	if c.Doc == nil {
		return ""
	}
	if v, _ := c.Doc["version"].(string); v == "v2" {
		return "v2"
	}
	return "v1"
}

// Text is the config as buf reads it with --config.
func (c Config) Text() (string, error) {
	doc := c.Doc
	if doc == nil {
		doc = map[string]any{"version": "v1"} // buf's own defaults for a module without a config
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("write the buf config of %s: %w", c.File, err)
	}
	return string(b), nil
}

// Resolve finds the config buf would use for bufInput in the checkout dir
// (whose repository root is root), as buf finds it: walking up from
// bufInput, a v2 buf.yaml in bufInput itself, or above it naming it (or a
// directory of it) as a module, or a v1 buf.work.yaml listing it; else
// bufInput's own v1 buf.yaml; else none. buf walks past the repository's
// root, but what lies above it is not the repository's: the walk stops
// there. A v1 workspace becomes the v2 config `buf config migrate` writes
// for it (buf, the binary, translates it), so its modules still import
// each other.
func Resolve(ctx context.Context, buf, root, dir, bufInput string) (Config, error) {
	in, err := filepath.Abs(filepath.Join(dir, bufInput))
	if err != nil {
		return Config{}, fmt.Errorf("buf-input %s: %w", bufInput, err)
	}
	if root, err = filepath.Abs(root); err != nil {
		return Config{}, fmt.Errorf("repository root %s: %w", root, err)
	}
	var own *Config
	for d := in; ; d = filepath.Dir(d) {
		rel := filepath.ToSlash(mustRel(d, in))
		y, err := readConfig(root, d, "buf.yaml")
		if err != nil {
			return Config{}, err
		}
		if y != nil {
			c := Config{Dir: d, RepoDir: repoRel(root, d), Input: rel, Doc: y, File: repoRel(root, filepath.Join(d, "buf.yaml"))}
			switch {
			case c.Version() == "v2" && (rel == "." || slices.Contains(modulePaths(y), rel)):
				return c, nil
			case c.Version() != "v2" && rel == ".":
				own = &c // a v1 module: a workspace above may still claim it
			}
		}
		w, err := readConfig(root, d, "buf.work.yaml")
		if err != nil {
			return Config{}, err
		}
		if w != nil && (rel == "." || slices.Contains(directories(w), rel)) {
			doc, err := migrateWorkspace(ctx, buf, root, d, w)
			if err != nil {
				return Config{}, err
			}
			return Config{Dir: d, RepoDir: repoRel(root, d), Input: rel, Doc: doc, File: repoRel(root, filepath.Join(d, "buf.work.yaml")), Migrated: true}, nil
		}
		if d == root || filepath.Dir(d) == d || !within(root, d) {
			break
		}
	}
	if own != nil {
		return *own, nil
	}
	return Config{Dir: in, RepoDir: repoRel(root, in), Input: "."}, nil
}

// readConfig reads a buf config file of directory d: nil when there is
// none; a one-line error naming it when it is no YAML mapping.
func readConfig(root, d, name string) (map[string]any, error) {
	p := filepath.Join(d, name)
	y, err := readYAML(p)
	if err != nil {
		return nil, exitcode.BadInput("%s: %v (a buf config must be YAML buf can read)", repoRel(root, p), err)
	}
	return y, nil
}

// modulePaths are a v2 config's module paths, cleaned; "." when it lists
// none (the directory is the one module).
func modulePaths(doc map[string]any) []string {
	mods, ok := doc["modules"].([]any)
	if !ok {
		return []string{"."}
	}
	var out []string
	for _, m := range mods {
		if p, ok := field(m, "path").(string); ok {
			out = append(out, path.Clean(p))
		}
	}
	return out
}

// directories are a v1 buf.work.yaml's module directories, cleaned.
func directories(doc map[string]any) []string {
	ds, _ := doc["directories"].([]any)
	var out []string
	for _, d := range ds {
		if s, ok := d.(string); ok {
			out = append(out, path.Clean(s))
		}
	}
	return out
}

// repoRel is p relative to the repository root, slash-separated.
func repoRel(root, p string) string {
	return filepath.ToSlash(mustRel(root, p))
}

// mustRel is filepath.Rel for paths known to be comparable (both absolute).
func mustRel(base, p string) string {
	rel, err := filepath.Rel(base, p)
	if err != nil {
		return p
	}
	return rel
}

// within says whether d is root or below it.
func within(root, d string) bool {
	rel := mustRel(root, d)
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
