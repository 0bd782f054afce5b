package prepare

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"

	"github.com/wiregate/wiregate/harness/parent/version"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// An opt-in format's codec lives in a Go module of its own below harness/
// (codec.Format.Module), so that no bench program links its library unless
// the format is asked for. What the bench program's module then needs, and
// nothing else does: a requirement and a replace pointing at the module's
// directory, the module's own requirements and go.sum lines (the build is
// offline, from the module cache), and a blank import in main.go whose
// init hands the codec to package codec (codec.Provide).

// optInModules lists the modules of the opt-in formats among formats,
// sorted: with the plugins, what decides the bench program's imports.
func optInModules(formats []codec.Format) []string {
	var out []string
	for _, f := range formats {
		if f.Module != "" && !slices.Contains(out, f.Module) {
			out = append(out, f.Module)
		}
	}
	sort.Strings(out)
	return out
}

// moduleDir is an opt-in module's source directory: its path below the
// harness module's, under harnessDir. A harness this wiregate wrote out of
// itself has none (Go embeds no other module's files): "" then.
func moduleDir(harnessDir, module string) (string, error) {
	rel, ok := strings.CutPrefix(module, harnessModule+"/")
	if !ok {
		return "", fmt.Errorf("opt-in module %s is not below %s", module, harnessModule)
	}
	dir := filepath.Join(harnessDir, filepath.FromSlash(rel))
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return "", nil
	}
	return dir, nil
}

// fromProxy is the version an opt-in module is required at when the
// harness has no source of it: a tagged wiregate's own version, fetched
// through the module proxy as any requirement is (its tag is
// harness/program/codec/avrohamba/vX.Y.Z beside harness/vX.Y.Z). A
// development build cannot name one.
func fromProxy(module string, v version.Info) (string, error) {
	if release, ok := v.Release(); ok {
		return release, nil
	}
	return "", exitcode.BadInput("format %s: its codec is the module %s, which this wiregate (%s, built without a wiregate checkout's nested modules) cannot build: pass --harness-dir DIR of a wiregate checkout, or use a tagged wiregate (go install %s/cmd/wiregate@vX.Y.Z), which fetches the module at its version",
		optInFormat(module), module, v, harnessModule)
}

// optInFormat is the format whose codec module is module.
func optInFormat(module string) string {
	for _, n := range codec.Names() {
		if f, _ := codec.Lookup(n); f.Module == module {
			return n
		}
	}
	return module
}

// benchRequirements are the bench module's requirements: the harness's and
// each opt-in module's (the higher version where both name one), the
// harness and the opt-in modules themselves at v0.0.0 (replaced by their
// directories, in replaces).
func benchRequirements(harnessDir string, modules []string) (goVersion string, requires [][2]string, replaces [][2]string, err error) {
	versions := map[string]string{harnessModule: "v0.0.0"}
	replaces = [][2]string{{harnessModule, harnessDir}}
	add := func(dir string) (*modfile.File, error) {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			return nil, err
		}
		f, err := modfile.Parse(filepath.Join(dir, "go.mod"), b, nil)
		if err != nil {
			return nil, fmt.Errorf("parse %s/go.mod: %w", dir, err)
		}
		for _, r := range f.Require {
			if v, ok := versions[r.Mod.Path]; !ok || semver.Compare(r.Mod.Version, v) > 0 {
				versions[r.Mod.Path] = r.Mod.Version
			}
		}
		return f, nil
	}
	hm, err := add(harnessDir)
	if err != nil {
		return "", nil, nil, err
	}
	for _, m := range modules {
		dir, err := moduleDir(harnessDir, m)
		if err != nil {
			return "", nil, nil, err
		}
		if dir == "" {
			if versions[m], err = fromProxy(m, version.This()); err != nil {
				return "", nil, nil, err
			}
			continue
		}
		if _, err := add(dir); err != nil {
			return "", nil, nil, err
		}
		versions[m] = "v0.0.0"
		replaces = append(replaces, [2]string{m, dir})
	}
	// The replaced modules keep v0.0.0 whatever an opt-in module requires
	// of the harness.
	versions[harnessModule] = "v0.0.0"
	for p, v := range versions {
		requires = append(requires, [2]string{p, v})
	}
	sort.Slice(requires, func(i, j int) bool { return requires[i][0] < requires[j][0] })
	return hm.Go.Version, requires, replaces, nil
}

// benchSums is the harness's go.sum followed by the opt-in modules' lines
// it lacks.
func benchSums(harnessDir string, modules []string) ([]byte, error) {
	out, err := os.ReadFile(filepath.Join(harnessDir, "go.sum"))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		seen[l] = true
	}
	for _, m := range modules {
		dir, err := moduleDir(harnessDir, m)
		if err != nil {
			return nil, err
		}
		if dir == "" { // from the proxy: go build adds its sums, checked against the checksum database
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, "go.sum"))
		if err != nil {
			return nil, err
		}
		for _, l := range strings.Split(string(b), "\n") {
			if l != "" && !seen[l] {
				seen[l] = true
				out = append(append(out, l...), '\n')
			}
		}
	}
	return out, nil
}

// optInImports are main.go's blank imports of the opt-in codecs.
func optInImports(modules []string) string {
	var b bytes.Buffer
	for _, m := range modules {
		fmt.Fprintf(&b, "\t_ %q\n", m)
	}
	return b.String()
}
