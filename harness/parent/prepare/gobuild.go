package prepare

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/wiregate/wiregate/harness/parent/version"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
)

const harnessModule = version.Module

// Harness is the harness source a gate's bench programs link: the one the
// caller named (--harness-dir, else $WIREGATE_HARNESS), for developing
// wiregate; else the source this wiregate was built from, written out
// below the cache directory (embeddedHarness; cache is --cache-dir, and
// empty for the default). A gate never looks for one in the checkout it
// judges: that would be the pull request's code.
func Harness(explicit, cache string) (string, error) {
	for _, c := range []struct{ dir, from string }{{explicit, "--harness-dir"}, {os.Getenv("WIREGATE_HARNESS"), "$WIREGATE_HARNESS"}} {
		if c.dir != "" {
			return harnessAt(c.dir, fmt.Sprintf("%s %s: not wiregate's harness/ directory (no go.mod of module %s there)", c.from, c.dir, harnessModule))
		}
	}
	dir, err := cacheDir(cache)
	if err != nil {
		return "", err
	}
	return embeddedHarness(dir)
}

// findHarness locates this module's source for the measuring commands,
// which judge nothing: the one named, else a harness/go.mod above the
// working directory (`go run ./harness/cmd/wiregate` in this repository),
// else the embedded one.
func findHarness(explicit, cache string) (string, error) {
	if explicit == "" && os.Getenv("WIREGATE_HARNESS") == "" {
		if wd, err := os.Getwd(); err == nil {
			for d := wd; ; d = filepath.Dir(d) {
				for _, c := range []string{d, filepath.Join(d, "harness")} {
					if h, err := harnessAt(c, ""); err == nil {
						return h, nil
					}
				}
				if filepath.Dir(d) == d {
					break
				}
			}
		}
	}
	return Harness(explicit, cache)
}

// harnessAt is dir, absolute, when it holds this module's go.mod; else
// the bad-input error notHere.
func harnessAt(dir, notHere string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || modfile.ModulePath(b) != harnessModule {
		return "", exitcode.BadInput("%s", notHere)
	}
	return filepath.Abs(dir)
}

// sourceHashes memoizes hashSources per directory: the sources do not
// change while wiregate runs, and both sides of a gate load them.
var sourceHashes sync.Map

// HarnessHash is the harness at dir as history points name the wiregate
// that measured them (Schema.Harness).
func HarnessHash(dir string) (string, error) { return hashSources(dir) }

// hashSources fingerprints the harness at dir (sourceFiles).
func hashSources(dir string) (string, error) {
	if h, ok := sourceHashes.Load(dir); ok {
		return h.(string), nil
	}
	h, err := hashSourceFiles(os.DirFS(dir))
	if err == nil {
		sourceHashes.Store(dir, h)
	}
	return h, err
}

// sourceFiles are the harness's files that make a wiregate what it is, in
// lexical order: every file but tests (_test.go, testdata), names Go's
// embedding leaves out (a leading . or _) and modules nested below (an
// opt-in codec's): the Go sources, go.mod and go.sum, assembly, embedded
// schemas. They are what the binary embeds (harness.Source) and writes
// out, so a checkout and an installed wiregate of one commit hash alike.
func sourceFiles(src fs.FS) ([]string, error) {
	var files []string
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		n := d.Name()
		if p == "." {
			return nil
		}
		left := strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")
		if d.IsDir() {
			if _, err := fs.Stat(src, path.Join(p, "go.mod")); left || n == "testdata" || err == nil {
				return fs.SkipDir
			}
			return nil
		}
		if !left && !strings.HasSuffix(n, "_test.go") && d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("harness sources: %w", err)
	}
	sort.Strings(files)
	return files, nil
}

// hashSourceFiles is the sha256 of src's sourceFiles, each named and sized.
func hashSourceFiles(src fs.FS) (string, error) {
	files, err := sourceFiles(src)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, f := range files {
		b, err := fs.ReadFile(src, f)
		if err != nil {
			return "", fmt.Errorf("hash harness sources: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// buildPlugins builds every protoc plugin from the harness module into dir,
// once per harness version, and returns their paths by name.
func buildPlugins(ctx context.Context, harnessDir, dir string) (map[string]string, error) {
	paths := map[string]string{}
	var pkgs []string
	for name, pkg := range pluginSources {
		paths[name] = filepath.Join(dir, name)
		pkgs = append(pkgs, pkg)
	}
	sort.Strings(pkgs)
	defer func() {
		used(dir)
		evict(filepath.Dir(dir), keepPlugins, time.Now())
	}()
	if _, err := os.Stat(paths[pluginWiregate]); err == nil {
		return paths, nil
	}
	// A private staging dir, renamed into place: concurrent prepares (the
	// action's base and head, parallel tests) never see half a directory.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := goBuild(ctx, harnessDir, tmp+"/", nil, pkgs...); err != nil {
		return nil, fmt.Errorf("build protoc plugins: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(paths[pluginWiregate]); statErr != nil {
			return nil, err
		}
	}
	return paths, nil
}

// writeModule writes go.mod (the harness's requirements, so the generated
// program resolves exactly the versions the harness pins, from the module
// cache, and those of the opt-in codec modules it links: optin.go), go.sum
// and main.go into the generated module.
func writeModule(work, harnessDir string, optIn []string) error {
	goVersion, requires, replaces, err := benchRequirements(harnessDir, optIn)
	if err != nil {
		return fmt.Errorf("bench module requirements: %w", err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "module %s\n\ngo %s\n\nrequire (\n", benchModule, goVersion)
	for _, r := range requires {
		fmt.Fprintf(&b, "\t%s %s\n", r[0], r[1])
	}
	b.WriteString(")\n\n")
	for _, r := range replaces {
		fmt.Fprintf(&b, "replace %s => %s\n", r[0], r[1])
	}
	if err := os.WriteFile(filepath.Join(work, "go.mod"), b.Bytes(), 0o644); err != nil {
		return err
	}
	sums, err := benchSums(harnessDir, optIn)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, "go.sum"), sums, 0o644); err != nil {
		return err
	}
	main := `// Code generated by wiregate prepare. DO NOT EDIT.

// Command wiregate-bench measures the schemas it was generated for.
package main

import (
	"github.com/wiregate/wiregate/harness/program/runner"
` + optInImports(optIn) + `
	"` + benchModule + `/wgplain"
)

func main() { runner.Main(wgplain.Subjects()) }
`
	return os.WriteFile(filepath.Join(work, "main.go"), []byte(main), 0o644)
}

// goBuild runs go build in dir; args are further flags, then packages.
// env adds to the build's environment (offlineEnv for the bench program).
func goBuild(ctx context.Context, dir, out string, env []string, args ...string) error {
	args = append([]string{"build", "-trimpath", "-o", out}, args...)
	cmd := proc.Command(ctx, "go", args...) // go build runs compilers: stop them too
	cmd.Dir = dir
	cmd.Env = goEnv(env...)
	if err := cmd.Run(); err != nil {
		if _, lookErr := exec.LookPath("go"); lookErr != nil {
			return exitcode.BadInput("Go is not on PATH: install Go (actions/setup-go) before running wiregate")
		}
		output := strings.TrimSpace(cmd.Captured().String())
		if offline := offlineError(output); offline != nil && ctx.Err() == nil {
			return offline
		}
		return fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), errors.Unwrap(err), output)
	}
	return nil
}

// goEnv is the environment of a go command of wiregate's: no go.work
// above, no cgo, the module graph read-only unless more says otherwise
// (a later entry wins).
func goEnv(more ...string) []string {
	return append(append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly", "CGO_ENABLED=0"), more...)
}
