package bufcheck

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Vetted is a buf config less the check plugins and policies buf may
// not run (Doc), and one phrase per declaration left out (Skipped).
type Vetted struct {
	Doc     map[string]any
	Skipped []string
}

// Trees are the two checkouts a gate compares: each side's repository
// root, and the directory buf runs in on head. buf resolves a plugin's or
// a policy's path from the directory it runs in, not from buf.yaml's.
type Trees struct {
	HeadRoot, HeadDir string
	BaseRoot          string
}

// Vet decides which check plugins and policies of doc, a buf config buf
// runs with on head, buf may run: buf runs a plugin's program during lint
// and breaking, and a pull request writes head. A WebAssembly plugin runs
// (in buf's sandbox), and so does one from the Buf Schema Registry (those
// are WebAssembly too). Any other runs only when base (the base's config)
// declares it identically and every file of the repository it names (its
// program, an argument, an option's value; a policy's file and the files
// its plugins name) is the same in the base. The base's own lint runs the
// base's config as it is: the base is the repository's, not the pull
// request's.
func Vet(t Trees, doc, base map[string]any) Vetted {
	v := Vetted{Doc: clone(doc).(map[string]any)}
	if doc == nil {
		v.Doc = nil
		return v
	}
	for _, d := range []struct {
		key, what string
		why       func(entry any, base []any) string
	}{{"plugins", "check plugin", t.pluginWhy}, {"policies", "policy", t.policyWhy}} {
		entries := listOf(doc[d.key])
		kept := []any{}
		for _, e := range entries {
			if why := d.why(e, listOf(base[d.key])); why != "" {
				v.Skipped = append(v.Skipped, fmt.Sprintf("%s %s (%s)", d.what, label(e), why))
				continue
			}
			kept = append(kept, e)
		}
		if len(kept) < len(entries) {
			v.Doc[d.key] = kept
		}
	}
	return v
}

// pluginWhy is why the plugin entry e may not run, "" when it may: a
// sandboxed plugin may; another when base (the base's plugins) declares
// it as head does and no file it names differs there.
func (t Trees) pluginWhy(e any, base []any) string {
	program := firstString(field(e, "plugin"))
	if program == "" || t.sandboxed(program) {
		return "" // without a program, buf refuses the entry itself
	}
	if !slices.ContainsFunc(base, func(b any) bool { return reflect.DeepEqual(b, e) }) {
		return "the base's buf.yaml does not declare it"
	}
	return t.changed(e)
}

// policyWhy is pluginWhy for a policy entry: one from the Buf Schema
// Registry runs; a local one is a file whose plugins buf runs too. Those
// are declared as in the base when the file is the same there.
func (t Trees) policyWhy(e any, base []any) string {
	file := firstString(field(e, "policy"))
	if file == "" || t.remote(file) {
		return ""
	}
	if !slices.ContainsFunc(base, func(b any) bool { return reflect.DeepEqual(b, e) }) {
		return "the base's buf.yaml does not declare it"
	}
	if why := t.changed(e); why != "" {
		return why
	}
	policy, _ := readYAML(t.inHead(file))
	plugins, _ := policy["plugins"].([]any)
	for _, p := range plugins {
		if program := firstString(field(p, "plugin")); program != "" && !t.sandboxed(program) {
			if why := t.changed(p); why != "" {
				return why
			}
		}
	}
	return ""
}

// changed is why a file of the repository that entry e names (its
// program and arguments, its options' values, its policy file) may not
// run: it differs in the base, or the base has none. "" when none does.
func (t Trees) changed(e any) string {
	var named []string
	for _, key := range []string{"plugin", "options", "policy"} {
		named = append(named, stringsOf(field(e, key))...)
	}
	for _, s := range named {
		path := t.inHead(s)
		if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
			continue // not a file: a program buf finds on PATH, an option's text
		}
		rel, err := filepath.Rel(t.HeadRoot, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue // outside the repository: not the pull request's
		}
		headBytes, err := os.ReadFile(path)
		baseBytes, baseErr := os.ReadFile(filepath.Join(t.BaseRoot, rel))
		if err != nil || baseErr != nil || !bytes.Equal(headBytes, baseBytes) {
			return "this change edits " + filepath.ToSlash(rel)
		}
	}
	return ""
}

// sandboxed says whether buf runs program as WebAssembly: a .wasm file, or
// a plugin of the Buf Schema Registry.
func (t Trees) sandboxed(program string) bool {
	return strings.HasSuffix(program, ".wasm") || t.remote(program)
}

// bsrRef is the shape of a Buf Schema Registry reference
// (buf.build/owner/name, with an optional :label).
var bsrRef = regexp.MustCompile(`^[a-z0-9.-]+\.[a-z0-9-]+(:[0-9]+)?/[^/\s]+/[^/\s]+$`)

// remote says whether buf fetches s from a registry: s has the shape of a
// reference and names no file where buf runs (buf takes an existing path
// for a local plugin, whatever its shape).
func (t Trees) remote(s string) bool {
	if !bsrRef.MatchString(s) {
		return false
	}
	_, err := os.Lstat(t.inHead(s))
	return os.IsNotExist(err)
}

// inHead is s as buf reads it on head: from the directory it runs in.
func (t Trees) inHead(s string) string {
	if filepath.IsAbs(s) {
		return s
	}
	return filepath.Join(t.HeadDir, s)
}

// readYAML reads a YAML mapping; nil without error when the file does not exist.
func readYAML(path string) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	if err := yaml.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// field is e's value under key when e is a mapping.
func field(e any, key string) any {
	m, _ := e.(map[string]any)
	return m[key]
}

// firstString is v when a string, or the first element of a list of them.
func firstString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		if len(v) > 0 {
			s, _ := v[0].(string)
			return s
		}
	}
	return ""
}

// stringsOf is every string in v, at any depth.
func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, stringsOf(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = append(out, stringsOf(v[k])...)
		}
		return out
	}
	return nil
}

// label names an entry in the report: its program or policy file.
func label(e any) string {
	for _, key := range []string{"plugin", "policy"} {
		if s := firstString(field(e, key)); s != "" {
			return s
		}
	}
	return "(unnamed)"
}
