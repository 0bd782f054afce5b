package bufcheck

import (
	"context"
	"fmt"
	"maps"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Rules are policy, like wiregate.yaml: a pull request is judged by the
// base's, so it cannot loosen the rules that judge it. What buf checks
// comes from head (its files and its layout: modules, excludes, deps);
// how it judges them comes from the base: the lint and breaking sections
// (rules used and excepted, ignores, comment ignores, lint options), and
// the check plugins and policies that add rules.

// sections are a module's rule sections (in v2, a module's own section
// replaces the workspace-wide one whole).
var sections = []string{"lint", "breaking"}

// workspaceRules are a v2 workspace's rule lists outside its sections.
var workspaceRules = []string{"plugins", "policies"}

// Judged is the config buf lint and buf breaking judge head with.
type Judged struct {
	// Config is head's layout with the base's rules.
	Config Config
	// From says whose rules judged each module, one phrase each.
	From []string
	// Change is how head's own rules differ from the base's; nil when
	// they do not.
	Change *Change
}

// Change is how head's buf config changes the rules that judge it.
type Change struct {
	File  string       `json:"file"` // head's buf config, repository-relative
	Parts []ChangePart `json:"parts"`
}

// ChangePart is one section's change: loosens, tightens or changes.
type ChangePart struct {
	Verb    string   `json:"verb"`
	Section string   `json:"section"`          // lint, breaking, plugins, policies
	Module  string   `json:"module,omitempty"` // the module, when head has more than one
	Items   []string `json:"items"`            // "except: FIELD_NO_DELETE", "no longer use: FILE"
}

// Line is the change in one line: `buf.yaml loosens breaking: `except:
// FIELD_NO_DELETE` (judged by the base's rules; applies once merged)`.
func (c Change) Line() string {
	parts := make([]string, 0, len(c.Parts))
	for _, p := range c.Parts {
		where := p.Section
		if p.Module != "" {
			where += " of module " + p.Module
		}
		items := make([]string, len(p.Items))
		for i, it := range p.Items {
			items[i] = "`" + strings.ReplaceAll(it, "`", "ˋ") + "`"
		}
		parts = append(parts, p.Verb+" "+where+": "+strings.Join(items, ", "))
	}
	return c.File + " " + strings.Join(parts, "; ") + " (judged by the base's rules; applies once merged)"
}

// Judge is the config head is judged with: head's layout, the base's
// rules. Rules map by module path (repository-relative); a module the
// base has no rules for takes the base's workspace-wide rules, or buf's
// defaults where the base has no buf config at all. Where the two
// versions differ, the v1 side is read as `buf config migrate` writes it
// in v2. Paths in the base's ignores are rebased onto head's workspace.
func Judge(ctx context.Context, buf string, head, base Config) (Judged, error) {
	if !head.Found() {
		return Judged{Config: head}, nil
	}
	h, b := head, base
	if b.Found() && h.Version() != b.Version() {
		var err error
		if h.Version() == "v1" {
			h, err = migrated(ctx, buf, h)
		} else {
			b, err = migrated(ctx, buf, b)
		}
		if err != nil {
			return Judged{}, err
		}
	}
	hRoot, bRoot := h.RepoDir, b.RepoDir
	j := Judged{Config: h}
	j.Config.Doc = clone(h.Doc).(map[string]any)
	checked := modulesOf(h)
	all := checked
	if h.Version() == "v2" {
		all = modulePaths(h.Doc) // every module: none falls back on head's workspace-wide rules
	}
	var parts []ChangePart
	for _, m := range all {
		baseRules, from := b.rulesFor(path.Join(hRoot, m), bRoot)
		shown := slices.Contains(checked, m)
		name := ""
		if len(checked) > 1 {
			name, from = m, m+": "+from
		}
		if shown {
			j.From = append(j.From, from)
		}
		for _, s := range sections {
			want := rebase(baseRules[s], bRoot, hRoot)
			if shown {
				parts = append(parts, diffSection(s, name, effective(h.Doc, m, s), want)...)
			}
			setModuleSection(j.Config.Doc, h.Version(), m, s, want)
		}
	}
	if h.Version() == "v2" {
		for _, k := range workspaceRules {
			want := b.workspaceList(k)
			parts = append(parts, diffList(k, listOf(h.Doc[k]), want)...)
			if len(want) > 0 {
				j.Config.Doc[k] = clone(want)
			} else {
				delete(j.Config.Doc, k)
			}
		}
	}
	if len(parts) > 0 {
		j.Change = &Change{File: head.File, Parts: parts}
	}
	return j, nil
}

// migrated is c's v1 config as v2.
func migrated(ctx context.Context, buf string, c Config) (Config, error) {
	doc, err := migrateModule(ctx, buf, c.Doc, c.File)
	if err != nil {
		return Config{}, err
	}
	c.Doc, c.Migrated = doc, true
	return c, nil
}

// modulesOf are the modules of c buf checks: every module of a v2
// workspace when buf-input is its root, else buf-input's module.
func modulesOf(c Config) []string {
	if c.Version() != "v2" || c.Input != "." {
		return []string{c.Input}
	}
	return modulePaths(c.Doc)
}

// rulesFor are the base's rule sections for the module at repoPath
// (repository-relative), and a phrase saying where they come from. bRoot
// is the base config's directory, repository-relative.
func (c Config) rulesFor(repoPath, bRoot string) (map[string]any, string) {
	if !c.Found() {
		return nil, "buf's defaults (the base has no buf config)"
	}
	from := "the base's " + c.File
	if c.Migrated {
		from += " (v1), as `buf config migrate` translates it"
	}
	if c.Version() != "v2" {
		if bRoot == repoPath {
			return pick(c.Doc, sections), from
		}
		return nil, "buf's defaults (the base's " + c.File + " is not this module's)"
	}
	for _, m := range modulePaths(c.Doc) {
		if path.Join(bRoot, m) == repoPath {
			out := map[string]any{}
			for _, s := range sections {
				if v := effective(c.Doc, m, s); v != nil {
					out[s] = v
				}
			}
			return out, from
		}
	}
	return pick(c.Doc, sections), from + " (its workspace-wide rules: the base has no module " + repoPath + ")"
}

// workspaceList is a v2 base's top-level list key ("plugins", "policies").
func (c Config) workspaceList(key string) []any {
	if c.Version() != "v2" {
		return nil
	}
	return listOf(c.Doc[key])
}

// effective is module m's section s in doc: the module's own in a v2
// workspace when it has one, else the workspace-wide (v1: the file's).
func effective(doc map[string]any, m, s string) any {
	if e := moduleEntry(doc, m); e != nil {
		if v, ok := e[s]; ok {
			return v
		}
	}
	return doc[s]
}

// moduleEntry is the entry of doc's modules whose path is m; nil when
// there is none (v1, or a v2 file listing no modules).
func moduleEntry(doc map[string]any, m string) map[string]any {
	mods, _ := doc["modules"].([]any)
	for _, e := range mods {
		if p, ok := field(e, "path").(string); ok && path.Clean(p) == m {
			em, _ := e.(map[string]any)
			return em
		}
	}
	return nil
}

// setModuleSection makes module m's section s in doc exactly v (nil:
// buf's defaults). In v2 every module then carries its own section and
// the workspace-wide one goes, so nothing of head's rules is left to
// fall back on.
func setModuleSection(doc map[string]any, version, m, s string, v any) {
	if version != "v2" {
		setOrDelete(doc, s, v)
		return
	}
	delete(doc, s)
	if _, ok := doc["modules"]; !ok {
		doc["modules"] = []any{map[string]any{"path": "."}}
	}
	if e := moduleEntry(doc, m); e != nil {
		setOrDelete(e, s, v)
	}
}

func setOrDelete(m map[string]any, k string, v any) {
	if empty(v) {
		delete(m, k)
		return
	}
	m[k] = clone(v)
}

// pick is doc's keys among keys, those it has.
func pick(doc map[string]any, keys []string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := doc[k]; ok {
			out[k] = v
		}
	}
	return out
}

// rebase moves a section's ignore paths from the base config's directory
// (from) to head's (to), both repository-relative. A path that would
// leave head's workspace is dropped: an ignore less is a stricter check.
func rebase(section any, from, to string) any {
	m, ok := section.(map[string]any)
	if !ok || from == to {
		return section
	}
	moveAll := func(ps any) []any {
		var kept []any
		for _, p := range listOf(ps) {
			if s, ok := p.(string); ok {
				if rel := relSlash(to, path.Join(from, s)); rel != ".." && !strings.HasPrefix(rel, "../") {
					kept = append(kept, rel)
				}
			}
		}
		return kept
	}
	out := clone(m).(map[string]any)
	if _, ok := out["ignore"]; ok {
		out["ignore"] = moveAll(out["ignore"])
	}
	if only, ok := out["ignore_only"].(map[string]any); ok {
		for rule, ps := range only {
			only[rule] = moveAll(ps)
		}
	}
	return out
}

// relSlash is p relative to base, both slash-separated and relative to
// the same root.
func relSlash(base, p string) string {
	b, q := strings.Split(path.Clean(base), "/"), strings.Split(path.Clean(p), "/")
	if path.Clean(base) == "." {
		b = nil
	}
	if path.Clean(p) == "." {
		q = nil
	}
	i := 0
	for i < len(b) && i < len(q) && b[i] == q[i] {
		i++
	}
	out := slices.Repeat([]string{".."}, len(b)-i)
	out = append(out, q[i:]...)
	if len(out) == 0 {
		return "."
	}
	return strings.Join(out, "/")
}

// looser says which way a change of a rule key goes: +1 when adding to it
// (or setting it true) loosens the check, -1 when it tightens it, 0 when
// it cannot be told.
var looser = map[string]int{
	"except": 1, "ignore": 1, "ignore_only": 1, "use": -1,
	"ignore_unstable_packages": 1, "allow_comment_ignores": 1, "disallow_comment_ignores": -1,
	"rpc_allow_same_request_response": 1, "rpc_allow_google_protobuf_empty_requests": 1,
	"rpc_allow_google_protobuf_empty_responses": 1,
	"plugins": -1, "policies": -1,
}

// diffSection is how head's section (have) differs from the base's
// (want), as at most one part.
func diffSection(section, module string, have, want any) []ChangePart {
	h, _ := have.(map[string]any)
	w, _ := want.(map[string]any)
	var c changes
	for _, k := range slices.Sorted(maps.Keys(union(h, w))) {
		hv, wv := h[k], w[k]
		if equalRule(hv, wv) {
			continue
		}
		way := looser[k]
		if isList(hv) || isList(wv) || isMap(hv) || isMap(wv) {
			added, removed := setDiff(entries(hv), entries(wv))
			for _, a := range added {
				c.note(k+": "+a, way)
			}
			for _, r := range removed {
				c.note("no longer "+k+": "+r, -way)
			}
			continue
		}
		// A flag: which way depends on the value head gives it (or, where
		// head drops it, on the default it falls back to).
		on, isFlag := hv.(bool)
		if wb, ok := wv.(bool); !isFlag && ok {
			on, isFlag = !wb, true
		}
		switch {
		case !isFlag:
			way = 0
		case !on:
			way = -way
		}
		if hv == nil {
			c.note(fmt.Sprintf("no longer %s: %v", k, scalar(wv)), way)
		} else {
			c.note(fmt.Sprintf("%s: %v", k, scalar(hv)), way)
		}
	}
	return c.part(section, module)
}

// diffList is how head's plugins or policies differ from the base's.
func diffList(key string, have, want []any) []ChangePart {
	label := func(vs []any) []string {
		var out []string
		for _, v := range vs {
			out = append(out, strings.TrimSuffix(key, "s")+": "+describe(v))
		}
		return out
	}
	added, removed := setDiff(label(have), label(want))
	var c changes
	for _, a := range added {
		c.note(a, looser[key])
	}
	for _, r := range removed {
		c.note("no longer "+r, -looser[key])
	}
	return c.part(key, "")
}

// changes are a section's changed items, and which way each goes.
type changes struct {
	items []string
	ways  []int
}

func (c *changes) note(item string, way int) {
	c.items = append(c.items, item)
	c.ways = append(c.ways, way)
}

// part is the changes as one part, nil without any: it loosens when
// every item does, tightens when every item does, else changes.
func (c changes) part(section, module string) []ChangePart {
	if len(c.items) == 0 {
		return nil
	}
	v := "changes"
	switch {
	case !slices.ContainsFunc(c.ways, func(w int) bool { return w != 1 }):
		v = "loosens"
	case !slices.ContainsFunc(c.ways, func(w int) bool { return w != -1 }):
		v = "tightens"
	}
	return []ChangePart{{Verb: v, Section: section, Module: module, Items: c.items}}
}

// describe is a plugin or policy entry in a few words: its program or
// file, with its arguments and options when it has them.
func describe(e any) string {
	m, ok := e.(map[string]any)
	if !ok {
		return fmt.Sprint(e)
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, scalar(m[k])))
	}
	s := label(e)
	if len(m) > 1 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// entries are a list's or a mapping's values as comparable strings: a
// list's elements, a mapping's "key: element" pairs (ignore_only).
func entries(v any) []string {
	var out []string
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			out = append(out, fmt.Sprint(scalar(e)))
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			for _, e := range entries(v[k]) {
				out = append(out, k+": "+e)
			}
		}
	case nil:
	default:
		out = append(out, fmt.Sprint(scalar(v)))
	}
	return out
}

// setDiff is what a has that b lacks, and what b has that a lacks, sorted.
func setDiff(a, b []string) (added, removed []string) {
	for _, x := range a {
		if !slices.Contains(b, x) && !slices.Contains(added, x) {
			added = append(added, x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) && !slices.Contains(removed, x) {
			removed = append(removed, x)
		}
	}
	sort.Strings(added)
	sort.Strings(removed)
	return added, removed
}

// equalRule says whether two values of a rule key mean the same: lists
// compare as sets, nothing equals empty.
func equalRule(a, b any) bool {
	if empty(a) && empty(b) {
		return true
	}
	if isList(a) || isList(b) || isMap(a) || isMap(b) {
		x, y := entries(a), entries(b)
		sort.Strings(x)
		sort.Strings(y)
		return slices.Equal(slices.Compact(x), slices.Compact(y))
	}
	return reflect.DeepEqual(a, b)
}

func empty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

func isList(v any) bool { _, ok := v.([]any); return ok }
func isMap(v any) bool  { _, ok := v.(map[string]any); return ok }

// scalar is v as a one-line value: a nested list or mapping in YAML's
// flow style.
func scalar(v any) any {
	switch v.(type) {
	case []any, map[string]any:
		return strings.ReplaceAll(fmt.Sprint(v), "\n", " ")
	}
	return v
}

func listOf(v any) []any {
	l, _ := v.([]any)
	return l
}

func union(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k := range a {
		out[k] = nil
	}
	for k := range b {
		out[k] = nil
	}
	return out
}

// clone is a deep copy of a YAML value.
func clone(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = clone(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = clone(x)
		}
		return out
	}
	return v
}
