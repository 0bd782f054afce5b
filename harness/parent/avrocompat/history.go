package avrocompat

import (
	"bytes"
	"context"
	"strings"

	"github.com/twmb/avro"

	"github.com/wiregate/wiregate/harness/parent/git"
	"github.com/wiregate/wiregate/harness/parent/schemafiles"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// GitHistory is the history the transitive levels check against: every
// version in the commits reachable from ref in repoDir (history.versions).
// It is nil, with the reason (said of repoDir: "is not a git checkout,
// …"), where that history cannot be had whole: repoDir is not a git
// checkout, or it is a shallow clone, whose history stops short (git log
// would silently give only its last versions). globs select the .avsc
// files read together at each commit.
func GitHistory(ctx context.Context, repoDir, ref string, globs []string) (HistoryFunc, string) {
	out, err := git.Run(ctx, repoDir, "rev-parse", "--is-shallow-repository")
	switch {
	case err != nil:
		return nil, "is not a git checkout, so its earlier versions are unknown"
	case out == "true":
		return nil, "is a shallow clone, so its history is cut short (actions/checkout with fetch-depth: 0 has all of it)"
	}
	if len(globs) == 0 {
		globs = DefaultGlobs
	}
	// git log names files from the repository's top, globs and ls-tree
	// from repoDir, which may be below it.
	prefix, err := git.Run(ctx, repoDir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, "is not a git checkout, so its earlier versions are unknown"
	}
	h := &history{ctx: ctx, dir: repoDir, prefix: prefix, ref: ref, globs: globs, sets: map[string]*avroschema.Set{}, setErrs: map[string]error{}, blobs: map[string][]byte{}}
	return h.versions, ""
}

// history reads a repository's .avsc sets commit by commit, each set once.
type history struct {
	ctx        context.Context
	dir, ref   string
	prefix     string // repoDir below the repository's top ("a/b/"), or ""
	globs      []string
	commits    []string // touching a selected file, oldest first; nil until read
	sets       map[string]*avroschema.Set
	setErrs    map[string]error
	blobs      map[string][]byte
	commitsErr error
}

// versions are every version of rel (relative to the directory) in the
// commits reachable from ref, following renames, oldest first: the file as
// its set read it at each commit that changed any selected file, so an
// edit of a named type another file defines is a version of every record
// using it. Versions identical to the one before are skipped; commits
// that deleted the file are too. A set that does not load at a commit
// (a type defined nowhere, or twice differently, in an old commit) gives
// the file as read alone there; a file that does not load even so is the
// user's to fix, as any .avsc is.
func (h *history) versions(rel string) ([]*avro.Schema, error) {
	names, err := h.follow(rel)
	if err != nil {
		return nil, err
	}
	commits, err := h.setCommits()
	if err != nil {
		return nil, err
	}
	var out []*avro.Schema
	name := ""
	for _, c := range commits {
		if n, ok := names[c]; ok {
			name = n
		}
		if name == "" {
			continue // not yet written, or not in the directory then
		}
		s, err := h.schemaAt(c, name)
		if err != nil {
			return nil, err
		}
		if s == nil || len(out) > 0 && out[len(out)-1].String() == s.String() {
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

// follow is the name rel had at each commit that changed it, renames
// followed, relative to the directory ("" where it was outside it).
func (h *history) follow(rel string) (map[string]string, error) {
	log, err := git.Output(h.ctx, h.dir, "log", "--follow", "--format=%x00%H", "--name-only", h.ref, "--", rel)
	if err != nil {
		return nil, exitcode.BadInput("history of %s at %s: %v; is %s a git checkout with that commit (fetch-depth: 0)?", rel, h.ref, err, h.dir)
	}
	out := map[string]string{}
	for _, entry := range strings.Split(string(log), "\x00") {
		var lines []string
		for _, l := range strings.Split(entry, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		if len(lines) >= 2 {
			name, inside := strings.CutPrefix(lines[len(lines)-1], h.prefix)
			if !inside {
				name = ""
			}
			out[lines[0]] = name
		}
	}
	return out, nil
}

// setCommits are the commits reachable from ref that changed a selected
// file, oldest first.
func (h *history) setCommits() ([]string, error) {
	if h.commits != nil || h.commitsErr != nil {
		return h.commits, h.commitsErr
	}
	args := []string{"log", "--format=%H", "--reverse", h.ref, "--"}
	for _, g := range h.globs {
		args = append(args, ":(glob)"+g)
	}
	out, err := git.Output(h.ctx, h.dir, args...)
	if err != nil {
		h.commitsErr = exitcode.BadInput("history of the .avsc files at %s: %v; is %s a git checkout with that commit (fetch-depth: 0)?", h.ref, err, h.dir)
		return nil, h.commitsErr
	}
	h.commits = strings.Fields(string(out))
	return h.commits, nil
}

// schemaAt is the file name as commit read it with its set; nil when the
// commit has no such file.
func (h *history) schemaAt(commit, name string) (*avro.Schema, error) {
	set, err := h.setAt(commit)
	if err == nil {
		return set.Schema(name), nil
	}
	data, ok := h.file(commit, name)
	if !ok {
		return nil, nil
	}
	return avroschema.Parse(name+"@"+commit[:min(12, len(commit))], data)
}

// setAt reads the selected files of commit as one set.
func (h *history) setAt(commit string) (*avroschema.Set, error) {
	if s, ok := h.sets[commit]; ok {
		return s, nil
	}
	if err, ok := h.setErrs[commit]; ok {
		return nil, err
	}
	set, err := h.readSet(commit)
	if err != nil {
		h.setErrs[commit] = err
		return nil, err
	}
	h.sets[commit] = set
	return set, nil
}

func (h *history) readSet(commit string) (*avroschema.Set, error) {
	tree, err := git.Output(h.ctx, h.dir, "ls-tree", "-r", "-z", commit)
	if err != nil {
		return nil, exitcode.BadInput("files of commit %s: %v", commit, err)
	}
	var srcs []avroschema.Source
	for _, entry := range bytes.Split(tree, []byte{0}) {
		meta, path, ok := strings.Cut(string(entry), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" || !schemafiles.Selects(h.globs, path) {
			continue
		}
		data, err := h.blob(f[2])
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, avroschema.Source{Name: path, Data: data})
	}
	return avroschema.ParseSet(srcs)
}

// file is name's contents at commit; false when the commit has no such
// file (it deleted it).
func (h *history) file(commit, name string) ([]byte, bool) {
	data, err := git.Output(h.ctx, h.dir, "show", commit+":./"+name) // ./: from the directory, not the top
	return data, err == nil
}

// blob is a blob's contents, each read once.
func (h *history) blob(sha string) ([]byte, error) {
	if b, ok := h.blobs[sha]; ok {
		return b, nil
	}
	b, err := git.Output(h.ctx, h.dir, "cat-file", "blob", sha)
	if err != nil {
		return nil, exitcode.BadInput("blob %s: %v", sha, err)
	}
	h.blobs[sha] = b
	return b, nil
}
