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
			if p != abs && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(abs, p)
		rel = filepath.ToSlash(rel)
		for _, pat := range patterns {
			if Match(pat, rel) {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
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
