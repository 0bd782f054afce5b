package avrocompat

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/twmb/avro"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/schemafiles"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// DefaultGlobs is the action's default `avro-schemas`.
var DefaultGlobs = []string{"**/*.avsc"}

// HistoryFunc returns the earlier versions of a file (slash path relative
// to the repo root), oldest first, each read with the files of its set at
// the time (self-contained).
type HistoryFunc func(rel string) ([]*avro.Schema, error)

// CheckDirs checks every .avsc matching globs in headDir against the same
// path in baseDir (a checkout of the base). Each side's files are read as
// one set (avroschema.ReadSet), so a record is checked with the named
// types it uses from other files, as they are on that side. For
// transitive levels, history supplies every earlier version (nil: the
// base version only). A schema in base that head no longer has (removed
// or renamed) is a finding; a new one passes. baseDir may be empty when
// there is no base.
func CheckDirs(baseDir, headDir string, globs []string, level Level, history HistoryFunc) ([]report.Finding, error) {
	if len(globs) == 0 {
		globs = DefaultGlobs
	}
	heads, headSet, err := readSet(headDir, globs)
	if err != nil {
		return nil, err
	}
	var bases []string
	var baseSet *avroschema.Set
	if baseDir != "" {
		if bases, baseSet, err = readSet(baseDir, globs); err != nil {
			return nil, fmt.Errorf("base: %w", err)
		}
	}
	var out []report.Finding
	for _, rel := range heads {
		src, err := os.ReadFile(filepath.Join(headDir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, exitcode.BadInput("avro schema %s: %v", rel, err)
		}
		var earlier []*avro.Schema
		if level.Transitive() && history != nil {
			if earlier, err = history(rel); err != nil {
				return nil, err
			}
		}
		if base := baseSet.Schema(rel); len(earlier) == 0 && base != nil {
			earlier = []*avro.Schema{base}
		}
		out = append(out, CheckSchemas(rel, src, headSet.Schema(rel), earlier, level)...)
	}
	if level == None {
		return out, nil
	}
	for _, rel := range bases {
		if !slices.Contains(heads, rel) {
			out = append(out, report.Finding{Kind: report.KindAvro, File: rel, Rule: string(level),
				Message: fmt.Sprintf("%s was removed or renamed: data written with it has no schema to be read with, and its readers none to read new data; restore it (a rename is a removal plus a new subject)", rel)})
		}
	}
	return out, nil
}

// readSet reads the .avsc files under root matching globs as one set,
// each named by its slash path relative to root.
func readSet(root string, globs []string) ([]string, *avroschema.Set, error) {
	rels, err := relGlob(root, globs)
	if err != nil {
		return nil, nil, err
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	paths := make([]string, len(rels))
	for i, rel := range rels {
		paths[i] = filepath.Join(abs, filepath.FromSlash(rel))
	}
	set, err := avroschema.ReadSet(abs, paths)
	return rels, set, err
}

// relGlob lists the files under root matching globs as slash paths
// relative to root.
func relGlob(root string, globs []string) ([]string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, exitcode.BadInput("%s: not a directory; pass the checkout to check", root)
	}
	files, err := schemafiles.Glob(abs, globs)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(files))
	for i, f := range files {
		rel, err := filepath.Rel(abs, f)
		if err != nil {
			return nil, err
		}
		out[i] = filepath.ToSlash(rel)
	}
	return out, nil
}
