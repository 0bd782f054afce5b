// Package docs holds the tests that keep README.md and docs/ readable as a
// reference: every link resolves, anchors included; every results file is
// cited; every section of docs/figures.md names the set that reruns it; and
// no heading, and no sentence, names a tracker number or a work pass.
package docs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// root is the repository's root, from this package's directory.
var root = filepath.Join("..", "..", "..")

var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

// doc is one markdown file as the tests read it.
type doc struct {
	path     string // from the root, slash-separated
	source   []byte
	headings []heading
	links    []string // destinations as written
}

type heading struct {
	level int
	text  string
	slug  string
	body  string // the source from the line after the heading to the next heading of this level or higher
}

// docs reads README.md and every .md file under docs/ but the results,
// which are data.
func docs(t *testing.T) map[string]*doc {
	t.Helper()
	out := map[string]*doc{}
	paths := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && rel == "docs/results" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			paths = append(paths, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		out[p] = parse(t, p)
	}
	return out
}

func parse(t *testing.T, path string) *doc {
	t.Helper()
	source, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	d := &doc{path: path, source: source}
	tree := md.Parser().Parse(text.NewReader(source))
	seen := map[string]int{}
	type start struct{ level, line int }
	var starts []start
	err = ast.Walk(tree, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			h := heading{level: n.Level, text: textOf(n, source)}
			h.slug = slug(h.text)
			if k := seen[h.slug]; k > 0 {
				seen[h.slug] = k + 1
				h.slug = fmt.Sprintf("%s-%d", h.slug, k)
			} else {
				seen[h.slug] = 1
			}
			d.headings = append(d.headings, h)
			line := 0
			if lines := n.Lines(); lines.Len() > 0 {
				line = lines.At(0).Start
			}
			starts = append(starts, start{n.Level, line})
		case *ast.Link:
			d.links = append(d.links, string(n.Destination))
		case *ast.Image:
			d.links = append(d.links, string(n.Destination))
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Each heading's body: from the end of its line to the next heading of
	// its level or higher.
	for i, s := range starts {
		from := s.line
		if nl := strings.IndexByte(string(source[from:]), '\n'); nl >= 0 {
			from += nl + 1
		}
		to := len(source)
		for _, next := range starts[i+1:] {
			if next.level <= s.level {
				to = strings.LastIndex(string(source[:next.line]), "\n") + 1
				break
			}
		}
		if to < from {
			to = from
		}
		d.headings[i].body = string(source[from:to])
	}
	return d
}

// textOf is a node's text as a reader sees it: code spans without their
// backticks, emphasis without its markers, a link's text.
func textOf(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(source))
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// slug is a heading's anchor as GitHub makes it: lower case, letters,
// digits, '-' and '_' kept, spaces made '-', everything else dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// target is where a link points: a path from the root and an anchor;
// external is true for a URL, which is not checked.
func target(from, dest string) (path, anchor string, external bool) {
	if regexp.MustCompile(`^[a-z][a-z0-9+.-]*:`).MatchString(dest) || strings.HasPrefix(dest, "//") {
		return "", "", true
	}
	path, anchor, _ = strings.Cut(dest, "#")
	if path == "" {
		return from, anchor, false
	}
	return filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(from), path))), anchor, false
}

func TestEveryLinkResolves(t *testing.T) {
	all := docs(t)
	for _, d := range all {
		for _, dest := range d.links {
			path, anchor, external := target(d.path, dest)
			if external {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(path))); err != nil {
				t.Errorf("%s: link %q: %s does not exist", d.path, dest, path)
				continue
			}
			if anchor == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			to, ok := all[path]
			if !ok {
				to = parse(t, path)
			}
			if !slices.ContainsFunc(to.headings, func(h heading) bool { return h.slug == anchor }) {
				t.Errorf("%s: link %q: %s has no heading #%s", d.path, dest, path, anchor)
			}
		}
	}
}

// A sentence may name a heading in words, `docs/figures.md, "What does a
// count process cost?"`: the words must begin a heading of that file.
func TestEveryHeadingNamedInWordsExists(t *testing.T) {
	all := docs(t)
	ref := regexp.MustCompile(`([\w./-]+\.md), ["“]([^"”]+)["”]`)
	for _, d := range all {
		flat := strings.Join(strings.Fields(string(d.source)), " ")
		for _, m := range ref.FindAllStringSubmatch(flat, -1) {
			// docs/x.md from the root; x.md beside the file, else among docs/.
			path := m[1]
			if !strings.HasPrefix(path, "docs/") {
				if beside, _, _ := target(d.path, path); all[beside] != nil {
					path = beside
				} else {
					path = "docs/" + filepath.Base(path)
				}
			}
			to, ok := all[path]
			if !ok {
				t.Errorf("%s: %q names %s, which is not a doc", d.path, m[0], path)
				continue
			}
			words := strings.ToLower(m[2])
			if !slices.ContainsFunc(to.headings, func(h heading) bool { return strings.HasPrefix(strings.ToLower(h.text), words) }) {
				t.Errorf("%s: %q: no heading of %s begins so", d.path, m[0], path)
			}
		}
	}
}

// Every file and directory in docs/results is linked from a section of the
// docs (tests read some of them too; they are cited all the same).
func TestEveryResultsFileIsCited(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(root, "docs", "results"))
	if err != nil {
		t.Fatal(err)
	}
	cited := map[string]bool{}
	for _, d := range docs(t) {
		for _, dest := range d.links {
			path, _, external := target(d.path, dest)
			if rest, ok := strings.CutPrefix(path, "docs/results/"); ok && !external {
				cited[strings.SplitN(rest, "/", 2)[0]] = true
			}
		}
	}
	for _, e := range entries {
		if !cited[e.Name()] {
			t.Errorf("docs/results/%s is cited by no doc: cite it from the section that uses it, or remove it (git keeps it)", e.Name())
		}
	}
}

// A placeholder section holds only a comment until its figures are in.
var placeholder = regexp.MustCompile(`^\s*<!--[^>]*-->\s*$`)

// Every question of docs/figures.md names the set of scripts/figures.sh
// that reruns it, and that set exists.
func TestEveryFiguresSectionNamesItsSet(t *testing.T) {
	script, err := os.ReadFile(filepath.Join(root, "scripts", "figures.sh"))
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([a-z0-9-]+)\)`).FindAllStringSubmatch(string(script), -1) {
		sets[m[1]] = true
	}
	if len(sets) < 20 {
		t.Fatalf("read %d sets from scripts/figures.sh: its form changed?", len(sets))
	}
	named := regexp.MustCompile("`scripts/figures\\.sh ([a-z0-9-]+)")
	questions := 0
	for _, h := range parse(t, "docs/figures.md").headings {
		if h.level != 3 {
			continue
		}
		questions++
		if placeholder.MatchString(h.body) {
			continue
		}
		ms := named.FindAllStringSubmatch(h.body, -1)
		if len(ms) == 0 {
			t.Errorf("docs/figures.md, %q: names no `scripts/figures.sh SET` that reruns it", h.text)
		}
		for _, m := range ms {
			if !sets[m[1]] {
				t.Errorf("docs/figures.md, %q: scripts/figures.sh has no set %q", h.text, m[1])
			}
		}
	}
	if questions == 0 {
		t.Fatal("docs/figures.md has no question (### heading)")
	}
}

// A tracker number or a work pass means nothing to a reader: a heading
// names its topic, and so does a sentence.
func TestNoTrackerNumbersOrPasses(t *testing.T) {
	issue := regexp.MustCompile(`(?i)\bissues? #?\d+`)
	pass := regexp.MustCompile(`(?i)\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d+(st|nd|rd|th)) pass\b`)
	for _, d := range docs(t) {
		for _, h := range d.headings {
			if issue.MatchString(h.text) || pass.MatchString(h.text) {
				t.Errorf("%s: heading %q names a tracker number or a work pass", d.path, h.text)
			}
		}
		flat := strings.Join(strings.Fields(string(d.source)), " ")
		for _, m := range issue.FindAllString(flat, -1) {
			t.Errorf("%s: %q: name the topic, not the tracker number", d.path, m)
		}
	}
}
