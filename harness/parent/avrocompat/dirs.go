package avrocompat

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/git"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/schemafiles"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// DefaultGlobs is the action's default `avro-schemas`.
var DefaultGlobs = []string{"**/*.avsc"}

// HistoryFunc returns the earlier versions of a file (slash path relative
// to the repo root), oldest first.
type HistoryFunc func(rel string) ([][]byte, error)

// CheckDirs checks every .avsc matching globs in headDir against the same
// path in baseDir (a checkout of the base). For transitive levels, history
// supplies every earlier version (nil: the base version only). A schema in
// base that head no longer has (removed or renamed) is a finding; a new one
// passes. baseDir may be empty when there is no base.
func CheckDirs(baseDir, headDir string, globs []string, level Level, history HistoryFunc) ([]report.Finding, error) {
	if len(globs) == 0 {
		globs = DefaultGlobs
	}
	heads, err := relGlob(headDir, globs)
	if err != nil {
		return nil, err
	}
	var bases []string
	if baseDir != "" {
		if bases, err = relGlob(baseDir, globs); err != nil {
			return nil, err
		}
	}
	var out []report.Finding
	for _, rel := range heads {
		head, err := os.ReadFile(filepath.Join(headDir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, exitcode.BadInput("avro schema %s: %v", rel, err)
		}
		var earlier [][]byte
		if level.Transitive() && history != nil {
			if earlier, err = history(rel); err != nil {
				return nil, err
			}
		}
		if len(earlier) == 0 && slices.Contains(bases, rel) {
			base, err := os.ReadFile(filepath.Join(baseDir, filepath.FromSlash(rel)))
			if err != nil {
				return nil, fmt.Errorf("base version of %s: %w", rel, err)
			}
			earlier = [][]byte{base}
		}
		fs, err := Check(rel, head, earlier, level)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
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

// GitHistory is the history the transitive levels check against: every
// version in the commits reachable from ref in repoDir (History). It is nil,
// with the reason (said of repoDir: "is not a git checkout, …"), where that
// history cannot be had whole: repoDir is not a git checkout, or it is a
// shallow clone, whose history stops short (git log would silently give
// only its last versions).
func GitHistory(ctx context.Context, repoDir, ref string) (HistoryFunc, string) {
	out, err := git.Run(ctx, repoDir, "rev-parse", "--is-shallow-repository")
	switch {
	case err != nil:
		return nil, "is not a git checkout, so its earlier versions are unknown"
	case out == "true":
		return nil, "is a shallow clone, so its history is cut short (actions/checkout with fetch-depth: 0 has all of it)"
	}
	return func(rel string) ([][]byte, error) { return History(ctx, repoDir, ref, rel) }, ""
}

// History returns every version of path (relative to repoDir) in the
// commits reachable from ref, following renames, oldest first. Commits that
// deleted the file are skipped, as are versions identical to the one
// before. A shallow clone has only part of the history: fetch with
// fetch-depth: 0 for the transitive levels.
func History(ctx context.Context, repoDir, ref, path string) ([][]byte, error) {
	log, err := git.Output(ctx, repoDir, "log", "--follow", "--format=%x00%H", "--name-only", ref, "--", path)
	if err != nil {
		return nil, exitcode.BadInput("history of %s at %s: %v; is %s a git checkout with that commit (fetch-depth: 0)?", path, ref, err, repoDir)
	}
	var versions [][]byte
	entries := strings.Split(string(log), "\x00")
	for i := len(entries) - 1; i >= 0; i-- { // git log is newest first
		var lines []string
		for _, l := range strings.Split(entries[i], "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		if len(lines) < 2 {
			continue
		}
		sha, name := lines[0], lines[len(lines)-1]
		data, err := git.Output(ctx, repoDir, "show", sha+":"+name)
		if err != nil {
			continue // the commit deleted it
		}
		if n := len(versions); n > 0 && bytes.Equal(versions[n-1], data) {
			continue
		}
		versions = append(versions, data)
	}
	return versions, nil
}
