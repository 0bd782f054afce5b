// Package schemafiles finds schema files by glob patterns with `**`
// (any number of directories), the way .gitignore-style globs read.
package schemafiles

import (
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Glob returns the files under root matching any pattern, as absolute
// paths, sorted. Hidden directories and node_modules are skipped.
func Glob(root string, patterns []string) ([]string, error) {
	for _, p := range patterns {
		if _, err := path.Match(strings.ReplaceAll(p, "**", "x"), ""); err != nil {
			return nil, exitcode.BadInput("glob %q: %v; write e.g. **/*.avsc", p, err)
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	var out []string
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != abs && skipped(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(abs, p)
		if matchAny(patterns, filepath.ToSlash(rel)) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// skipped says whether a directory of that name is never searched.
func skipped(dir string) bool { return strings.HasPrefix(dir, ".") || dir == "node_modules" }

// Selects says whether Glob would return the file at the slash path rel
// (relative to its root): for listings that are not a directory on disk,
// such as a commit's tree.
func Selects(patterns []string, rel string) bool {
	segs := strings.Split(rel, "/")
	for _, d := range segs[:len(segs)-1] {
		if skipped(d) {
			return false
		}
	}
	return matchAny(patterns, rel)
}

func matchAny(patterns []string, rel string) bool {
	for _, pat := range patterns {
		if Match(pat, rel) {
			return true
		}
	}
	return false
}

// Match reports whether the slash-separated path name matches pattern,
// where a `**` segment matches zero or more directories.
func Match(pattern, name string) bool {
	return match(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func match(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if match(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
