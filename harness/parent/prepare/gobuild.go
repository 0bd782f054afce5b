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
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
)

const harnessModule = "github.com/wiregate/wiregate/harness"

// HarnessNamed is this module's source as the caller named it: explicit,
// else $WIREGATE_HARNESS. A gate takes only that (cmd/wiregate's gate and
// plan): its working directory is the checkout it judges, and a harness
// found there would be the pull request's code.
func HarnessNamed(explicit string) (string, error) {
	for _, c := range []struct{ dir, from string }{{explicit, "--harness-dir"}, {os.Getenv("WIREGATE_HARNESS"), "$WIREGATE_HARNESS"}} {
		if c.dir != "" {
			return harnessAt(c.dir, fmt.Sprintf("%s %s: not wiregate's harness/ directory (no go.mod of module %s there)", c.from, c.dir, harnessModule))
		}
	}
	return "", exitcode.BadInput("--harness-dir not given: pass wiregate's harness/ directory (the action and `npm run gate` pass their own); a gate does not look for it in the checkout it judges")
}

// findHarness locates this module's source for the measuring commands,
// which judge nothing: HarnessNamed, else a harness/go.mod above the
// working directory (`go run ./harness/cmd/wiregate` in this repository).
func findHarness(explicit string) (string, error) {
	if explicit != "" || os.Getenv("WIREGATE_HARNESS") != "" {
		return HarnessNamed(explicit)
	}
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
	return "", exitcode.BadInput("harness source not found: pass --harness-dir pointing at wiregate's harness/ directory")
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

// hashSources fingerprints the harness's non-test Go sources and go.mod/go.sum.
func hashSources(dir string) (string, error) {
	if h, ok := sourceHashes.Load(dir); ok {
		return h.(string), nil
	}
	h, err := hashSourceFiles(dir)
	if err == nil {
		sourceHashes.Store(dir, h)
	}
	return h, err
}

func hashSourceFiles(dir string) (string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != dir {
			return filepath.SkipDir
		}
		n := d.Name()
		if !d.IsDir() && (strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") || n == "go.mod" || n == "go.sum") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash harness sources: %w", err)
	}
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(dir, f)
		fmt.Fprintf(h, "%s %d\n", rel, len(b))
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
