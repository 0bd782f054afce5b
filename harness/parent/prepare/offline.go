package prepare

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"

	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// The bench program is built from code wiregate generates from a pull
// request's schemas, so what it imports is wiregate's to know: the
// runner's packages, the opt-in codecs', and what protoc-gen-go and
// wiregate's plugins write, all from modules wiregate's go.mod pins. The
// build therefore fetches nothing: the dependencies of wiregate's own
// packages are prepared first (through the environment's module proxy,
// where the module cache lacks them), then the program builds read-only
// (-mod=readonly) and offline (GOPROXY=off). An import no pinned module
// provides fails the build in one line naming it, and is never looked up.

// prepareDeps puts into the module cache every module the bench
// program's own packages (the runner, the opt-in codecs) need, as the
// bench module in work pins them.
func prepareDeps(ctx context.Context, work string, optIn []string) error {
	pkgs := append([]string{harnessModule + "/program/runner"}, optIn...)
	cmd := proc.Command(ctx, "go", append([]string{"list", "-deps", "-f", "{{.ImportPath}}"}, pkgs...)...)
	cmd.Dir = work
	cmd.Env = goEnv()
	if _, err := cmd.Output(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("prepare the bench program's dependencies: %w", context.Cause(ctx))
		}
		if _, lookErr := exec.LookPath("go"); lookErr != nil {
			return exitcode.BadInput("Go is not on PATH: install Go (actions/setup-go) before running wiregate")
		}
		return fmt.Errorf("prepare the bench program's dependencies (go list -deps %s): %v: %s", strings.Join(pkgs, " "),
			errors.Unwrap(err), strings.TrimSpace(cmd.Captured().String()))
	}
	return nil
}

// offlineEnv is the bench build's environment: no module proxy (goEnv keeps the module graph read-only).
var offlineEnv = []string{"GOPROXY=off"}

var (
	// unrequired is go's error for an import no required module provides
	// (its words differ with the go version and the flags).
	unrequired = regexp.MustCompile(`(?:no required module provides|cannot find module providing) package (\S+?)[;:]`)
	// uncached is go's error for a pinned module the cache lacks, offline.
	uncached = regexp.MustCompile(`(?m)^.*?(\S+@\S+): module lookup disabled by GOPROXY=off`)
)

// offlineError is the one line for a bench build that wanted something
// from outside the module cache; nil for any other failure.
func offlineError(output string) error {
	if m := unrequired.FindStringSubmatch(output); m != nil {
		return exitcode.BadInput("the generated code imports %s, which no module wiregate pins provides: the bench program builds offline and read-only, so nothing is fetched for it", m[1])
	}
	if m := uncached.FindStringSubmatch(output); m != nil {
		return exitcode.BadInput("the bench program needs %s, which the module cache lacks: the bench program builds offline (GOPROXY=off); its dependencies are prepared first, so this one is not the runner's or an opt-in codec's", m[1])
	}
	return nil
}
